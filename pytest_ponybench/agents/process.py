"""One agent CLI process: its own process group and PID namespace, its output read live, killed
whole on timeout, Ctrl-C or the harness's death. Nothing here knows which CLI it runs.

Facts it relies on: stdin must be /dev/null or a file (an open pipe can block a CLI); anything a
CLI starts (MCP servers, setsid'd children) can outlive it unless its namespace dies with it;
a CLI's own turn limit can be overrun, so the harness's time limit ends the rest.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_ponybench.agents import livestream
from pytest_ponybench.isolation.sandbox import Spawned, death_signal_prefix, kill_group, namespace_prefix

__all__ = ["Run", "START_CAP_S", "pid_namespace_prefix", "run_process", "version_line"]

START_CAP_S = 10.0  # a start slot is given back after this even if the CLI has said nothing


def pid_namespace_prefix() -> tuple[str, ...]:
    """unshare --pid so every descendant of the CLI (MCP servers, setsid'd children) dies with it."""
    return namespace_prefix(net=False)[0]


@dataclass
class Run:
    exit_code: int | None
    timed_out: bool
    wall_s: float
    start_error: str | None = None
    cpu_s: float | None = None  # the session and all it started, when it was reaped here
    stdout: livestream.Capture | None = None  # what the live read of its stream saw
    stderr: livestream.Capture | None = None


def run_process(
    cmd: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    stdout: Path,
    stderr: Path,
    timeout_s: float,
    confined: bool = False,
    on_started: Callable[[], None] | None = None,
    pass_fds: Sequence[int] = (),
    stdin: Path | None = None,
) -> Run:
    """Run in its own process group and PID namespace; kill all on timeout.

    Its stdout and stderr are sockets the harness reads live into the files stdout and stderr
    (livestream): nothing else in the cell can open them, so nothing else can rewrite them.
    A confined cmd (confine.wrap) brings its own PID namespace and dies with its parent.
    on_started is called once the CLI is up: its first output line is out, it ended, or
    START_CAP_S passed; always called, also when the start fails. stdin is /dev/null, or a file
    (never a pipe): a CLI given no prompt argument reads its prompt there, which no argument
    length limit bounds.
    """
    started = time.monotonic()
    namespace = () if confined else pid_namespace_prefix()
    out: livestream.LiveOutput | None = None
    err: livestream.LiveOutput | None = None
    try:
        out = livestream.LiveOutput(stdout, livestream.STREAM_CAP)
        err = livestream.LiveOutput(stderr, livestream.STDERR_CAP)
        with open(stdin if stdin is not None else os.devnull, "rb") as si:
            proc = Spawned(
                subprocess.Popen(
                    [*death_signal_prefix(), *namespace, *cmd],
                    cwd=cwd,
                    env=dict(env),
                    stdin=si,
                    stdout=out.child,
                    stderr=err.child,
                    start_new_session=True,
                    pass_fds=tuple(pass_fds),
                )
            )
            out.started()
            err.started()
            timed_out = False
            try:
                if on_started is not None:
                    _wait_until_up(proc, out, min(START_CAP_S, timeout_s))
                    on_started()
                    on_started = None
                proc.wait(timeout=max(0.0, started + timeout_s - time.monotonic()))
            except subprocess.TimeoutExpired:
                timed_out = True
            except BaseException:
                kill_group(proc, grace_s=0.5)  # Ctrl-C: no CLI may outlive the harness
                raise
            kill_group(proc, grace_s=1.0 if timed_out else 0.0)
    except OSError as exc:
        return Run(None, False, time.monotonic() - started, start_error=f"could not start: {exc}")
    finally:
        if on_started is not None:
            on_started()
        captured = [o.finish() if o is not None else None for o in (out, err)]
    return Run(
        proc.returncode,
        timed_out,
        time.monotonic() - started,
        cpu_s=proc.cpu_s,
        stdout=captured[0],
        stderr=captured[1],
    )


def _wait_until_up(proc: Spawned, out: livestream.LiveOutput, cap_s: float) -> None:
    """Until the session's first output, its end, or cap_s: its start-up burst is over."""
    deadline = time.monotonic() + cap_s
    # Woken by the first output at once; its end (which also closes the stream, unless something
    # it started holds it) is looked for ten times a second, not polled in between.
    while (left := deadline - time.monotonic()) > 0:
        if out.first_output.wait(min(left, 0.1)):
            return
        try:
            proc.wait(timeout=0)
            return
        except subprocess.TimeoutExpired:
            pass


def version_line(binary: str, flag: str = "--version") -> str | None:
    """The first line a CLI prints of its version, or None when it does not start."""
    try:
        done = subprocess.run(
            [binary, flag],
            capture_output=True,
            text=True,
            errors="replace",  # a version line is informational: odd bytes must not stop a run
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip().splitlines()[0] if done.returncode == 0 and done.stdout else None
