"""The tools `claude plugin eval` offers a case's session, and the task.toml keys that offer the same.

Measured with claude 2.1.332 against the offline model server (scripts/cpe_offline.py; the
integration test tests/integration/test_cpe_fidelity.py holds it to the installed CLI): CPE runs
each session in `dontAsk` mode behind a long `--disallowed-tools` list, so a case's
`allowed_tools` is a *grant* on top of a fixed offer, never a whitelist:

- every session is offered Agent, Glob, Grep, Read, Skill, TaskStop (deferred) and ToolSearch
  (which loads deferred tools), whatever the case lists (`[Read]` and `[Bash, Read]` alike);
- a case listing TodoWrite or one of the task-list tools gets the task list too (TaskCreate,
  TaskGet, TaskList, TaskUpdate, deferred);
- the gated tools come only from the operator's grant (`claude plugin eval --allow-tools`),
  for every case, listed or not: Write or Edit brings Edit, NotebookEdit and Write; WebFetch and
  WebSearch themselves; Bash (or PowerShell) a shell, which no ponybench session is offered;
- the case's `disallowed_tools` and the operator's `--disallow-tools` take theirs away, and
  ToolSearch goes with the last deferred tool.

`cpe_offer` computes that set; the importer writes it as the task's `allowed_tools`, which a
ponybench session gets as `--tools`, so the first request of a cell offers the model what CPE's
own session was offered.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "ALWAYS",
    "BUILTIN_TOOLS",
    "DEFERRED",
    "FILE_WRITERS",
    "GRANTED",
    "Offer",
    "SHELLS",
    "TASK_LIST",
    "TASK_LIST_TRIGGERS",
    "cpe_offer",
    "tool_name",
]

# What every CPE session is offered (the CLI lists them so).
ALWAYS = ("Agent", "Glob", "Grep", "Read", "Skill", "TaskStop", "ToolSearch")
TASK_LIST = ("TaskCreate", "TaskGet", "TaskList", "TaskUpdate")
TASK_LIST_TRIGGERS = ("TodoWrite", *TASK_LIST)
# An operator's grant -> the tools it brings (measured: Write alone brings Edit and NotebookEdit).
FILE_WRITERS = ("Edit", "NotebookEdit", "Write")
GRANTED = {
    "Write": FILE_WRITERS,
    "Edit": FILE_WRITERS,
    "MultiEdit": FILE_WRITERS,
    "NotebookEdit": FILE_WRITERS,
    "WebFetch": ("WebFetch",),
    "WebSearch": ("WebSearch",),
}
SHELLS = ("Bash", "PowerShell")
# Tools the CLI offers as names only, loaded through ToolSearch.
DEFERRED = frozenset({"TaskStop", *TASK_LIST, "NotebookEdit", "WebFetch", "WebSearch"})
# Names a tool call can carry in claude 2.1.332 (Task is the Agent tool's older name).
BUILTIN_TOOLS = frozenset(
    {
        *ALWAYS,
        *TASK_LIST,
        *FILE_WRITERS,
        *SHELLS,
        "Task",
        "TodoWrite",
        "MultiEdit",
        "LS",
        "NotebookRead",
        "WebFetch",
        "WebSearch",
        "SlashCommand",
        "BashOutput",
        "KillShell",
        "ExitPlanMode",
        "EnterPlanMode",
        "AskUserQuestion",
    }
)


def tool_name(spec: str) -> str:
    """The tool of a grant or rule: `Bash(npm test:*)` is Bash."""
    return spec.split("(", 1)[0].strip()


@dataclass(frozen=True)
class Offer:
    """What one case's session is offered, and what of the grants has no ponybench form."""

    tools: tuple[str, ...]
    not_granted: tuple[str, ...] = ()  # gated tools the case lists that no grant gave
    shells: tuple[str, ...] = ()  # a shell granted: CPE offers it, no ponybench session does
    scoped: tuple[str, ...] = ()  # a rule-scoped grant (`Write(src/**)`): the whole tool here
    mcp: tuple[str, ...] = ()  # MCP grants: a plugin's MCP tools come with its arm

    def offers(self, tool: str) -> bool:
        return tool in self.tools or (tool == "Task" and "Agent" in self.tools)


def cpe_offer(
    allowed: Sequence[str],
    disallowed: Iterable[str] = (),
    grants: Iterable[str] = (),
    withheld: Iterable[str] = (),
) -> Offer:
    """The tools CPE offers a case's session: `allowed` and `disallowed` are the case's lists,
    `grants` and `withheld` the operator's `--allow-tools` and `--disallow-tools`."""
    offered = set(ALWAYS)
    if any(tool_name(t) in TASK_LIST_TRIGGERS for t in allowed):
        offered.update(TASK_LIST)
    shells: list[str] = []
    scoped: list[str] = []
    mcp: list[str] = []
    granted: set[str] = set()
    for spec in grants:
        name = tool_name(spec)
        if name in SHELLS:
            shells.append(spec)
        elif name.startswith("mcp__"):
            mcp.append(spec)
        elif name in GRANTED:
            granted.update(GRANTED[name])
            offered.update(GRANTED[name])
            if spec != name:
                scoped.append(spec)
    gated = {*GRANTED, *SHELLS}
    not_granted = tuple(
        t
        for t in dict.fromkeys(allowed)
        if (tool_name(t) in gated and tool_name(t) not in granted) or (t.startswith("mcp__") and not mcp)
    )
    # Only a plain name takes a tool away; a rule (`Read(./secrets/**)`) refuses matching calls.
    offered -= {t for t in (*disallowed, *withheld) if "(" not in t}
    if not offered & DEFERRED:
        offered.discard("ToolSearch")
    return Offer(tuple(sorted(offered)), not_granted, tuple(shells), tuple(scoped), tuple(mcp))
