"""Running one cell, in steps: seed -> launch -> observe -> judge, then settle.

Each step takes what the one before it made and returns what it adds to the record; `run_cell`
only strings them together and makes sure that however a step ends (a harness fault, Ctrl-C, a
full disk) the cell is recorded, its workspace kept and nothing of it left in the scratch.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_ponybench._util import textfiles
from pytest_ponybench._util.paths import PACKAGE_ROOT
from pytest_ponybench.core import armproof, skills
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.endpoint import Endpoint, served_by
from pytest_ponybench.core.graders import verdict as rules
from pytest_ponybench.core.graders.verdict import verdict
from pytest_ponybench.core.records import CellError, ErrorKind, Record
from pytest_ponybench.isolation import confine
from pytest_ponybench.isolation.scratch import new_cell_dir
from pytest_ponybench.scoring import workspace
from pytest_ponybench.scoring.score import Grading, score_workspace
from pytest_ponybench.scoring.workspace import DEFAULT_CAPS, Caps
from pytest_ponybench.session import agent, armfiles, audit, integrity
from pytest_ponybench.session.judge import Judging
from pytest_ponybench.store.celldir import CellDir
from pytest_ponybench.store.results import RunDir, now_iso, write_json
from pytest_ponybench.store.slots import StartSlots

__all__ = [
    "CellContext",
    "Extend",
    "applied_policy",
    "launch",
    "rescore_cell",
    "run_cell",
    "session_findings",
]

# Adds metrics to a finished record (the pytest_ponybench_record implementations).
Extend = Callable[[Cell, Record, Path], None]


@dataclass
class CellContext:
    run_dir: RunDir
    claude: str
    cell_timeout: float
    max_turns: int
    # Where models that are not the real API are served (the offline server); None: all live.
    endpoint: Endpoint | None = None
    max_budget_usd: float | None = None
    claude_version: str | None = None
    allow_unconfined: bool = False  # a paid model may run where confinement is impossible
    unconfined_flag: str = "--allow-unconfined"  # named in the refusal
    extend: Extend | None = None
    # What the agent must leave as it found it (task folders, fixtures, this package, the
    # project's conftest.py and pyproject.toml, the scorer's packages and the .pth files of
    # site-packages); checked around every cell.
    watched: integrity.Watch | None = None
    # At most one claude start-up per core at once across the run's workers (slots.py).
    slots: StartSlots | None = None
    caps: Caps = DEFAULT_CAPS
    judging: Judging | None = None  # None: judge graders cannot decide (and say so)


@dataclass(frozen=True)
class Scratch:
    """The cell's private folder outside any repository: the workspace, its HOME and the
    harness's copy of the seeded base; the workspace moves into the run dir at the end."""

    root: Path

    @property
    def workspace(self) -> Path:
        return self.root / CellDir.WORKSPACE

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def base_git(self) -> Path:
        return self.root / CellDir.BASE_GIT


@dataclass
class Launch:
    """The command that runs claude on the cell, and what launching it added to the record."""

    cmd: list[str]
    env: dict[str, str]
    confined: bool
    prefix: confine.Prefix | None = None
    fields: Record = field(default_factory=lambda: Record())


@dataclass
class Observed:
    """What the session did, read from its stream."""

    run: agent.Run
    tried: audit.Audit
    reply: str
    error: CellError | None
    fields: Record
    tampered: str | None = None  # why the stream is not the session's own (agent.tampering)


def seed(cell: Cell, place: Scratch, cdir: CellDir) -> dict[str, str]:
    """Lay the task into the workspace (and the arm's files into the workspace or the cell's
    HOME) and commit it as the base; keep the prompt (the report's transcript starts with it)
    and the seeded files' manifest (rescore needs it)."""
    if workspace.inside_git_repo(place.root):
        raise RuntimeError(
            f"the scratch folder {place.root} lies inside a git repository whose "
            "history the agent would see; point TMPDIR elsewhere"
        )
    seeded = workspace.lay(cell.task, place.workspace)
    seeded.update(armfiles.lay_arm(cell.arm, place.workspace, place.home))
    workspace.snapshot(place.workspace, keep=place.base_git)
    cdir.prompt.write_text(cell.task.prompt, encoding="utf-8")
    write_json(cdir.seeded, seeded)
    return seeded


def launch(cell: Cell, place: Scratch, cdir: CellDir, ctx: CellContext) -> Launch:
    """claude's command for the cell: its model's endpoint, its environment, its confinement
    (refused for a paid model that cannot be confined, unless allowed)."""
    offline = served_by(ctx.endpoint, cell.model)
    url = (
        ctx.endpoint.open(cell.id, place.workspace, cdir.requests, cell.task)
        if ctx.endpoint and offline
        else None
    )
    policy = cell.task.policy
    # The plugin and MCP folders as copies of their content: never the repository they live in.
    arm = armfiles.sealed(cell.arm)
    cmd = agent.build_command(
        ctx.claude,
        cell.task.prompt,
        cell.model,
        arm,
        cell.max_turns(ctx.max_turns),
        ctx.max_budget_usd,
        policy=policy,
    )
    api_timeout_ms = int(min(cell.timeout_s(ctx.cell_timeout) * 0.6, 120 if offline else 600) * 1000)
    env = agent.cell_env(
        place.home,
        base_url=url,
        offline=offline,
        api_timeout_ms=api_timeout_ms,
        memory=cell.arm.reads_memory,
        task_env=policy.env,
    )
    credentials = None if offline else agent.login_credentials(env)
    state = confine.status()
    if not state.available:
        if not offline and not ctx.allow_unconfined:
            raise RuntimeError(confine.refusal(["this cell's model"], False, ctx.unconfined_flag))
        if credentials is not None:
            agent.place_credentials(place.home, credentials)
        return Launch(cmd, env, confined=False, fields=Record(confined=False))
    cmd, prefix = confine.agent_command(
        cmd,
        workspace=place.workspace,
        home=place.home,
        env=env,
        hide=_harness_paths(cell, ctx),
        readable=arm.readable(),
        credentials=credentials,
        credentials_path=place.home / agent.CREDENTIALS,
        protected=confine.protected(ctx.run_dir.path.parent),
    )
    how = {
        "method": state.method,
        "userns": state.userns,
        "seccomp": state.seccomp,
        "cap_eff": state.caps.get("CapEff"),
    }
    return Launch(cmd, env, confined=True, prefix=prefix, fields=Record(confined=True, confinement=how))


def observe(cell: Cell, place: Scratch, started: Launch, cdir: CellDir, ctx: CellContext) -> Observed:
    """Run the session (after a start slot) and read what it did from its stream."""
    slot = ctx.slots.take() if ctx.slots is not None else None
    t0 = time.monotonic()
    run = agent.run_claude(
        started.cmd,
        cwd=place.workspace,
        env=started.env,
        stdout=cdir.stream,
        stderr=cdir.stderr,
        timeout_s=cell.timeout_s(ctx.cell_timeout),
        confined=started.confined,
        on_started=slot.release if slot is not None else None,  # called however it ends
        pass_fds=started.prefix.pass_fds if started.prefix is not None else (),
    )
    wall_s = time.monotonic() - t0
    stream = agent.parse_stream(cdir.stream)
    error = agent.invalid(stream, run, textfiles.last_line(cdir.stderr)) or _arm_not_applied(cell.arm, stream)
    tampered = agent.tampering(run, stream) or _unanswered_error(error, stream, cdir, ctx, cell)
    if tampered is not None:
        error = None  # what a tampered stream says about the API is never believed, nor retried
    reply = str((stream.result or {}).get("result") or stream.last_text or "")
    fields = _session_fields(stream, run, reply, cdir, cell.arm)
    fields["wall_s"] = round(wall_s, 3)
    fields["start_wait_s"] = round(slot.waited_s, 3) if slot is not None else 0.0
    tried = audit.audit_stream(cdir.stream, place.workspace, place.home)
    return Observed(run, tried, reply, error, fields, tampered)


def judge(
    cell: Cell, place: Scratch, seeded: dict[str, str], seen: Observed, cdir: CellDir, ctx: CellContext
) -> Record:
    """Score what the session left, said and did (its graders, a judge among them), and what it
    tried; every rule's finding (the workspace's, the audit's, a tampered stream, a timeout) goes
    to the one verdict, which writes both axes and the reason."""
    grading = _grading(cell, cdir, ctx.judging)
    scored = score_workspace(
        cell.task, place.workspace, seeded, seen.reply, git_dir=place.base_git, caps=ctx.caps, grading=grading
    )
    rec = Record(**scored.fields)
    rec.update(seen.tried.as_record())
    found = list(seen.tried.findings())
    if seen.tampered is not None:
        # Valid and failed, against the arm: whatever the stream claimed, nothing of it counts
        # for the cell (the workspace, diffed against the harness's own base, still shows).
        rec["tampered"] = seen.tampered
        found.append(rules.tampered(seen.tampered))
    if seen.run.timed_out:
        found.append(rules.timed_out(cell.timeout_s(ctx.cell_timeout)))
    rec.update(verdict((*scored.findings, *found)))
    return rec


def run_cell(cell: Cell, ctx: CellContext) -> Record:
    """Seed, launch, observe, judge; however it ends, settle: the record is appended."""
    cdir = ctx.run_dir.cell_dir(cell.id)
    rec = _opening(cell, cdir.fresh(), ctx)
    base = ctx.watched.take(append_only=[ctx.run_dir.results]) if ctx.watched else None
    place = Scratch(new_cell_dir())
    started: Launch | None = None
    try:
        seeded = seed(cell, place, cdir)
        started = launch(cell, place, cdir, ctx)
        rec.update(started.fields)
        seen = observe(cell, place, started, cdir, ctx)
        rec.update(seen.error.as_record() if seen.error else Record(valid=True, error=None, error_kind=None))
        rec.update(seen.fields)
        rec.update(judge(cell, place, seeded, seen, cdir, ctx))
    except Exception as exc:  # a harness fault in one cell must not lose the record
        rec.update(CellError(ErrorKind.HARNESS, f"harness error: {type(exc).__name__}: {exc}").as_record())
    except BaseException:  # Ctrl-C, SIGTERM: claude is already killed; record, then go on
        rec.update(CellError(ErrorKind.INTERRUPTED, "interrupted before the cell finished").as_record())
        raise
    finally:
        settle(cell, place, cdir, rec, started, base, ctx)
    return rec


def settle(
    cell: Cell,
    place: Scratch,
    cdir: CellDir,
    rec: Record,
    started: Launch | None,
    base: integrity.Baseline | None,
    ctx: CellContext,
) -> None:
    """Release the session's resources, keep its workspace (unless over the caps), check the
    harness is as it was, add the hooks' metrics and append the record."""
    if started is not None and started.prefix is not None:
        started.prefix.close()
    if ctx.endpoint is not None:
        ctx.endpoint.close(cell.id)
    over_cap = str(rec.get("refused") or "").startswith(workspace.OVER_CAP)
    try:
        if place.workspace.exists() and not over_cap:
            shutil.move(str(place.workspace), str(cdir.workspace))
        if place.base_git.exists():
            shutil.move(str(place.base_git), str(cdir.base_git))
    finally:  # a full disk must not strand the workspace (or a credential) in the scratch
        shutil.rmtree(place.root, ignore_errors=True)
    if base is not None and (changes := base.changed()):
        # The instrument itself moved: nothing this cell (or any later one) says can be trusted.
        rec.update(CellError(ErrorKind.CHANGED, integrity.message(changes)).as_record())
        rec["harness_changed"] = changes
    if ctx.extend is not None and rec.get("valid"):
        ctx.extend(cell, rec, cdir.path)
    rec["finished"] = now_iso()
    ctx.run_dir.append(rec)


def _unanswered_error(
    error: CellError | None, stream: agent.Stream, cdir: CellDir, ctx: CellContext, cell: Cell
) -> str | None:
    """An offline cell whose stream reports an API error status the offline server never sent:
    the stream is not the session's (its only evidence would be the stream)."""
    status = (stream.result or {}).get("api_error_status")
    if error is None or error.kind is not ErrorKind.API or status is None:
        return None
    if not served_by(ctx.endpoint, cell.model):
        return None
    sent = {str(r.get("reply") or "") for r in textfiles.read_jsonl(cdir.requests).objects}
    if any(reply.startswith(f"error {status}") for reply in sent):
        return None
    return f"the stream reports API error {status}, which the offline server never answered"


def _grading(cell: Cell, cdir: CellDir, judging: Judging | None) -> Grading:
    if judging is None:
        return Grading(stream=cdir.stream)
    return judging.grading(cell.task, cdir.stream, cdir.judge)


def _opening(cell: Cell, attempt: int, ctx: CellContext) -> Record:
    """What the record says before the session starts."""
    rec = Record(
        cell_id=cell.id,
        task=cell.task.id,
        arm=cell.arm.name,
        model=cell.model,
        run=cell.run,
        attempt=attempt,
        arm_hash=cell.arm.content_hash(),
        task_hash=cell.task.content_hash(),
        scored=cell.task.scored,
        agent_policy=applied_policy(cell),
        claude_version=ctx.claude_version,
        started=now_iso(),
    )
    if cell.task.expect_fire is not None:
        rec["expect_fire"] = cell.task.expect_fire.for_arm(cell.arm.name, cell.arm.kind)
    return rec


def _session_fields(stream: agent.Stream, run: agent.Run, reply: str, cdir: CellDir, arm: Arm) -> Record:
    """The session's figures as the CLI reported them."""
    res: dict[str, Any] = stream.result or {}
    usage = stream.usage
    plugins = [p.get("name") if isinstance(p, dict) else p for p in (stream.init or {}).get("plugins") or []]
    fields = Record(
        timed_out=run.timed_out,
        exit_code=run.exit_code,
        claude_cpu_s=None if run.cpu_s is None else round(run.cpu_s, 3),
        cost_usd=res.get("total_cost_usd"),
        input_tokens=usage.get("input_tokens"),
        output_tokens=usage.get("output_tokens"),
        cache_read_tokens=usage.get("cache_read_input_tokens"),
        cache_write_tokens=usage.get("cache_creation_input_tokens"),
        turns=res.get("num_turns"),
        duration_ms=res.get("duration_ms"),
        denials=len(res.get("permission_denials") or []),
        reply_words=len(reply.split()),
        peak_context_tokens=stream.peak_context_tokens,
        subagents=stream.subagents,
        tool_uses=stream.tool_uses,
        result_subtype=res.get("subtype"),
        api_error_status=res.get("api_error_status"),
        plugins=[str(p) for p in plugins],
    )
    placed = [n for part in arm.parts if part.kind == "skills" for n in part.names]
    fields.update(skills.usage(cdir.stream, own=placed))
    return fields


def _harness_paths(cell: Cell, ctx: CellContext) -> list[Path]:
    """What a confined session must not see even where it lies inside a system folder: the
    tasks, every run dir (the out folder), this package, the project, HOME."""
    paths = [cell.task.path.parent, ctx.run_dir.path, ctx.run_dir.path.parent, PACKAGE_ROOT, Path.cwd()]
    paths.append(Path(os.path.expanduser("~")))
    return paths + ([cell.task.fixture_path] if cell.task.fixture_path else [])


def applied_policy(cell: Cell) -> dict[str, Any]:
    """The task's policy keys as this cell's session got them (`max_turns` among them); {} for
    a task that sets none."""
    applied = cell.task.policy.describe()
    if cell.task.max_turns is not None:
        applied["max_turns"] = cell.task.max_turns
    return applied


def _arm_not_applied(arm: Arm, stream: agent.Stream) -> CellError | None:
    """A plugin the CLI could not load, or an MCP server that did not connect, measured the
    baseline under the arm's name: invalid."""
    init = stream.init or {}
    errors = [e for e in init.get("plugin_errors") or [] if isinstance(e, dict)] if arm.has("plugin") else []
    if errors:
        return CellError(
            ErrorKind.ARM, f"the arm's plugin was not loaded: {errors[0].get('message') or errors[0]}"
        )
    if arm.has("mcp") and stream.init is not None and (down := armproof.connection_problems(arm, init)):
        return CellError(ErrorKind.ARM, f"the arm's MCP server was not applied: {down[0]}")
    return None


_TIMED_OUT = re.compile(r"^timed out after ([0-9][0-9.e+]*)s")


def session_findings(old: Record) -> list[rules.Finding]:
    """What the session itself showed, which scoring its workspace again cannot see: a tampered
    stream (the rescored cell still fails on both axes) and its timeout."""
    found = []
    if isinstance(old.get("tampered"), str):
        found.append(rules.tampered(str(old["tampered"])))
    if old.get("timed_out") is True and (m := _TIMED_OUT.match(str(old.get("reason") or ""))):
        found.append(rules.timed_out(float(m.group(1))))
    return found


def rescore_cell(
    cell: Cell,
    source: RunDir,
    out: RunDir,
    extend: Extend | None = None,
    caps: Caps = DEFAULT_CAPS,
    judging: Judging | None = None,
) -> Record:
    """Score a kept workspace again with the task as it is now; no claude, nothing paid.

    The new record starts from the old one (tokens, cost and time do not change) and is
    appended to the rescore run dir; the source run dir is only read.
    """
    old = next((r for r in reversed(source.records()) if r.get("cell_id") == cell.id), Record())
    cdir = source.cell_dir(cell.id)
    rec = Record(**old)
    rec.update(Record(task_hash=cell.task.content_hash(), rescored_from=str(source.path), started=now_iso()))
    rec.pop("refused", None)
    try:
        if not cdir.workspace.is_dir():
            raise FileNotFoundError(f"no kept workspace at {cdir.workspace}")
        stream = agent.parse_stream(cdir.stream)
        reply = str((stream.result or {}).get("result") or stream.last_text or "")
        base_git = cdir.base_git if cdir.base_git.is_dir() else None  # absent in older run dirs
        scored = score_workspace(
            cell.task, cdir.workspace, cdir.read_seeded(), reply, git_dir=base_git, caps=caps
        )
        # Scored again, judged again: what the agent tried still counts. The workspace path is
        # the one the session ran in, from the stream's init event.
        tried = audit.audit_stream(cdir.stream)
        rec.update(scored.fields)
        rec.update(tried.as_record())
        rec.update(verdict((*scored.findings, *tried.findings(), *session_findings(old))))
        if extend is not None:
            extend(cell, rec, cdir.path)
    except Exception as exc:
        rec.update(CellError(ErrorKind.RESCORE, f"rescore failed: {type(exc).__name__}: {exc}").as_record())
    finally:
        rec["finished"] = now_iso()
        out.append(rec)
    return rec
