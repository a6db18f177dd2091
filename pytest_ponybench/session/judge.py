"""Calling the judge: a claude session of its own, through the same pieces as a cell.

The judge never shares a session with the agent: each call is a fresh `claude -p` with the
judge's system prompt replacing Claude Code's, no tools at all, no settings, MCP servers,
skills or slash commands, one turn, and no session kept (`ClaudeCode.judge_command`). It starts
through the one launcher (`agents.launch`) like a cell: its HOME, config and environment from
the adapter (the allowlist; the offline key for an offline judge), confined where bubblewrap
runs, its prompt read from a file on stdin (no argument length limit), its stream parsed once
into a transcript: the answer is its reply, and its cost and tokens are the session's, kept
apart from the agent's. Retries, the spend ledger and the budget wrap this at integration.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from pytest_ponybench._util import trees
from pytest_ponybench.agents import launch as launcher
from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.claude import ClaudeCode
from pytest_ponybench.core.endpoint import is_offline
from pytest_ponybench.core.graders.outcome import JUDGE_TYPES
from pytest_ponybench.core.judge.prompt import JudgeReply, JudgeRequest
from pytest_ponybench.core.tasks import Task
from pytest_ponybench.core.transcript import Transcript
from pytest_ponybench.gateway import meter
from pytest_ponybench.gateway.routes import NoCredential, Routes
from pytest_ponybench.gateway.server import Seat
from pytest_ponybench.isolation import confine
from pytest_ponybench.scoring.score import Grading

__all__ = [
    "CliJudge",
    "GATEWAY",
    "JudgeSettings",
    "PROMPT",
    "REQUESTS",
    "STDERR",
    "STREAM",
    "reply_of",
    "run",
]

STREAM = "judge.jsonl"
STDERR = "judge.stderr"
PROMPT = "prompt.md"
REQUESTS = "offline_requests.jsonl"
GATEWAY = "gateway.jsonl"


def reply_of(session: launcher.Session, seat: Seat) -> JudgeReply:
    """The judge's answer from its session, its cost and tokens as the gateway metered them;
    error when it measured nothing."""
    t = session.transcript
    problem = session.error
    error = None if problem is None else problem.message
    if session.tampered is not None:
        error = f"the judge's stream was tampered with: {session.tampered}"  # never retried
    if error is None and session.run.timed_out:
        error = "the judge's session timed out"
    if error is None and seat.refused is not None:
        error = f"budget: {seat.refused}"
    text = (t.result or {}).get("result")
    if error is None and not isinstance(text, str):
        error = "the judge's result event has no text"
    spent = meter.Totals.of(*meter.by_source(seat.requests, None).values())
    return JudgeReply(
        text=text if isinstance(text, str) else "",
        cost_usd=spent.cost_usd,
        input_tokens=spent.input_tokens + spent.cache_read_tokens + spent.cache_write_tokens,
        output_tokens=spent.output_tokens,
        error=error,
        retryable=problem is not None and problem.kind.retried,
    )


def run(
    request: JudgeRequest,
    *,
    claude: str,
    model: str,
    folder: Path,
    routes: Routes,
    timeout_s: float = 180.0,
    confined: bool = True,
    hide: Sequence[Path] = (),
    max_budget_usd: float | None = None,
    env_base: Mapping[str, str] | None = None,
    session_id: str | None = None,
) -> JudgeReply:
    """One judge call, through the gateway (its seat's log and the offline server's requests
    beside its stream). `folder` keeps its prompt, stream and stderr; the session's HOME and
    empty working folder live there while it runs and are removed after."""
    folder.mkdir(parents=True, exist_ok=True)
    ws, home = folder / "ws", folder / "home"
    ws.mkdir(exist_ok=True)
    prompt_file = folder / PROMPT
    prompt_file.write_text(request.prompt, encoding="utf-8")
    cli = ClaudeCode()
    try:
        route = routes.open(
            session_id or f"judge-{folder.name}-{os.getpid()}",
            model,
            workspace=ws.resolve(),
            requests_log=folder / REQUESTS,
            log=folder / GATEWAY,
            kind="judge",
        )
    except NoCredential as exc:
        return JudgeReply(text="", error=str(exc))
    seat: Seat | None = None
    try:
        spec = SessionSpec(
            prompt="",
            model=model,
            home=home,
            offline=route.offline,
            api_timeout_ms=int(min(timeout_s * 0.6, 120 if route.offline else 600) * 1000),
        )
        prepared = launcher.prepare(
            cli,
            cli.judge_command(claude, model, request.system, max_budget_usd=max_budget_usd),
            spec,
            ticket=route.ticket,
            workspace=ws,
            hide=hide,
            protected=confine.protected(),  # it binds only the claude install: never a folder above
            env_base=env_base,
            confined=confined,
        )
        session = launcher.run(
            cli,
            prepared,
            workspace=ws,
            stream=folder / STREAM,
            stderr=folder / STDERR,
            timeout_s=timeout_s,
            stdin=prompt_file,
        )
        seat = routes.close(route)
        return reply_of(session, seat)
    finally:
        if seat is None:
            routes.close(route)
        trees.remove(home)
        trees.remove(ws)


@dataclass(frozen=True, kw_only=True)
class JudgeSettings:
    """What every call of a run's judge is given (`run`'s keywords): the claude binary, the
    judge model, the routes of its requests, its timeout, what it must not see, its budget."""

    claude: str
    model: str
    routes: Routes
    timeout_s: float = 180.0
    hide: tuple[Path, ...] = ()
    max_budget_usd: float | None = None

    def settings(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(JudgeSettings)}


@dataclass(frozen=True, kw_only=True, eq=False)  # each judge its own, its calls counted
class CliJudge(JudgeSettings):
    """A `Judge` that calls the claude CLI, each call in its own folder under `root`
    (`<n>-<hash>`); an offline judge model is served by the routes' offline endpoint."""

    root: Path
    retries: int = 1
    backoff_s: float = 5.0
    _count: Iterator[int] = field(default_factory=lambda: itertools.count(1), init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)

    def __call__(self, request: JudgeRequest) -> JudgeReply:
        """One judge answer; a call the API failed is asked again (up to `retries` times, after
        a backoff), its cost added, as a cell is retried."""
        reply = self._once(request)
        spent = (reply.cost_usd, reply.input_tokens, reply.output_tokens)
        for attempt in range(1, self.retries + 1):
            if not reply.retryable:
                break
            time.sleep(self.backoff_s * attempt)
            reply = self._once(request)
            spent = (spent[0] + reply.cost_usd, spent[1] + reply.input_tokens, spent[2] + reply.output_tokens)
        return replace(reply, cost_usd=spent[0], input_tokens=spent[1], output_tokens=spent[2])

    def _once(self, request: JudgeRequest) -> JudgeReply:
        with self._lock:
            n = next(self._count)
        digest = hashlib.sha256(request.prompt.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        folder = self.root / f"{n}-{digest}"
        try:
            return run(
                request, folder=folder, session_id=f"judge-{id(self):x}-{folder.name}", **self.settings()
            )
        except RuntimeError as exc:  # an offline judge with no offline endpoint
            return JudgeReply(text="", error=str(exc))


@dataclass(frozen=True, kw_only=True)
class Judging(JudgeSettings):
    """How a run's cells are judged: the judge model and the pieces its calls need (`runs`: the
    run's --judge-runs, for a task that sets no judge_runs of its own)."""

    runs: int = 1
    retries: int = 1

    def grading(self, task: Task, transcript: Transcript, folder: Path) -> Grading:
        """The grading of one cell: its transcript, and a judge whose calls are kept under
        folder (asked only by a task that declares a judge grader)."""
        if not any(g.type in JUDGE_TYPES for g in task.graders):
            return Grading(transcript=transcript)
        judge = CliJudge(root=folder, retries=self.retries, **self.settings())
        runs = self.runs if task.judge_runs is None else task.judge_runs  # the task's own wins
        return Grading(
            transcript=transcript, judge=judge, judge_runs=runs, live_judge=not is_offline(self.model)
        )
