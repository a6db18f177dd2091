"""The claude CLI: the command for an arm, an isolated environment, the run, the stream parse.

Facts this module relies on (claude 2.1.x): stream-json needs --verbose; stdin must be
/dev/null; a leftover CLAUDECODE makes it refuse to start; as root bypassPermissions needs
IS_SANDBOX=1; API errors arrive as a result event with is_error and api_error_status while the
exit code says little; grandchildren can outlive it; --max-turns can be overrun.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench._util import textfiles
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.policy import AgentPolicy
from pytest_ponybench.core.records import CellError, ErrorKind
from pytest_ponybench.isolation.sandbox import Spawned, death_signal_prefix, kill_group, namespace_prefix
from pytest_ponybench.session import livestream

__all__ = [
    "API_ERROR_RE",
    "API_KEY_VARS",
    "CREDENTIALS",
    "DROP_ENV",
    "ENV_ALLOW",
    "ENV_ALLOW_PREFIX",
    "LIVE_ALLOW_PREFIX",
    "NO_RUN",
    "OFFLINE_API_KEY",
    "Run",
    "START_CAP_S",
    "Stream",
    "allowed_env",
    "build_command",
    "cell_env",
    "claude_version",
    "invalid",
    "invalid_reason",
    "login_credentials",
    "parse_stream",
    "pid_namespace_prefix",
    "place_credentials",
    "run_claude",
    "tampering",
    "tool_flags",
]

# Appended to every arm's system prompt, identically: the benchmark measures the code written,
# not its execution, and an agent that starts servers or installs packages measures flailing.
NO_RUN = (
    "Write the implementation (and tests if you normally would for a change like this). "
    "Do not run servers, install dependencies or open a browser to verify: write the code "
    "and stop. Only the files you write are measured."
)

# The environment of a claude session is an allowlist: what the CLI needs, never the harness's
# whole environment (AWS_*, GITHUB_TOKEN and the like would be readable by the agent). A denylist
# always misses the next credential name.
_PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY")
ENV_ALLOW = frozenset(
    {
        "PATH",
        "LANG",
        "LANGUAGE",
        "TERM",
        "TZ",
        "API_TIMEOUT_MS",
        # proxies, and the CA bundles a proxy that inspects TLS needs
        *_PROXY_VARS,
        *(name.lower() for name in _PROXY_VARS),
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "NODE_EXTRA_CA_CERTS",
        # this project's tests find every process a cell started by this tag; it carries nothing
        "PONYBENCH_TEST_TAG",
    }
)
ENV_ALLOW_PREFIX = ("LC_",)
# Only for a live model: how the CLI reaches and authenticates with the API.
LIVE_ALLOW_PREFIX = ("ANTHROPIC_", "CLAUDE_CODE_")
# Never, even from an allowed family: a parent Claude Code session's markers, and settings that
# would change the CLI's behaviour between cells.
DROP_ENV = re.compile(
    r"^(CLAUDECODE|CLAUDE_CODE_ENTRYPOINT|CLAUDE_CODE_SSE_PORT|CLAUDE_CONFIG_DIR|"
    r"ANTHROPIC_MODEL|ANTHROPIC_SMALL_FAST_MODEL)$"
)
# With one of these the CLI authenticates without a credentials file, so none is copied in.
API_KEY_VARS = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN")
CREDENTIALS = ".claude/.credentials.json"
OFFLINE_API_KEY = "ponybench-offline-key"
API_ERROR_RE = re.compile(r"^\s*API Error\b", re.IGNORECASE)


def tool_flags(policy: AgentPolicy) -> list[str]:
    """The task's tools as flags: Bash is refused to every session (the benchmark measures code
    written, not run) and the task's disallowed tools with it (names or rules, one argument
    each: a rule may hold a space); an allowed list is a whitelist of built-in tools, given to
    `--tools`, because under bypassPermissions `--allowedTools` restricts nothing (claude 2.1.332)."""
    flags = ["--disallowedTools", "Bash", *(t for t in policy.disallowed_tools if t != "Bash")]
    if policy.allowed_tools is not None:
        flags += ["--tools", ",".join(policy.allowed_tools)]
    return flags


def build_command(
    claude: str,
    prompt: str,
    model: str,
    arm: Arm,
    max_turns: int,
    max_budget_usd: float | None = None,
    policy: AgentPolicy | None = None,
) -> list[str]:
    """The claude command of one session: the arm's flags, the task's policy, and one identical
    instruction appended last for every arm."""
    policy = policy or AgentPolicy()
    texts = [t.rstrip() for t in (arm.prompt, policy.append_system_prompt) if t]
    cmd = [
        claude,
        "-p",
        prompt,
        "--model",
        model,
        "--output-format",
        "stream-json",
        "--verbose",
        "--permission-mode",
        "bypassPermissions",
        "--setting-sources",
        arm.setting_sources,
        "--strict-mcp-config",
        *tool_flags(policy),
        "--max-turns",
        str(max_turns),
        *arm.cli_args(),
        "--append-system-prompt",
        "\n\n".join([*texts, NO_RUN]),
    ]
    if max_budget_usd is not None:
        cmd += ["--max-budget-usd", f"{max_budget_usd:g}"]
    return cmd


def allowed_env(name: str, *, live: bool) -> bool:
    """Whether a variable of the harness's environment may reach a claude session."""
    if DROP_ENV.match(name):
        return False
    if name in ENV_ALLOW or name.startswith(ENV_ALLOW_PREFIX):
        return True
    return live and name.startswith(LIVE_ALLOW_PREFIX)


def cell_env(
    home: Path,
    *,
    base_url: str | None,
    offline: bool,
    api_timeout_ms: int,
    base: Mapping[str, str] | None = None,
    memory: bool = False,
    task_env: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment of one claude session: the allowlist, the task's own variables (names
    checked by core.policy), its own home and config, no user settings (a logged-in user's
    credentials: `login_credentials`). CLAUDE.md files are read only when memory is on (an arm
    that places one); the harness's own variables always win."""
    src = dict(os.environ if base is None else base)
    env = {k: v for k, v in src.items() if allowed_env(k, live=not offline)}
    env.update(task_env or {})
    home.mkdir(parents=True, exist_ok=True)
    env.update(
        {
            "HOME": str(home),
            "CLAUDE_CONFIG_DIR": str(home / ".claude"),
            "CLAUDE_CODE_DISABLE_CLAUDE_MDS": "1",
            "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
    )
    # A user's own API_TIMEOUT_MS wins; else the CLI gives up on a silent API before the cell
    # timeout, so a hang ends as an API error with a reason rather than as a kill.
    env.setdefault("API_TIMEOUT_MS", str(api_timeout_ms))
    if memory:
        del env["CLAUDE_CODE_DISABLE_CLAUDE_MDS"]  # CLAUDE.md read for this arm only
    if os.geteuid() == 0:
        env["IS_SANDBOX"] = "1"  # else bypassPermissions is refused as root
    if offline:
        # The offline server is the only endpoint; no real credential may travel to it (the
        # allowlist kept no ANTHROPIC_* or CLAUDE_CODE_* variable for an offline session).
        env["ANTHROPIC_API_KEY"] = OFFLINE_API_KEY
        env["CLAUDE_CODE_MAX_RETRIES"] = "0"  # the harness decides about retries
        if base_url:
            env["ANTHROPIC_BASE_URL"] = base_url
    else:
        env.setdefault("CLAUDE_CODE_MAX_RETRIES", "2")
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    return env


def login_credentials(env: Mapping[str, str], base: Mapping[str, str] | None = None) -> bytes | None:
    """A logged-in user's credentials file, for a live session whose environment carries no key
    (env is the session's, from cell_env); None when it needs none or there is none.

    Confined, it is handed to the session as a file that exists only inside its sandbox (gone
    with it); unconfined, `place_credentials` copies it into the cell's HOME for the session.
    """
    if env.get("ANTHROPIC_API_KEY") == OFFLINE_API_KEY or any(env.get(k) for k in API_KEY_VARS):
        return None
    src = os.environ if base is None else base
    source = Path(src.get("HOME", str(Path.home()))) / CREDENTIALS
    try:
        return source.read_bytes()
    except OSError:
        return None


def place_credentials(home: Path, content: bytes) -> Path:
    """The unconfined case: a copy (never a link) in the cell's HOME, removed with the cell."""
    dest = home / CREDENTIALS
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(content)
    return dest


START_CAP_S = 10.0  # a start slot is given back after this even if the CLI has said nothing


def pid_namespace_prefix() -> tuple[str, ...]:
    """unshare --pid so every descendant of claude (MCP servers, setsid'd children) dies with it."""
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


def run_claude(
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
    on_started is called once the CLI is up: its first output line (the init event) is out,
    it ended, or START_CAP_S passed; always called, also when the start fails. stdin is
    /dev/null, or a file (never a pipe, which can block the CLI): `claude -p` with no prompt
    argument reads its prompt there, which no argument length limit bounds.
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
                kill_group(proc, grace_s=0.5)  # Ctrl-C: no claude may outlive the harness
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
    while time.monotonic() < deadline:
        try:
            proc.wait(timeout=0.02)
            return
        except subprocess.TimeoutExpired:
            pass
        if out.first_output.is_set():
            return


@dataclass
class Stream:
    """What the stream-json output says about one session."""

    result: dict[str, Any] | None = None
    init: dict[str, Any] | None = None
    hook_outputs: list[str] = field(default_factory=list)
    peak_context_tokens: int = 0
    assistant_turns: int = 0
    subagents: int = 0
    tool_uses: dict[str, int] = field(default_factory=dict)
    bad_lines: int = 0
    last_text: str = ""
    seen_messages: set[str] = field(default_factory=set)
    # What only a stream written by something other than the CLI shows (see `tampering`).
    results: int = 0
    after_result: int = 0  # events after the first result event
    holes: int = 0  # lines holding NUL bytes: the CLI escapes every control character

    @property
    def usage(self) -> dict[str, Any]:
        return dict((self.result or {}).get("usage") or {})


def parse_stream(path: Path) -> Stream:
    """Read events by field, never by position: key order changes between CLI versions. Line by
    line: the stream is capped where it is captured, and never held whole here."""
    out = Stream()
    try:
        fh = open(path, "rb")  # noqa: SIM115
    except FileNotFoundError:
        return out
    with fh:
        # Only "\n" ends a line: the CLI leaves U+2028 unescaped inside JSON strings.
        for raw in fh:
            if not raw.strip():
                continue
            if b"\0" in raw:
                out.holes += 1
            ev = textfiles.parse_line(raw)
            if ev is None:
                out.bad_lines += 1
                continue
            if out.results:
                out.after_result += 1
            _event(out, ev)
    return out


def _event(out: Stream, ev: dict[str, Any]) -> None:
    kind, sub = ev.get("type"), ev.get("subtype")
    if kind == "result":
        out.results += 1
        if out.result is None:  # the first is the session's; a second is never believed
            out.result = ev
    elif kind == "system" and sub == "init":
        out.init = ev
    elif kind == "system" and sub == "hook_response":
        text = ev.get("stdout") or ev.get("output") or ""
        out.hook_outputs.append(str(text))
    elif kind == "assistant":
        _assistant(out, ev)


def tampering(run: Run, stream: Stream) -> str | None:
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
    if stream.holes:
        return f"{stream.holes} line(s) of the stream hold NUL bytes"
    if stream.results > 1:
        return f"the stream holds {stream.results} result events"
    if stream.after_result:
        return f"{stream.after_result} event(s) follow the result event"
    return None


def _assistant(out: Stream, ev: dict[str, Any]) -> None:
    msg = ev.get("message") or {}
    # The CLI emits one assistant event per content block, each with the same message id and
    # usage: count a message once.
    msg_id = str(msg.get("id") or id(ev))
    if msg_id not in out.seen_messages:
        out.seen_messages.add(msg_id)
        usage = msg.get("usage") or {}
        context = sum(
            int(usage.get(k) or 0)
            for k in ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
        )
        out.peak_context_tokens = max(out.peak_context_tokens, context)
        if ev.get("parent_tool_use_id") is None:
            out.assistant_turns += 1
    for block in msg.get("content") or []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_use":
            name = str(block.get("name"))
            out.tool_uses[name] = out.tool_uses.get(name, 0) + 1
            if name in ("Task", "Agent"):
                out.subagents += 1
        elif block.get("type") == "text" and block.get("text"):
            out.last_text = str(block["text"])


def invalid(stream: Stream, run: Run, stderr_tail: str) -> CellError | None:
    """Why a session measured nothing about the arm (infrastructure, not quality), or None."""
    if run.start_error:
        return CellError(ErrorKind.START, f"claude {run.start_error}")
    res = stream.result
    if res is None:
        if run.timed_out:
            if stream.assistant_turns:
                return None  # the agent was working: a timeout, scored on what it wrote
            return CellError(
                ErrorKind.API, "no reply from the model before the cell timeout (no result event)"
            )
        detail = f": {stderr_tail}" if stderr_tail else ""
        return CellError(ErrorKind.API, f"no result event (claude exited with code {run.exit_code}){detail}")
    status = res.get("api_error_status")
    text = str(res.get("result") or "")
    if status is not None or res.get("terminal_reason") == "api_error":
        status_text = status if status is not None else "(no status)"
        return CellError(ErrorKind.API, f"API error {status_text}: {text[:200]}".strip())
    if API_ERROR_RE.match(text):
        return CellError(ErrorKind.API, text[:200])
    if res.get("is_error") and res.get("subtype") == "success":
        return CellError(ErrorKind.API, f"session error: {text[:200]}")
    return None


def invalid_reason(stream: Stream, run: Run, stderr_tail: str) -> str | None:
    """`invalid`'s message alone."""
    found = invalid(stream, run, stderr_tail)
    return None if found is None else found.message


def claude_version(claude: str) -> str | None:
    try:
        done = subprocess.run(
            [claude, "--version"],
            capture_output=True,
            text=True,
            errors="replace",  # a version line is informational: odd bytes must not stop a run
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip().splitlines()[0] if done.returncode == 0 and done.stdout else None
