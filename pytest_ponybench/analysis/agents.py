"""The agent axis of the figures: each agent's cells apart, and one arm's effect across agents.

Every table, verdict block, report section and comparison is per model; a run of agents other
than claude alone (`--agents`) is made per (model, agent) by naming the agent in the model
(`by_agent`: `sonnet on copilot`), so each agent's arms are compared with that agent's own
baseline and its family is its own. `cross_agent` then puts one arm's primary effect side by
side for every agent it ran on: does the plugin help in Copilot CLI as it does in Claude Code?
Pure functions over records and verdict rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pytest_ponybench.analysis.stats import ArmVerdict
from pytest_ponybench.analysis.stats.effects import Effect
from pytest_ponybench.analysis.verdict.words import fmt_estimate, fmt_interval, word
from pytest_ponybench.core.records import Record

__all__ = [
    "AGENT_MODEL",
    "CrossRow",
    "DEFAULT_AGENT",
    "agent_of",
    "by_agent",
    "cross_agent",
    "render_cross_agent",
    "render_cross_agent_markdown",
    "several",
]

DEFAULT_AGENT = "claude"
AGENT_MODEL = "agent_model"  # the record's model before `by_agent` named its agent in it
_ON = " on "


def agent_of(rec: Record) -> str:
    """The agent CLI that ran a record's cell (a record from before the field: claude)."""
    agent = rec.get("agent")
    return agent if isinstance(agent, str) and agent else DEFAULT_AGENT


def several(records: Iterable[Record]) -> bool:
    """Whether the records are of agents other than claude alone."""
    return any(agent_of(r) != DEFAULT_AGENT for r in records)


def by_agent(records: Sequence[Record]) -> list[Record]:
    """The records as every figure reads them: unchanged for claude alone; else each model
    named with its agent (`sonnet on copilot`), the model as given kept in `agent_model`."""
    if not several(records):
        return list(records)
    out = []
    for rec in records:
        model = str(rec.get("model"))
        named = Record(**rec)
        named.update(Record(model=f"{model}{_ON}{agent_of(rec)}", agent_model=model))
        out.append(named)
    return out


@dataclass(frozen=True)
class CrossRow:
    """One arm's primary effect under one agent, for one model."""

    model: str
    arm: str
    agent: str
    baseline: str
    effect: Effect | None  # None: the arm has no verdict under this agent


def _split(label: str) -> tuple[str, str]:
    """A row's model label as (model, agent): `sonnet on copilot`, and what compare makes of
    it between two runs, `sonnet on copilot, arm careful` (the arm kept with the model)."""
    head, arm_sep, arm = label.partition(", arm ")
    model, sep, agent = head.rpartition(_ON)
    if not sep:
        return label, DEFAULT_AGENT
    return (f"{model}{arm_sep}{arm}", agent)


def cross_agent(rows: Sequence[ArmVerdict]) -> list[CrossRow]:
    """For every (model, arm) with a verdict under two agents or more, its primary effect under
    each agent, in the agents' order of the rows; [] when no arm ran under several agents."""
    seen: dict[tuple[str, str], dict[str, CrossRow]] = {}
    for row in rows:
        model, agent = _split(row["model"])
        primary = next((e for e in row["effects"] if e.primary), None)
        seen.setdefault((model, row["arm"]), {})[agent] = CrossRow(
            model, row["arm"], agent, row["baseline"], primary
        )
    return [cell for by in seen.values() if len(by) > 1 for cell in by.values()]


_HEADER = ("arm", "model", "agent", "change", "95% interval", "verdict", "tasks")


def _cells(found: Sequence[CrossRow]) -> list[list[str]]:
    out = []
    for c in found:
        e = c.effect
        change = fmt_estimate(e) if e is not None else "-"
        interval = fmt_interval(e) if e is not None else "-"
        verdict = word(e) if e is not None else "no verdict"
        tasks = str(e.n_tasks) if e is not None else "0"
        out.append([c.arm, c.model, c.agent, change, interval, verdict, tasks])
    return out


def render_cross_agent(rows: Sequence[ArmVerdict]) -> str:
    """The same arm's primary effect per agent, as a text table ("" when no arm ran under
    several agents)."""
    found = cross_agent(rows)
    if not found:
        return ""
    metric = next((e.metric for c in found if (e := c.effect) is not None), "pass")
    body = _cells(found)
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(_HEADER)]
    lines = [f"the same arm across agents ({metric}, each agent's arm vs that agent's baseline):"]
    for cells in [list(_HEADER), *body]:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip())
    return "\n".join(lines)


def render_cross_agent_markdown(rows: Sequence[ArmVerdict]) -> str:
    """The same table in Markdown ("" when no arm ran under several agents)."""
    found = cross_agent(rows)
    if not found:
        return ""
    lines = ["| " + " | ".join(_HEADER) + " |", "|" + "---|" * len(_HEADER)]
    lines += ["| " + " | ".join(cells) + " |" for cells in _cells(found)]
    return "\n".join(lines)
