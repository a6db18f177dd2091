"""Proving graders against a task's references, as the checks are proven.

A reference's evidence is what a cell with that reference would show: its files laid over the
seed, its declared reply, and the tool calls the offline agents make for it, in the order they
make them (the declared calls first, then the Reads and the Write or Edit of each file, as
`offline.agents._agent_step` does: an integration test runs both and compares), each as a call
the CLI ran without an error. Each grader's outcome
on that evidence must be the one the reference declares (`graders = {name = true}`).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_ponybench._util.textfiles import quote
from pytest_ponybench.core.graders.cell import grade_cell
from pytest_ponybench.core.graders.config import DECLARABLE_WRITES
from pytest_ponybench.core.graders.evidence import CellEvidence, MockCall, ToolCall, WorkspaceFiles
from pytest_ponybench.core.graders.outcome import GraderOutcome
from pytest_ponybench.core.judge import Judge, judge_in_process
from pytest_ponybench.offline.endpoint import session_of
from pytest_ponybench.offline.script import Session, resolve_call
from pytest_ponybench.scoring.checks import Score, check_name, score

if TYPE_CHECKING:
    from pytest_ponybench.core.tasks import Reference, Task

__all__ = [
    "GraderProof",
    "axis_problem",
    "check_reference",
    "lay_reference",
    "offline_calls",
    "proof_problems",
    "prove_graders",
    "reference_evidence",
]


def lay_reference(task: Task, ref: Reference, ws: Path) -> dict[str, bytes | None]:
    """Lay the seed (or fixture) and the reference's files into ws, as the offline agent would
    leave it; return what each of the reference's files held before (None: absent)."""
    from pytest_ponybench.scoring import workspace

    workspace.lay(task, ws)
    declared = [c for turn in range(1, len(task.prompts) + 1) for c in ref.meta.said(turn).tool_calls]
    for call in declared:  # a declared Write, made before the files (offline.agents)
        if call.tool in DECLARABLE_WRITES:
            target = ws / os.path.normpath(str(call.input["file_path"]))
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink():
                target.unlink()
            target.write_text(str(call.input["content"]), encoding="utf-8")
    before: dict[str, bytes | None] = {}
    for rel, data in ref.files.items():
        path = ws / rel
        try:
            before[rel] = None if path.is_symlink() or not path.is_file() else path.read_bytes()
        except OSError:
            before[rel] = None
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink():
            path.unlink()
        path.write_bytes(data)
    return before


def offline_calls(
    ws: Path, before: Mapping[str, bytes | None], files: Mapping[str, bytes], session: Session
) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls the offline agent makes for these files and this session, in order."""
    calls = [resolve_call(tool, given, ws) for tool, given in session.calls]
    read = {os.path.normpath(str(given.get("file_path"))) for tool, given in calls if tool == "Read"}
    pending = [rel for rel in sorted(files) if before.get(rel) != files[rel]]
    unread = [
        os.path.normpath(ws / rel)
        for rel in pending
        if before.get(rel) is not None and os.path.normpath(ws / rel) not in read
    ]
    if unread:
        calls += [("Read", {"file_path": path}) for path in unread]
    for rel in pending:
        path = os.path.normpath(ws / rel)
        new = files[rel].decode("utf-8", errors="replace")
        try:
            old = (before.get(rel) or b"").decode("utf-8")
        except UnicodeDecodeError:
            old = ""
        if not old or "\r" in old + new:
            calls.append(("Write", {"file_path": path, "content": new}))
        else:
            calls.append(("Edit", {"file_path": path, "old_string": old, "new_string": new}))
    return calls


def _said_reply(session: Session, wrote: list[str]) -> str:
    """What the offline agent says at the end of a turn (offline.agents._agent_step)."""
    if session.reply is not None:
        return session.reply
    return f"Done: wrote {', '.join(wrote)}." if wrote else "Done: nothing needed changing."


def reference_evidence(
    task: Task, ref: Reference, ws: Path, before: Mapping[str, bytes | None]
) -> CellEvidence:
    """The evidence a cell with this reference would give graders (ws laid by lay_reference):
    each turn of a conversation its declared calls and reply, the files written in the last;
    what the gateway would see of each turn (its prompt, the reply before it, a history before
    the first, what the mocked tools answered) and of the whole."""
    last = len(task.prompts)
    turns: list[CellEvidence] = []
    for number, prompt in enumerate(task.prompts, 1):
        session = session_of(ref.meta, number)
        files = ref.files if number == last else {}
        made = offline_calls(ws, before, files, session)
        reply = _said_reply(session, sorted(r for r in files if before.get(r) != files[r]))
        # Each as the CLI answers a call it ran: succeeded (a tool grader counts only those).
        tool_calls = tuple(
            ToolCall(index=n, tool=tool, input=given, is_error=False) for n, (tool, given) in enumerate(made)
        )
        mock_calls = tuple(
            _mock_call(task, c, number) for c in tool_calls if task.mocks and c.tool in task.mocks.tools
        )
        heard = [task.history.text] if number == 1 and task.history is not None else []
        heard += [turns[-1].reply] if turns else []
        heard += [prompt, *(c.response or "" for c in mock_calls)]
        turns.append(
            CellEvidence(
                reply=reply,
                transcript=reply,
                tool_calls=tool_calls,
                mock_calls=mock_calls,
                model_input="\n\n".join(t for t in heard if t),
                model_output="\n\n".join(
                    [
                        *(
                            f"{c.tool} {json.dumps(c.input, ensure_ascii=False, sort_keys=True)}"
                            for c in tool_calls
                        ),
                        reply,
                    ]
                ),
            )
        )

    def diff() -> str:
        from pytest_ponybench.scoring.diff import unified

        base = {rel: data for rel, data in before.items() if data is not None}
        return unified(base, dict(ref.files))

    def seeded_base() -> Mapping[str, tuple[str, bytes]]:
        """The seed as git would hold it: laid again in a scratch folder of its own."""
        from pytest_ponybench.scoring import workspace

        with tempfile.TemporaryDirectory(prefix="ponybench-base-") as scratch:
            root = Path(scratch)
            workspace.lay(task, root)
            out: dict[str, tuple[str, bytes]] = {}
            for folder, dirs, names in os.walk(root):
                for name in (*dirs, *names):
                    path = Path(folder) / name
                    rel = path.relative_to(root).as_posix()
                    if path.is_symlink():
                        out[rel] = ("120000", os.readlink(path).encode("utf-8", "surrogateescape"))
                    elif path.is_file():
                        out[rel] = ("100644", path.read_bytes())
            return out

    laid = WorkspaceFiles(ws)
    parts = tuple(replace(t, workspace=laid, prompt=task.prompt, diff=diff, base=seeded_base) for t in turns)
    every = [c for t in turns for c in t.tool_calls]
    return CellEvidence(
        reply=turns[-1].reply,
        transcript="\n\n".join(t.reply for t in turns),
        tool_calls=tuple(replace(c, index=n) for n, c in enumerate(every)),
        mock_calls=tuple(c for t in turns for c in t.mock_calls),
        model_input="\n\n".join(t.model_input for t in turns),
        model_output="\n\n".join(t.model_output for t in turns),
        turns=parts if len(parts) > 1 else (),
        workspace=laid,
        prompt=task.prompt,
        diff=diff,
        base=seeded_base,
    )


def _mock_call(task: Task, call: ToolCall, turn: int) -> MockCall:
    """A declared call of a mocked tool, with what its stand-in answers (`Mocks.answer`)."""
    assert task.mocks is not None
    verdict, text = task.mocks.answer(call.tool, dict(call.input or {}))
    return MockCall(call.tool, call.input, text, verdict != "ok", turn)


@dataclass(frozen=True)
class GraderProof:
    """One grader on one reference: what it gave and what the reference declares."""

    outcome: GraderOutcome
    declared: bool | None

    @property
    def as_declared(self) -> bool | None:
        """True or False when the reference declares an outcome for this grader, else None."""
        return None if self.declared is None else self.outcome.passed is self.declared

    def as_record(self) -> dict[str, Any]:
        o = self.outcome
        return {"name": o.name, "type": o.type, "passed": o.passed, "declared": self.declared}


def prove_graders(
    task: Task,
    ref: Reference,
    evidence: CellEvidence,
    judge: Judge | None = None,
    *,
    live_judge: bool = False,
) -> list[GraderProof]:
    """Every grader of the task on the reference's evidence (judge graders with the offline
    judge in process unless a judge is given)."""
    outcomes = grade_cell(
        task, evidence, judge if judge is not None else judge_in_process, live_judge=live_judge
    )
    return [GraderProof(o, ref.meta.graders.get(o.name)) for o in outcomes]


def proof_problems(task: Task, ref: Reference, proofs: list[GraderProof]) -> list[str]:
    """A mismatch between a grader's outcome and the reference's declaration, in words."""
    out = []
    for p in proofs:
        if p.as_declared is False:
            got = {True: "passes", False: "fails", None: "cannot decide"}[p.outcome.passed]
            want = "pass" if p.declared else "fail"
            out.append(
                f"task {task.id}: reference {ref.name} ({ref.where}): grader {p.outcome.name} "
                f"({p.outcome.type}) {got}, but the reference declares it must {want}: "
                f"{p.outcome.explanation}"
            )
    return out


def axis_problem(
    task: Task, ref: Reference, axis: str, outcomes: list[GraderOutcome], checks: bool | None
) -> str | None:
    """Why the reference's declared verdict on `axis` is not what its checks (checks: their
    verdict, None without checks) and graders give together, when the graders moved it; None
    when they agree, or when the checks alone are at odds (their own message says more)."""
    want = getattr(ref.expect, axis)
    on_axis = [o for o in outcomes if o.counts and o.axis == axis]
    failing = [o for o in on_axis if o.passed is not True]
    checks_ok = True if checks is None else checks
    if want is None or (checks_ok and not failing) == want or checks_ok != want:
        return None
    head = f"task {task.id}: reference {ref.name} ({ref.where}, expect {ref.expect.text()!r})"
    if want:
        o = failing[0]
        state = "could not decide" if o.passed is None else "failed"
        return f"{head} fails on {axis}: grader {o.name} ({o.type}) {state}: {o.explanation}"
    by = (
        f"grader(s) {', '.join(o.name for o in on_axis)} passed it"
        if on_axis
        else f"no grader decides {axis}"
    )
    return f"{head} passes {axis}: {by}" + ("" if checks is None else ", and so did the checks")


def _checks_named(result: Score, axis: str, outcome_passed: bool) -> list[str]:
    return [
        check_name(c.nodeid) + ("" if outcome_passed else f": {quote(c.message)}")
        for c in result.checks
        if c.axis == axis and (c.outcome == "passed") == outcome_passed
    ]


def _mismatch(task: Task, ref: Reference, axis: str, result: Score) -> str:
    """Why reference `ref` came out otherwise than declared on `axis`, naming the checks."""
    wanted = getattr(ref.expect, axis)
    if ref.name == "good":
        return f"task {task.id}: the good reference fails on {axis}: {result.reason}"
    if ref.name == "bad":
        passing = _checks_named(result, axis, True)
        return (
            f"task {task.id}: the bad reference passes its axis {axis!r}: the checks in "
            f"{task.path / 'checks'} do not catch it (passed: {', '.join(passing[:4]) or 'none ran'})"
        )
    head = f"task {task.id}: reference {ref.name} ({ref.where}, expect {ref.expect.text()!r})"
    if wanted:
        failing = _checks_named(result, axis, False)
        why = quote(failing[0]) if failing else result.reason or "no check decided it"
        return f"{head} fails on {axis}: {why}"
    passing = _checks_named(result, axis, True)
    return (
        f"{head} passes {axis}: no test_{axis}* check caught it "
        f"(passed: {', '.join(passing[:4]) or 'none ran'})"
    )


def check_reference(
    task: Task, which: str, judge: Judge | None = None, *, live_judge: bool = False
) -> tuple[str | None, dict[str, Any]]:
    """Score one reference (good, bad or a refs/ name) with the checks and the graders; (the
    problems in words or None, the verdict). Also used by the pre-flight of a paid run, which
    may pass the run's judge (a live one strips the offline judge's directives)."""
    ref = next((r for r in task.references if r.name == which), None)
    if ref is None:
        raise ValueError(f"task {task.id} has no reference {which!r}")
    found: list[GraderProof] = []
    with tempfile.TemporaryDirectory(prefix=f"ponybench-selftest-{task.id}-") as tmp:
        ws = Path(tmp) / "ws"
        before = lay_reference(task, ref, ws)
        result = score(task, ws) if task.kind != "open" else None
        if task.graders:
            evidence = reference_evidence(task, ref, ws, before)
            found = prove_graders(task, ref, evidence, judge, live_judge=live_judge)
    outcomes = [p.outcome for p in found]
    verdict: dict[str, Any] = {
        "task": task.id,
        "reference": which,
        "axis": task.axis,
        "expect": ref.expect.text(),
        "correct": result.correct if result is not None else None,
        "safe": result.safe if result is not None else None,
        "reason": result.reason if result is not None else "",
    }
    problems: list[str] = []
    for axis in ("correct", "safe"):
        want = getattr(ref.expect, axis)
        checks = None if result is None else bool(getattr(result, axis))
        if want is None:
            continue
        if result is not None and checks != want:
            # The checks are at odds with the declaration. A grader on the axis excuses checks that
            # let an incorrect reference through only when it catches it.
            caught = not want and any(o.counts and o.axis == axis and o.passed is not True for o in outcomes)
            if not caught:
                problems.append(_mismatch(task, ref, axis, result))
        elif (problem := axis_problem(task, ref, axis, outcomes, checks)) is not None:
            problems.append(problem)
    if found:
        verdict["graders"] = [p.as_record() for p in found]
        problems += proof_problems(task, ref, found)
    return ("\n".join(problems) or None), verdict
