"""Proving graders against a task's references, as the checks are proven.

A reference's evidence is what a cell with that reference would show: its files laid over the
seed, its declared reply, and the tool calls the offline agents make for it, in the order they
make them (the declared calls first, then the Reads and the Write or Edit of each file, as
`offline.agents._agent_step` does: an integration test runs both and compares). Each grader's outcome
on that evidence must be the one the reference declares (`graders = {name = true}`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_ponybench.core.graders.cell import grade_cell
from pytest_ponybench.core.graders.config import DECLARABLE_WRITES
from pytest_ponybench.core.graders.evidence import CellEvidence, ToolCall, WorkspaceFiles
from pytest_ponybench.core.graders.outcome import GraderOutcome
from pytest_ponybench.core.judge import Judge, judge_in_process
from pytest_ponybench.offline.endpoint import session_of
from pytest_ponybench.offline.script import Session, resolve_call

if TYPE_CHECKING:
    from pytest_ponybench.core.tasks import Reference, Task

__all__ = [
    "GraderProof",
    "axis_problem",
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
    for call in ref.meta.tool_calls:  # a declared Write, made before the files (offline.agents)
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


def reference_evidence(
    task: Task, ref: Reference, ws: Path, before: Mapping[str, bytes | None]
) -> CellEvidence:
    """The evidence a cell with this reference would give graders (ws laid by lay_reference)."""
    session = session_of(ref.meta)
    calls = offline_calls(ws, before, ref.files, session)
    reply = ref.meta.reply
    if reply is None:  # what the offline agent says when nothing is declared
        reply = f"Done: wrote {', '.join(sorted(r for r in ref.files if before.get(r) != ref.files[r]))}."
        if reply == "Done: wrote .":
            reply = "Done: nothing needed changing."

    def diff() -> str:
        from pytest_ponybench.scoring.diff import unified

        base = {rel: data for rel, data in before.items() if data is not None}
        return unified(base, dict(ref.files))

    def seeded_base() -> Mapping[str, tuple[str, bytes]]:
        """The seed as git would hold it: laid again in a scratch folder of its own."""
        import tempfile

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

    tool_calls = tuple(ToolCall(index=n, tool=tool, input=given) for n, (tool, given) in enumerate(calls))
    return CellEvidence(
        reply=reply,
        transcript=reply,
        tool_calls=tool_calls,
        # What a cell's gateway would see of it: the prompt went in; the calls and reply came out.
        model_input=task.prompt,
        model_output="\n\n".join(
            [
                *(f"{c.tool} {json.dumps(c.input, ensure_ascii=False, sort_keys=True)}" for c in tool_calls),
                reply,
            ]
        ),
        workspace=WorkspaceFiles(ws),
        prompt=task.prompt,
        diff=diff,
        base=seeded_base,
    )


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
