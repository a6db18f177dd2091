"""Calling the judge: a claude session of its own, through the same pieces as a cell.

The judge never shares a session with the agent: each call is a fresh `claude -p` with the
judge's system prompt replacing Claude Code's, no tools at all (`--tools ""`), no settings,
MCP servers, skills or slash commands, one turn, and no session kept. Its HOME, config and
environment come from `agent.cell_env` (the allowlist; the offline key for an offline judge),
it is confined like a cell where bubblewrap runs, its prompt is read from a file on stdin (no
argument length limit), and its stream is parsed by `agent.parse_stream`: the answer is the
result event's text, and its cost and tokens are the result event's, kept apart from the
agent's. Retries, the spend ledger and the budget wrap this at integration.
"""

from __future__ import annotations

import hashlib
import itertools
import shutil
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from pytest_ponybench._util import textfiles
from pytest_ponybench.core.endpoint import Endpoint, is_offline, served_by
from pytest_ponybench.core.graders.outcome import JUDGE_TYPES
from pytest_ponybench.core.judge.prompt import JudgeReply, JudgeRequest
from pytest_ponybench.core.tasks import Task
from pytest_ponybench.isolation import confine
from pytest_ponybench.scoring.score import Grading
from pytest_ponybench.session import agent

__all__ = [
    "CliJudge",
    "PROMPT",
    "REQUESTS",
    "STDERR",
    "STREAM",
    "command",
    "offline_session",
    "reply_of",
    "run",
]

STREAM = "judge.jsonl"
STDERR = "judge.stderr"
PROMPT = "prompt.md"
REQUESTS = "offline_requests.jsonl"


def command(claude: str, model: str, system: str, *, max_budget_usd: float | None = None) -> list[str]:
    """The judge's claude command; the prompt comes on stdin."""
    cmd = [
        claude,
        "-p",
        "--model",
        model,
        "--output-format",
        "stream-json",
        "--verbose",
        "--max-turns",
        "1",
        "--tools",
        "",
        "--system-prompt",
        system,
        "--setting-sources",
        "",
        "--strict-mcp-config",
        "--disable-slash-commands",
        "--no-session-persistence",
    ]
    if max_budget_usd is not None:
        cmd += ["--max-budget-usd", f"{max_budget_usd:g}"]
    return cmd


def reply_of(stream: agent.Stream, run: agent.Run, stderr_tail: str) -> JudgeReply:
    """The judge's answer, cost and tokens from its stream; error when the session measured nothing."""
    result = stream.result or {}
    usage = stream.usage
    tokens_in = sum(
        int(usage.get(k) or 0)
        for k in ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
    )
    cost = result.get("total_cost_usd")
    problem = agent.invalid(stream, run, stderr_tail)
    error = None if problem is None else problem.message
    if (tampered := agent.tampering(run, stream)) is not None:
        problem, error = None, f"the judge's stream was tampered with: {tampered}"  # never retried
    if error is None and run.timed_out:
        error = "the judge's session timed out"
    text = result.get("result")
    if error is None and not isinstance(text, str):
        error = "the judge's result event has no text"
    return JudgeReply(
        text=text if isinstance(text, str) else "",
        cost_usd=float(cost) if isinstance(cost, int | float) and not isinstance(cost, bool) else 0.0,
        input_tokens=tokens_in,
        output_tokens=int(usage.get("output_tokens") or 0),
        error=error,
        retryable=problem is not None and problem.kind.retried,
    )


def run(
    request: JudgeRequest,
    *,
    claude: str,
    model: str,
    folder: Path,
    timeout_s: float = 180.0,
    base_url: str | None = None,
    confined: bool = True,
    hide: Sequence[Path] = (),
    max_budget_usd: float | None = None,
    env_base: Mapping[str, str] | None = None,
) -> JudgeReply:
    """One judge call. `folder` keeps its prompt, stream and stderr; the session's HOME and
    empty working folder live there while it runs and are removed after (a logged-in user's
    copied credentials with them)."""
    offline = is_offline(model)
    folder.mkdir(parents=True, exist_ok=True)
    ws, home = folder / "ws", folder / "home"
    ws.mkdir(exist_ok=True)
    prompt_file = folder / PROMPT
    prompt_file.write_text(request.prompt, encoding="utf-8")
    try:
        env = agent.cell_env(
            home,
            base_url=base_url,
            offline=offline,
            api_timeout_ms=int(min(timeout_s * 0.6, 120 if offline else 600) * 1000),
            base=env_base,
        )
        cmd = command(claude, model, request.system, max_budget_usd=max_budget_usd)
        credentials = None if offline else agent.login_credentials(env, base=env_base)
        wrapped = confined and confine.status().available
        pre: confine.Prefix | None = None
        if wrapped:
            cmd, pre = confine.agent_command(
                cmd,
                workspace=ws,
                home=home,
                env=env,
                hide=hide,
                credentials=credentials,
                credentials_path=home / agent.CREDENTIALS,
                protected=confine.protected(),  # it binds only the claude install: never a folder above
            )
        elif credentials is not None:
            agent.place_credentials(home, credentials)
        try:
            ran = agent.run_claude(
                cmd,
                cwd=ws,
                env=env,
                stdout=folder / STREAM,
                stderr=folder / STDERR,
                timeout_s=timeout_s,
                confined=wrapped,
                stdin=prompt_file,
                pass_fds=pre.pass_fds if pre is not None else (),
            )
        finally:
            if pre is not None:
                pre.close()
        return reply_of(agent.parse_stream(folder / STREAM), ran, textfiles.last_line(folder / STDERR))
    finally:
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(ws, ignore_errors=True)


@contextmanager
def offline_session(endpoint: Endpoint, judge_id: str, folder: Path) -> Iterator[str]:
    """Serve a judge call from the offline endpoint for its duration; yields its base URL."""
    folder.mkdir(parents=True, exist_ok=True)
    url = endpoint.open(judge_id, (folder / "ws").resolve(), folder / REQUESTS)
    try:
        yield url
    finally:
        endpoint.close(judge_id)


class CliJudge:
    """A `Judge` that calls the claude CLI, each call in its own folder under `root`
    (`<n>-<hash>`); an offline judge model is served by `endpoint`."""

    def __init__(
        self,
        *,
        claude: str,
        model: str,
        root: Path,
        endpoint: Endpoint | None = None,
        timeout_s: float = 180.0,
        hide: Sequence[Path] = (),
        max_budget_usd: float | None = None,
        retries: int = 1,
        backoff_s: float = 5.0,
    ) -> None:
        self.claude, self.model, self.root, self.endpoint = claude, model, root, endpoint
        self.retries, self.backoff_s = retries, backoff_s
        self.timeout_s, self.hide, self.max_budget_usd = timeout_s, tuple(hide), max_budget_usd
        self._count = itertools.count(1)
        self._lock = threading.Lock()

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
            offline = served_by(self.endpoint, self.model)
        except RuntimeError as exc:
            return JudgeReply(text="", error=str(exc))
        if not offline or self.endpoint is None:
            return self._run(request, folder, None)
        with offline_session(self.endpoint, f"judge-{id(self):x}-{folder.name}", folder) as url:
            return self._run(request, folder, url)

    def _run(self, request: JudgeRequest, folder: Path, base_url: str | None) -> JudgeReply:
        return run(
            request,
            claude=self.claude,
            model=self.model,
            folder=folder,
            timeout_s=self.timeout_s,
            base_url=base_url,
            hide=self.hide,
            max_budget_usd=self.max_budget_usd,
        )


@dataclass(frozen=True)
class Judging:
    """How a run's cells are judged: the judge model and the pieces its calls need (`runs`: the
    run's --judge-runs, for a task that sets no judge_runs of its own)."""

    claude: str
    model: str
    runs: int = 1
    endpoint: Endpoint | None = None
    timeout_s: float = 180.0
    hide: tuple[Path, ...] = ()
    max_budget_usd: float | None = None
    retries: int = 1

    def grading(self, task: Task, stream: Path, folder: Path) -> Grading:
        """The grading of one cell: its stream, and a judge whose calls are kept under folder
        (asked only by a task that declares a judge grader)."""
        if not any(g.type in JUDGE_TYPES for g in task.graders):
            return Grading(stream=stream)
        judge = CliJudge(
            claude=self.claude,
            model=self.model,
            root=folder,
            endpoint=self.endpoint,
            timeout_s=self.timeout_s,
            hide=self.hide,
            max_budget_usd=self.max_budget_usd,
            retries=self.retries,
        )
        runs = self.runs if task.judge_runs is None else task.judge_runs  # the task's own wins
        return Grading(stream=stream, judge=judge, judge_runs=runs, live_judge=not is_offline(self.model))
