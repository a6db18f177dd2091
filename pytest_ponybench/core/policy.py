"""Per-task agent policy: what task.toml may set for the claude session of each of its cells.

Top-level task.toml keys (`max_turns` predates them and stays in tasks.py):

- `allowed_tools`: a whitelist of built-in tools (`Read`, `Edit`, `Write`, `Glob`...), given to
  `--tools`. The harness runs with bypassPermissions, under which `--allowedTools` and its rules
  restrict nothing, and `--tools` leaves MCP tools alone (claude 2.1.332): so a rule
  (`Read(src/**)`), an MCP tool and Bash (refused to every session) are refused here;
- `disallowed_tools`: names or rules given to `--disallowedTools`, which holds under
  bypassPermissions: `Glob`, `mcp__notes` (a server's every tool), `mcp__notes__search`,
  `Read(./secrets/**)`, `Edit(*.md)` (file-writing rules are spelled `Edit(...)`: a `Write(...)`
  rule never matches);
- `append_system_prompt`: text added after the arm's system prompt for this task;
- `env`: variable -> string, passed into the session. Names are checked: never a credential
  (a task folder is committed), never a `CLAUDE*`/`ANTHROPIC*` variable (the harness owns how the
  CLI reaches the API), never one the harness sets for confinement (`HOME`, `PATH`, `LD_*`...);
- `cell_timeout`: seconds for the claude session of this task (`timeout` is the checks' timeout);
- `runs`: runs per cell of this task when `--runs` is not given;
- `network`: `"gateway"` (the default: the cell's only way out is the model gateway) or
  `"open"`, for a task that genuinely needs the host's network (its session keeps it, still
  holding no credential: its model requests still go through the gateway, on its loopback
  port). Recorded in the cell's `agent_policy` and `confinement`, said in the session header.

Each problem is passed to `problem()` as one line naming the file and the key, so the task loader
lists it with the task's other problems before anything runs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "AgentPolicy",
    "CREDENTIAL_PARTS",
    "CREDENTIAL_WORDS",
    "ENV_NAME_RE",
    "NETWORKS",
    "OWNED_PREFIXES",
    "POLICY_KEYS",
    "Problem",
    "RESERVED_ENV",
    "RESERVED_PREFIXES",
    "TOOL_RE",
    "allowed_problem",
    "disallowed_problem",
    "env_name_problem",
    "listed_tool_problem",
    "parse_policy",
    "tool_problem",
]

POLICY_KEYS = (
    "allowed_tools",
    "disallowed_tools",
    "append_system_prompt",
    "env",
    "cell_timeout",
    "runs",
    "network",
)
NETWORKS = ("gateway", "open")

# A tool as --allowedTools / --disallowedTools take it: a name (an MCP tool's included), optionally
# with a rule in parentheses.
TOOL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_*-]*(\(.+\))?$", re.DOTALL)
ENV_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
OWNED_PREFIXES = ("CLAUDE", "ANTHROPIC")
# Set by the harness for every session (its home, its confinement, the CLI's own runtime).
# How it reaches the API (proxies, CA bundles, its timeout) is the harness's too.
RESERVED_ENV = frozenset(
    {
        "HOME",
        "PATH",
        "TMPDIR",
        "USER",
        "LOGNAME",
        "SHELL",
        "PWD",
        "IS_SANDBOX",
        "NODE_OPTIONS",
        "NODE_PATH",
        "API_TIMEOUT_MS",
        "DISABLE_AUTOUPDATER",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "NO_PROXY",
        "ALL_PROXY",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "NODE_EXTRA_CA_CERTS",
    }
)
RESERVED_PREFIXES = ("LD_", "DYLD_", "PONYBENCH_")
# Words that name a credential wherever they stand in a name, and parts that do as a whole part
# (KEY alone would also refuse KEYBOARD_LAYOUT).
CREDENTIAL_WORDS = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "PRIVATE_KEY", "APIKEY")
CREDENTIAL_PARTS = frozenset({"KEY", "AUTH", "PAT", "COOKIE", "PASS"})

Problem = Callable[[str], None]


@dataclass(frozen=True)
class AgentPolicy:
    """What one task sets for its sessions; None (or empty) where it sets nothing."""

    allowed_tools: tuple[str, ...] | None = None
    disallowed_tools: tuple[str, ...] = ()
    append_system_prompt: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    cell_timeout: float | None = None
    runs: int | None = None
    network: str = "gateway"

    @property
    def open_network(self) -> bool:
        return self.network == "open"

    @property
    def empty(self) -> bool:
        return not self.describe()

    def describe(self) -> dict[str, Any]:
        """The keys the task sets, as task.toml spells them (for records, hashes and reports)."""
        out: dict[str, Any] = {}
        if self.allowed_tools is not None:
            out["allowed_tools"] = list(self.allowed_tools)
        if self.disallowed_tools:
            out["disallowed_tools"] = list(self.disallowed_tools)
        if self.append_system_prompt is not None:
            out["append_system_prompt"] = self.append_system_prompt
        if self.env:
            out["env"] = dict(sorted(self.env.items()))
        if self.cell_timeout is not None:
            out["cell_timeout"] = self.cell_timeout
        if self.runs is not None:
            out["runs"] = self.runs
        if self.open_network:
            out["network"] = self.network
        return out


def tool_problem(spec: object) -> str | None:
    """Why a value is not a tool as the CLI takes it, or None."""
    if not isinstance(spec, str) or not TOOL_RE.fullmatch(spec):
        return f'{spec!r} is not a tool name (e.g. "Read", "Bash(git diff:*)", "mcp__notes__search")'
    return None


def env_name_problem(name: str) -> str | None:
    """Why a variable may not be set by a task, or None."""
    if not ENV_NAME_RE.fullmatch(name):
        return f"{name!r} is not a variable name (letters, digits and _, not starting with a digit)"
    upper = name.upper()
    if upper.startswith(OWNED_PREFIXES):
        return f"{name!r}: CLAUDE* and ANTHROPIC* variables are the harness's (how the CLI reaches the API)"
    if upper in RESERVED_ENV or upper.startswith(RESERVED_PREFIXES):
        return f"{name!r} is set by the harness for every session (its home, PATH and confinement)"
    parts = set(upper.split("_"))
    if any(word in upper for word in CREDENTIAL_WORDS) or parts & CREDENTIAL_PARTS:
        return f"{name!r} looks like a credential, and a task folder is committed: never put one in task.toml"
    return None


def allowed_problem(spec: str) -> str | None:
    """Why a tool cannot be in an allowed list (a whitelist of built-in tools), or None."""
    if "(" in spec:
        return (
            f"{spec!r} is a rule, and under the harness's bypassPermissions an allowed rule restricts "
            "nothing: list the tool's name here and what to refuse in disallowed_tools"
        )
    if spec.startswith("mcp__"):
        return (
            f"{spec!r} is an MCP tool, which the whitelist (--tools) does not cover: an MCP arm brings "
            "its tools; refuse one with disallowed_tools"
        )
    if spec == "Bash":
        return "'Bash' is refused to every session (the benchmark measures code written, not run)"
    return None


def disallowed_problem(spec: str) -> str | None:
    """Why a tool or rule would refuse nothing, or None."""
    if spec.startswith("Write("):
        return (
            f"{spec!r} never matches: the CLI's file-writing rules are spelled Edit(...) (they cover Write)"
        )
    return None


def listed_tool_problem(key: str, spec: object) -> str | None:
    """Why spec cannot be an entry of task.toml's `allowed_tools` or `disallowed_tools` (key),
    or None (the importer of other suites asks the same)."""
    why = tool_problem(spec)
    if why is None and isinstance(spec, str):
        why = allowed_problem(spec) if key == "allowed_tools" else disallowed_problem(spec)
    return why


def _tools(meta: Mapping[str, Any], key: str, problem: Problem) -> tuple[str, ...] | None:
    value = meta.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not value:
        problem(f"task.toml: key {key!r} must be a non-empty list of tool names, not {value!r}")
        return None
    bad = [why for v in value if (why := listed_tool_problem(key, v)) is not None]
    if bad:
        problem(f"task.toml: key {key!r}: {bad[0]}")
        return None
    twice = sorted({v for v in value if value.count(v) > 1})
    if twice:
        problem(f"task.toml: key {key!r}: {', '.join(twice)} given more than once")
        return None
    return tuple(value)


def _env(meta: Mapping[str, Any], problem: Problem) -> dict[str, str]:
    value = meta.get("env")
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        problem(f"task.toml: key 'env' must be a table of variable = \"value\", not {value!r}")
        return {}
    out: dict[str, str] = {}
    for name, text in value.items():
        if (why := env_name_problem(name)) is not None:
            problem(f"task.toml: key 'env': {why}")
        elif not isinstance(text, str) or "\0" in text:
            problem(f"task.toml: key 'env': {name!r} must be a string without NUL, not {text!r}")
        else:
            out[name] = text
    return out


def parse_policy(meta: Mapping[str, Any], problem: Problem) -> AgentPolicy:
    """The policy keys of one task.toml (others are ignored here)."""
    append = meta.get("append_system_prompt")
    if append is not None and (not isinstance(append, str) or not append.strip()):
        problem(f"task.toml: key 'append_system_prompt' must be non-empty text, not {append!r}")
        append = None
    timeout = meta.get("cell_timeout")
    if timeout is not None and (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not math.isfinite(timeout)
        or timeout <= 0
    ):
        problem(f"task.toml: key 'cell_timeout' must be a positive number of seconds, not {timeout!r}")
        timeout = None
    runs = meta.get("runs")
    if runs is not None and (isinstance(runs, bool) or not isinstance(runs, int) or runs < 1):
        problem(f"task.toml: key 'runs' must be a whole number >= 1, not {runs!r}")
        runs = None
    network = meta.get("network", "gateway")
    if network not in NETWORKS:
        problem(f"task.toml: key 'network' must be one of {', '.join(map(repr, NETWORKS))}, not {network!r}")
        network = "gateway"
    allowed = _tools(meta, "allowed_tools", problem)
    disallowed = _tools(meta, "disallowed_tools", problem) or ()
    both = sorted(set(allowed or ()) & set(disallowed))
    if both:
        problem(
            f"task.toml: key 'allowed_tools' names what key 'disallowed_tools' refuses too: {', '.join(both)}"
        )
    return AgentPolicy(
        allowed_tools=allowed,
        disallowed_tools=disallowed,
        append_system_prompt=append,
        env=_env(meta, problem),
        cell_timeout=float(timeout) if timeout is not None else None,
        runs=runs,
        network=str(network),
    )
