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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_ponybench._util import textfiles
from pytest_ponybench.core.judge.prompt import JudgeReply, JudgeRequest
from pytest_ponybench.isolation import confine
from pytest_ponybench.session import agent

if TYPE_CHECKING:
    from pytest_ponybench.offline.server import OfflineServer

STREAM = "judge.jsonl"
STDERR = "judge.stderr"
PROMPT = "prompt.md"


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
    error = agent.invalid_reason(stream, run, stderr_tail)
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
    from pytest_ponybench.offline.agents import is_offline

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
def offline_session(server: OfflineServer, judge_id: str, folder: Path) -> Iterator[str]:
    """Register a judge call with the offline server for its duration; yields its base URL."""
    from pytest_ponybench.offline.script import CellScript

    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "offline_requests.jsonl"
    server.register(judge_id, CellScript(workspace=(folder / "ws").resolve(), good={}, bad={}, log_path=log))
    try:
        yield server.cell_url(judge_id)
    finally:
        server.unregister(judge_id)


class CliJudge:
    """A `Judge` that calls the claude CLI, each call in its own folder under `root`
    (`<n>-<hash>`); an offline judge model is served by `server`."""

    def __init__(
        self,
        *,
        claude: str,
        model: str,
        root: Path,
        server: OfflineServer | None = None,
        timeout_s: float = 180.0,
        hide: Sequence[Path] = (),
        max_budget_usd: float | None = None,
    ) -> None:
        self.claude, self.model, self.root, self.server = claude, model, root, server
        self.timeout_s, self.hide, self.max_budget_usd = timeout_s, tuple(hide), max_budget_usd
        self._count = itertools.count(1)
        self._lock = threading.Lock()

    def __call__(self, request: JudgeRequest) -> JudgeReply:
        from pytest_ponybench.offline.agents import is_offline

        with self._lock:
            n = next(self._count)
        digest = hashlib.sha256(request.prompt.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        folder = self.root / f"{n}-{digest}"
        if not is_offline(self.model):
            return self._run(request, folder, None)
        if self.server is None:
            return JudgeReply(text="", error=f"the judge model {self.model} needs the offline server")
        with offline_session(self.server, f"judge-{id(self):x}-{folder.name}", folder) as url:
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
