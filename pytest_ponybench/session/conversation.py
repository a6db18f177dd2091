"""A cell's session as a conversation: each turn one session of the agent CLI, through the one
launcher and on the cell's one gateway seat, each resuming the one before (`Agent.continuation`).

Turn 1 is the task's prompt (resuming its `history`, when it has one); each `[[turns]]` table is
played in order, a turn with `until` again (the same message) until its grader passes on what the
conversation did so far, at most `max_plays` times. The whole conversation has the cell's one
timeout; a play that is invalid, tampered with or timed out ends it. A task of one turn is a
conversation of one play, kept where a cell always kept its stream.

What comes out: every play (its session, stream, wall time and the gateway's requests during it),
the conversation as one transcript (`core.transcript.joined`), each turn's own transcript and
model view for graders of one turn, and the record's `conversation` field.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pytest_ponybench.agents import launch as launcher
from pytest_ponybench.agents.base import Agent, SessionSpec
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.bounded import cut, redact
from pytest_ponybench.core.graders.cell import grade_one
from pytest_ponybench.core.graders.evidence import RECORD_STRING_CHARS, CellEvidence
from pytest_ponybench.core.graders.outcome import GradeContext
from pytest_ponybench.core.tasks import Task
from pytest_ponybench.core.transcript import ModelView, Transcript, joined
from pytest_ponybench.gateway import log as gateway_log
from pytest_ponybench.gateway.meter import Metered, Totals
from pytest_ponybench.scoring import diff
from pytest_ponybench.store.celldir import CellDir
from pytest_ponybench.store.slots import StartSlots

__all__ = ["Conversation", "Play", "Step", "play", "read_back", "turn_views"]

QUIET_S = 10.0  # how long a play's last request may take to be metered before the next play


@dataclass
class Play:
    """One session of the conversation: a turn's message, played once."""

    turn: int  # 1: prompt.md's
    play: int  # 1 for a turn's first play; more for a turn played until a grader passes
    prompt: str
    session: launcher.Session
    wall_s: float
    requests: tuple[Metered, ...] = ()  # what the gateway metered while it ran
    until: bool | None = None  # the turn's `until` grader after this play (None: it has none)
    waited_s: float = 0.0  # for its start slot

    def entry(self, until: str | None) -> dict[str, Any]:
        """The record's word on this play (`conversation`)."""
        t = self.session.transcript
        spent = Totals()
        for m in self.requests:
            if m.refused is None:
                spent.add(m)
        out: dict[str, Any] = {
            "turn": self.turn,
            "play": self.play,
            "prompt": redact(cut(self.prompt, RECORD_STRING_CHARS)),
            "reply": redact(cut(t.reply, RECORD_STRING_CHARS)),
            "tool_uses": t.tool_uses,
            "requests": [self.requests[0].n, self.requests[-1].n] if self.requests else [],
            **{k: v for k, v in spent.as_record().items() if k != "requests"},
            "duration_ms": t.duration_ms,
            "wall_s": round(self.wall_s, 3),
        }
        if self.session.error is not None:
            out["error"] = self.session.error.message
        if until is not None:
            out["until"] = {"grader": until, "passed": self.until}
        return out


@dataclass
class Conversation:
    """Every play in order, and the session the cell's later steps read (the whole conversation:
    its transcript joined, the first error or tampering, the last run)."""

    plays: list[Play] = field(default_factory=list)

    @property
    def session(self) -> launcher.Session:
        sessions = [p.session for p in self.plays]
        last = sessions[-1]
        timed_out = any(s.run.timed_out for s in sessions)
        return launcher.Session(
            run=replace(last.run, timed_out=timed_out) if timed_out != last.run.timed_out else last.run,
            transcript=joined([s.transcript for s in sessions]),
            error=next((s.error for s in sessions if s.error is not None), None),
            tampered=next((s.tampered for s in sessions if s.tampered is not None), None),
            stderr_tail=last.stderr_tail,
        )

    def turns(self, lines: list[dict[str, Any]]) -> tuple[tuple[Transcript, ModelView | None], ...]:
        """Each turn's own transcript (its plays joined) and what the gateway saw of it; () for
        a conversation of one play (graders then read the whole of it)."""
        if len(self.plays) == 1:
            return ()
        return turn_views([(p.turn, p.session.transcript, p.requests) for p in self.plays], lines)

    def record(self, task: Task) -> list[dict[str, Any]]:
        until = {t.number: t.until for t in task.turns}
        return [p.entry(until.get(p.turn)) for p in self.plays]


def turn_views(
    plays: list[tuple[int, Transcript, tuple[Metered, ...] | list[int]]], lines: list[dict[str, Any]]
) -> tuple[tuple[Transcript, ModelView | None], ...]:
    """Per turn, its plays' transcripts joined and the model view of the gateway lines of its
    requests (`requests`: metered requests, or a record's [first n, last n])."""
    by_turn: dict[int, list[tuple[Transcript, set[int]]]] = {}
    for turn, transcript, requests in plays:
        if requests and isinstance(requests[0], Metered):
            numbers = {m.n for m in requests if isinstance(m, Metered)}
        else:
            span = [int(n) for n in requests if isinstance(n, int)]
            numbers = set(range(span[0], span[-1] + 1)) if span else set()
        by_turn.setdefault(turn, []).append((transcript, numbers))
    out = []
    for turn in sorted(by_turn):
        numbers = set().union(*(n for _, n in by_turn[turn]))
        view = gateway_log.model_view([line for line in lines if line.get("n") in numbers]) if lines else None
        out.append((joined([t for t, _ in by_turn[turn]]), view))
    return tuple(out)


@dataclass(frozen=True)
class Step:
    """What the conversation needs of the cell to play one more session."""

    agent: Agent
    prepare: Callable[[SessionSpec], launcher.Prepared]  # the command confined, on the cell's seat
    tell_turn: Callable[[int], None]  # the turn an offline cell's agents answer next
    metered: Callable[[], tuple[Metered, ...]]  # what the seat metered so far (settled)
    workspace: Path
    home: Path
    git_dir: Path
    cdir: CellDir
    timeout_s: float
    slots: StartSlots | None = None


def _until_passed(task: Task, grader_name: str, plays: list[Play], step: Step) -> bool:
    """The turn's `until` grader on what the conversation did so far (each turn its own)."""
    grader = next(g for g in task.graders if g.name == grader_name)
    lines = gateway_log.lines(step.cdir.gateway)
    conversation = Conversation(plays)

    def base() -> Mapping[str, tuple[str, bytes]]:
        return diff.base_tree(step.workspace, step.git_dir)

    evidence = CellEvidence.from_transcript(
        conversation.session.transcript,
        step.workspace,
        prompt=task.prompt,
        base=base,
        view=gateway_log.model_view(lines),
        mocked=task.mocks.tools if task.mocks is not None else frozenset(),
        turns=turn_views([(p.turn, p.session.transcript, p.requests) for p in plays], lines),
    )
    return grade_one(grader, evidence, GradeContext()).passed is True


def _one(
    step: Step, prepared: launcher.Prepared, where: CellDir, arm: Arm | None, timeout_s: float
) -> tuple[launcher.Session, float, float]:
    """One session run after a start slot, its stream and stderr kept in `where`: the session,
    its wall seconds and the seconds it waited for the slot."""
    slot = step.slots.take() if step.slots is not None else None
    t0 = time.monotonic()
    where.path.mkdir(parents=True, exist_ok=True)
    stream = where.stream_named(step.agent.stream_file)  # each agent's stream by its own name
    session = launcher.run(
        step.agent,
        prepared,
        workspace=step.workspace,
        stream=stream,
        stderr=stream.with_suffix(".stderr"),
        timeout_s=timeout_s,
        arm=arm,
        on_started=slot.release if slot is not None else None,  # called however it ends
    )
    return session, time.monotonic() - t0, slot.waited_s if slot is not None else 0.0


def play(
    task: Task, spec: SessionSpec, first: launcher.Prepared, step: Step, arm: Arm | None = None
) -> Conversation:
    """Play the task's conversation: `spec` and `first` are turn 1's session, ready to run."""
    deadline = time.monotonic() + step.timeout_s
    conversation = Conversation()
    messages = [(1, task.prompt, None, 1), *((t.number, t.prompt, t.until, t.max_plays) for t in task.turns)]
    prepared: launcher.Prepared | None = first
    for turn, prompt, until, max_plays in messages:
        for n in range(1, max_plays + 1):
            left = deadline - time.monotonic()
            if prepared is None:
                if left <= 1.0:
                    return conversation  # the cell's time is spent: the turns left are not played
                spec = replace(spec, prompt=prompt)
                prepared = step.prepare(spec)
            step.tell_turn(turn)
            before = len(step.metered())
            session, wall, waited = _one(step, prepared, step.cdir.play(turn, n), arm, max(left, 1.0))
            prepared = None
            done = Play(turn, n, prompt, session, wall, step.metered()[before:], waited_s=waited)
            conversation.plays.append(done)
            if session.error is not None or session.tampered is not None or session.run.timed_out:
                return conversation
            following = step.agent.continuation(spec, session.transcript)
            if following is None:
                return conversation
            spec = replace(spec, resume=following)
            if until is None:
                break
            done.until = _until_passed(task, until, conversation.plays, step)
            if done.until:
                break
    return conversation


def read_back(
    agent: Agent, cdir: CellDir, entries: object
) -> tuple[Transcript, tuple[tuple[Transcript, ModelView | None], ...]]:
    """A kept cell's conversation read again (rescore): its plays' streams joined, and each
    turn's transcript and model view when it had more than one play (a record's `conversation`
    names them; a record without one is a session of one play)."""
    plays = [e for e in entries if isinstance(e, Mapping)] if isinstance(entries, list) else []
    turn_of = [(int(e.get("turn", 1)), int(e.get("play", 1)), e.get("requests") or []) for e in plays]
    if len(turn_of) <= 1:
        return agent.parse(cdir.stream), ()
    parsed = [(t, agent.parse(cdir.play(t, n).stream), r) for t, n, r in turn_of]
    lines = gateway_log.lines(cdir.gateway)
    return joined([t for _, t, _ in parsed]), turn_views(parsed, lines)
