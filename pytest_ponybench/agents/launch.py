"""One launcher for every agent session: a cell's, a judge's and the pre-flight's.

`prepare` turns an adapter's command into the confined one (bubblewrap where this machine has
it; a paid model unconfined only when the caller allows it), its network the model gateway
alone (the seat's ticket: the gateway's socket bound in, its bridge as the sandbox's first
process), with the session's environment and its own gateway token. `run` runs it with
its stream read live (`agents.livestream`), parses the stream once through the adapter, and
says whether the session measured anything (`invalid`) and whether the stream is its own
(`tampering`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pytest_ponybench._util import textfiles
from pytest_ponybench.agents import livestream
from pytest_ponybench.agents.base import Agent, SessionSpec
from pytest_ponybench.agents.process import Run, run_process
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.records import CellError
from pytest_ponybench.core.transcript import Transcript
from pytest_ponybench.gateway.server import Ticket
from pytest_ponybench.isolation import confine

__all__ = ["Prepared", "Session", "prepare", "run", "tampering"]


@dataclass
class Prepared:
    """A command ready to run, and how it is confined."""

    cmd: list[str]
    env: dict[str, str]
    confined: bool
    prefix: confine.Prefix | None = None
    # run.json's and the record's word on it: method, user namespace, seccomp, CapEff
    confinement: dict[str, Any] | None = None

    @property
    def pass_fds(self) -> tuple[int, ...]:
        return tuple(self.prefix.pass_fds) if self.prefix is not None else ()

    def close(self) -> None:
        """The harness's copies of the descriptors the sandbox was given."""
        if self.prefix is not None:
            self.prefix.close()


def prepare(
    agent: Agent,
    cmd: Sequence[str],
    spec: SessionSpec,
    *,
    ticket: Ticket,
    workspace: Path,
    readable: Sequence[Path] = (),
    hide: Sequence[Path] = (),
    protected: Mapping[str, Path] | None = None,
    env_base: Mapping[str, str] | None = None,
    confined: bool = True,
    refuse_unconfined: str | None = None,
    open_network: bool = False,
) -> Prepared:
    """cmd as it will run: confined to its workspace and HOME (the readable paths besides, never
    one that is or holds a protected one) with the gateway as its only network, its environment
    from the adapter with the seat's token. Where this machine cannot confine, a paid model is
    refused naming the flag `refuse_unconfined` (None: the caller decided already); an
    unconfined session, or one whose task opens the network (`network = "open"`), reaches the
    gateway on the host's loopback port."""
    state = confine.status()
    if not (confined and state.available):
        if confined and refuse_unconfined is not None and not spec.offline:
            raise RuntimeError(confine.refusal(["this cell's model"], False, refuse_unconfined))
        env = agent.environment(replace(spec, base_url=ticket.url, api_key=ticket.token), env_base)
        return Prepared(list(cmd), env, confined=False)
    passage = None if open_network else confine.Passage(ticket.socket, ticket.bridge, confine.bridge_python())
    url = ticket.url if passage is None else passage.url
    env = agent.environment(replace(spec, base_url=url, api_key=ticket.token), env_base)
    wrapped, prefix = confine.agent_command(
        cmd,
        workspace=workspace,
        home=spec.home,
        env=env,
        hide=hide,
        readable=readable,
        protected=protected,
        passage=passage,
    )
    how = {
        "method": state.method,
        "userns": state.userns,
        "seccomp": state.seccomp,
        "cap_eff": state.caps.get("CapEff"),
        "network": "open (the task asks for it)" if open_network else "gateway only",
    }
    return Prepared(wrapped, env, confined=True, prefix=prefix, confinement=how)


@dataclass
class Session:
    """What one session did, read once: its process, its transcript, and the harness's word on
    both."""

    run: Run
    transcript: Transcript
    error: CellError | None  # measured nothing about the arm (never set when tampered)
    tampered: str | None = None  # why the stream is not the session's own
    stderr_tail: str = ""
    fields: dict[str, Any] = field(default_factory=dict)


def run(
    agent: Agent,
    prepared: Prepared,
    *,
    workspace: Path,
    stream: Path,
    stderr: Path,
    timeout_s: float,
    arm: Arm | None = None,
    on_started: Callable[[], None] | None = None,
    stdin: Path | None = None,
) -> Session:
    """Run a prepared session, parse its stream once and judge it: invalid (the adapter's
    reasons, and an arm that did not reach it), tampered (`tampering`)."""
    try:
        ran = run_process(
            prepared.cmd,
            cwd=workspace,
            env=prepared.env,
            stdout=stream,
            stderr=stderr,
            timeout_s=timeout_s,
            confined=prepared.confined,
            on_started=on_started,
            pass_fds=prepared.pass_fds,
            stdin=stdin,
        )
    finally:
        prepared.close()
    transcript = agent.parse(stream)
    tail = textfiles.quote_file(stderr)
    error = agent.invalid(transcript, ran, tail)
    if error is None and arm is not None:
        error = agent.not_applied(arm, transcript)
    tampered = tampering(ran, transcript)
    if tampered is not None:
        error = None  # what a tampered stream says about the API is never believed, nor retried
    return Session(ran, transcript, error, tampered, tail)


def tampering(run: Run, transcript: Transcript) -> str | None:
    """Why the stream is not what the session wrote, or None. Only the process the harness
    started holds the stream's socket, so each of these means that something reached past it
    (or that the CLI was replaced): the cell is failed against the arm, never retried."""
    cap = run.stdout
    if cap is not None:
        if cap.foreign:
            pids = ", ".join(str(p) for p in cap.foreign[:3])
            return f"a process other than the session (pid {pids}) wrote into its stream"
        if cap.over_cap:
            return f"the stream went over its cap of {cap.cap} bytes ({cap.bytes + cap.dropped} written)"
        if cap.error is None and not livestream.file_matches(cap):
            return "the stream on disk is not what the harness read live"
    if transcript.holes:
        return f"{transcript.holes} line(s) of the stream hold NUL bytes"
    if transcript.results > 1:
        return f"the stream holds {transcript.results} result events"
    if transcript.after_result:
        return f"{transcript.after_result} event(s) follow the result event"
    return None
