"""Running one cell, in steps: seed -> launch -> observe -> judge, then settle.

Each step takes what the one before it made and returns what it adds to the record; `run_cell`
only strings them together and makes sure that however a step ends (a harness fault, Ctrl-C, a
full disk) the cell is recorded, its workspace kept and nothing of it left in the scratch.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pytest_ponybench._util import trees
from pytest_ponybench._util.paths import PACKAGE_ROOT
from pytest_ponybench.agents import launch as launcher
from pytest_ponybench.agents import registry
from pytest_ponybench.agents.base import Agent, SessionSpec, task_refusal
from pytest_ponybench.agents.install import sealed
from pytest_ponybench.agents.launch import Prepared
from pytest_ponybench.agents.standins import stand_ins
from pytest_ponybench.core import armhealth, armproof, skills
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.endpoint import Endpoint, served_by
from pytest_ponybench.core.graders import verdict as rules
from pytest_ponybench.core.graders.verdict import verdict
from pytest_ponybench.core.records import CellError, ErrorKind, Record
from pytest_ponybench.core.transcript import ModelView, Transcript
from pytest_ponybench.gateway import log as gateway_log
from pytest_ponybench.gateway import meter
from pytest_ponybench.gateway.meter import Metered
from pytest_ponybench.gateway.routes import Route, Routes
from pytest_ponybench.gateway.server import BudgetGate, Gateway, Seat, shared
from pytest_ponybench.gateway.upstream import Upstream
from pytest_ponybench.isolation import confine
from pytest_ponybench.isolation.scratch import new_cell_dir
from pytest_ponybench.scoring import workspace
from pytest_ponybench.scoring.score import Grading, score_workspace
from pytest_ponybench.scoring.workspace import DEFAULT_CAPS, Caps
from pytest_ponybench.session import audit, conversation, integrity
from pytest_ponybench.session.conversation import Conversation
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
    agent: Agent = field(default_factory=registry.get)  # the CLI the cells run
    # The model gateway every request of the cell goes through (None: the process's own), the
    # live upstream behind it (None: no credential), the models a live seat allows (None: any)
    # and the run's budget, asked per request.
    gateway: Gateway | None = None
    live: Upstream | None = None
    models: tuple[str, ...] | None = None
    budget: BudgetGate | None = None

    @property
    def routes(self) -> Routes:
        return Routes(self.gateway or shared(), self.endpoint, self.live, self.models, self.budget)


@dataclass
class Launched:
    """The session's command ready to run, its seat at the gateway, and how a conversation's
    later turns are prepared on the same seat."""

    prepared: Prepared
    route: Route
    spec: SessionSpec
    arm: Arm  # as the cell runs it (sealed)
    prepare: Callable[[SessionSpec], Prepared]
    seat: Seat | None = None  # once closed


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

    @property
    def history(self) -> Path:
        """Where a task's earlier conversation is put for its first turn to resume: the cell's
        HOME, where the CLI writes the session that continues it."""
        return self.home / HISTORY_DIR


HISTORY_DIR = "history"


@dataclass
class Observed:
    """What the session did, read once from its stream, and what the gateway metered of it."""

    session: launcher.Session
    tried: audit.Audit
    fields: Record
    seat: Seat
    conversation: Conversation
    view: ModelView = field(default_factory=ModelView)  # what the gateway saw reach the model

    @property
    def transcript(self) -> Transcript:
        return self.session.transcript


def seed(cell: Cell, place: Scratch, cdir: CellDir, agent: Agent) -> dict[str, str]:
    """Lay the task into the workspace (and the arm's files into the workspace or the cell's
    HOME) and commit it as the base; keep the prompt (the report's transcript starts with it)
    and the seeded files' manifest (rescore needs it)."""
    if workspace.inside_git_repo(place.root):
        raise RuntimeError(
            f"the scratch folder {place.root} lies inside a git repository whose "
            "history the agent would see; point TMPDIR elsewhere"
        )
    seeded = workspace.lay(cell.task, place.workspace)
    seeded.update(agent.install(cell.arm, place.workspace, place.home))
    if cell.task.history is not None:
        place.history.mkdir(parents=True, exist_ok=True)
        (place.history / cell.task.history.name).write_bytes(cell.task.history.data)
    workspace.snapshot(place.workspace, keep=place.base_git)
    cdir.prompt.write_text(cell.task.prompt, encoding="utf-8")
    write_json(cdir.seeded, seeded)
    return seeded


def launch(cell: Cell, place: Scratch, cdir: CellDir, ctx: CellContext) -> Launched:
    """The agent's command for the cell: its seat at the gateway (the offline server's cell
    behind it for an offline model), its environment, its confinement (refused for a paid model
    that cannot be confined, unless allowed)."""
    if not served_by(ctx.endpoint, cell.model) and not ctx.allow_unconfined:
        refused = confine.refusal(["this cell's model"], False, ctx.unconfined_flag)
        if refused is not None:  # before anything is opened for it
            raise RuntimeError(refused)
    route = ctx.routes.open(
        cell.id,
        cell.model,
        workspace=place.workspace,
        requests_log=cdir.requests,
        log=cdir.gateway,
        task=cell.task,
    )
    if (refused := task_refusal(ctx.agent, cell.task)) is not None:
        raise RuntimeError(refused)  # the plan refuses such a run before any cell
    policy = cell.task.policy
    # The plugin and MCP folders as copies of their content: never the repository they live in.
    arm = sealed(cell.arm)
    mocked = stand_ins(cell.task.mocks, cell.task.id)
    history = cell.task.history
    spec = SessionSpec(
        prompt=cell.task.prompt,
        model=cell.model,
        home=place.home,
        max_turns=cell.max_turns(ctx.max_turns),
        offline=route.offline,
        api_timeout_ms=int(min(cell.timeout_s(ctx.cell_timeout) * 0.6, 120 if route.offline else 600) * 1000),
        max_budget_usd=ctx.max_budget_usd,
        memory=cell.arm.reads_memory,
        task_env=policy.env,
        resume=str(place.history / history.name) if history is not None else None,
        mcp_servers=mocked.servers,
    )

    def prepare(one: SessionSpec) -> Prepared:
        return launcher.prepare(
            ctx.agent,
            ctx.agent.command(ctx.claude, one, arm, policy),
            one,
            ticket=route.ticket,
            workspace=place.workspace,
            readable=[*arm.readable(), *mocked.readable],
            hide=_harness_paths(cell, ctx),
            protected=confine.protected(ctx.run_dir.path.parent),
            refuse_unconfined=None if ctx.allow_unconfined else ctx.unconfined_flag,
            open_network=policy.open_network,
        )

    try:
        prepared = prepare(spec)
    except BaseException:
        ctx.routes.close(route)
        raise
    return Launched(prepared, route, spec, arm, prepare)


def observe(cell: Cell, place: Scratch, started: Launched, cdir: CellDir, ctx: CellContext) -> Observed:
    """Run the session (a conversation's every turn, each after a start slot, on one seat),
    close its seat (its token is refused from then on), and read what it did, once: its
    transcript, checked against what the gateway saw."""

    def metered() -> tuple[Metered, ...]:
        seat = ctx.routes.seat(started.route)
        if seat is None:
            return ()
        seat.quiet(conversation.QUIET_S)
        return tuple(seat.requests)

    step = conversation.Step(
        agent=ctx.agent,
        prepare=started.prepare,
        tell_turn=lambda turn: ctx.routes.turn(started.route, turn),
        metered=metered,
        workspace=place.workspace,
        home=place.home,
        git_dir=place.base_git,
        cdir=cdir,
        timeout_s=cell.timeout_s(ctx.cell_timeout),
        slots=ctx.slots,
    )
    talk = conversation.play(cell.task, started.spec, started.prepared, step, arm=cell.arm)
    seat = started.seat = ctx.routes.close(started.route)
    session = talk.session
    if session.tampered is None:
        session.tampered = _not_what_the_gateway_saw(session, seat, ctx.agent)
        if session.tampered is not None:
            session.error = None
    if seat.refused is not None and session.tampered is None:
        session.error = CellError(ErrorKind.BUDGET, f"budget: {seat.refused}")
    fields = _session_fields(session, seat, ctx.agent, cell.arm)
    fields["wall_s"] = round(sum(p.wall_s for p in talk.plays), 3)
    fields["start_wait_s"] = round(sum(p.waited_s for p in talk.plays), 3)
    if cell.task.resumes:
        fields["conversation"] = talk.record(cell.task)
    view = gateway_log.model_view(gateway_log.lines(cdir.gateway))
    fields.update(_arm_health(cell, session.transcript, view))
    tried = audit.audit_transcript(session.transcript, place.workspace, place.home)
    return Observed(session, tried, fields, seat, talk, view)


def _arm_health(cell: Cell, transcript: Transcript, view: ModelView) -> Record:
    """What of the arm failed in the session (`arm_errors`), and which of its hooks acted
    (`hooks_fired`: null for an arm that brings no hook)."""
    rec = Record(arm_errors=[e.as_record() for e in armhealth.arm_errors(cell.arm, transcript)])
    brings_hooks = bool(armproof.arm_hook_events(cell.arm))
    rec["hooks_fired"] = armhealth.hooks_fired(transcript, view.input) if brings_hooks else None
    return rec


def judge(
    cell: Cell, place: Scratch, seeded: dict[str, str], seen: Observed, cdir: CellDir, ctx: CellContext
) -> Record:
    """Score what the session left, said and did (its graders, a judge among them), and what it
    tried; every rule's finding (the workspace's, the audit's, a tampered stream, a timeout) goes
    to the one verdict, which writes both axes and the reason."""
    grading = _grading(cell, seen.transcript, cdir, ctx.judging, seen.conversation)
    scored = score_workspace(
        cell.task,
        place.workspace,
        seeded,
        seen.transcript.reply,
        git_dir=place.base_git,
        caps=ctx.caps,
        grading=grading,
    )
    rec = Record(**scored.fields)
    rec.update(seen.tried.as_record())
    found = list(seen.tried.findings())
    tampered = seen.session.tampered
    if tampered is not None:
        # Valid and failed, against the arm: whatever the stream claimed, nothing of it counts
        # for the cell (the workspace, diffed against the harness's own base, still shows).
        rec["tampered"] = tampered
        found.append(rules.tampered(tampered))
    if seen.session.run.timed_out:
        found.append(rules.timed_out(cell.timeout_s(ctx.cell_timeout)))
    rec.update(verdict((*scored.findings, *found)))
    return rec


def run_cell(cell: Cell, ctx: CellContext) -> Record:
    """Seed, launch, observe, judge; however it ends, settle: the record is appended."""
    cdir = ctx.run_dir.cell_dir(cell.id)
    rec = _opening(cell, cdir.fresh(), ctx)
    base = ctx.watched.take(append_only=[ctx.run_dir.results]) if ctx.watched else None
    place = Scratch(new_cell_dir())
    started: Launched | None = None
    try:
        seeded = seed(cell, place, cdir, ctx.agent)
        started = launch(cell, place, cdir, ctx)
        rec.update(Record(confined=started.prepared.confined))
        if started.prepared.confinement is not None:
            rec["confinement"] = started.prepared.confinement
        seen = observe(cell, place, started, cdir, ctx)
        error = seen.session.error
        rec.update(error.as_record() if error else Record(valid=True, error=None, error_kind=None))
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
    started: Launched | None,
    base: integrity.Baseline | None,
    ctx: CellContext,
) -> None:
    """Release the session's resources, keep its workspace (unless over the caps), check the
    harness is as it was, add the hooks' metrics and append the record."""
    if started is not None:
        started.prepared.close()
        if started.seat is None:  # the session never ran to its end: its token goes now
            started.seat = ctx.routes.close(started.route)
    over_cap = str(rec.get("refused") or "").startswith(workspace.OVER_CAP)
    try:
        if place.workspace.exists() and not over_cap:
            shutil.move(str(place.workspace), str(cdir.workspace))
        if place.base_git.exists():
            shutil.move(str(place.base_git), str(cdir.base_git))
    finally:  # a full disk must not strand the workspace (or a credential) in the scratch
        trees.remove(place.root)  # however deep the agent nested its folders
    if base is not None and ctx.watched is not None and (changes := ctx.watched.check(base)):
        # The instrument itself moved: nothing this cell (or any later one) says can be trusted.
        rec.update(CellError(ErrorKind.CHANGED, integrity.message(changes)).as_record())
        rec["harness_changed"] = changes
    if ctx.extend is not None and rec.get("valid"):
        ctx.extend(cell, rec, cdir.path)
    rec["finished"] = now_iso()
    ctx.run_dir.append(rec)


def _not_what_the_gateway_saw(session: launcher.Session, seat: Seat, agent: Agent) -> str | None:
    """The stream against the gateway, which saw every request: a tool call the model never
    asked for, or an API error status the gateway never relayed, is something else's writing."""
    asked = {i for m in seat.requests for i in m.tool_use_ids}
    for call in session.transcript.tool_calls:
        if call.id and call.id not in asked:
            return f"the stream holds a tool call ({call.tool}, id {call.id}) the model never asked for"
    status = agent.api_error_status(session.transcript)
    error = session.error
    if error is None or error.kind is not ErrorKind.API or status is None:
        return None
    if any(m.status == status for m in seat.requests):
        return None
    return f"the stream reports API error {status}, which the gateway never relayed"


def _grading(
    cell: Cell, transcript: Transcript, cdir: CellDir, judging: Judging | None, talk: Conversation
) -> Grading:
    lines = gateway_log.lines(cdir.gateway)
    view, turns = gateway_log.model_view(lines), talk.turns(lines)
    if judging is None:
        return Grading(transcript=transcript, view=view, turns=turns)
    return replace(judging.grading(cell.task, transcript, cdir.judge), view=view, turns=turns)


def _opening(cell: Cell, attempt: int, ctx: CellContext) -> Record:
    """What the record says before the session starts."""
    rec = Record(
        cell_id=cell.id,
        task=cell.task.id,
        arm=cell.arm.name,
        model=cell.model,
        agent=cell.agent,
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


def _session_fields(session: launcher.Session, seat: Seat, agent: Agent, arm: Arm) -> Record:
    """The session's figures: tokens and dollars as the gateway metered them (every source in
    the cell: the agent's session and any other, such as a plugin's hook calling a model), the
    CLI's own kept beside them and checked against the gateway's view of its session; the rest
    as the CLI reported it."""
    t, run = session.transcript, session.run
    res: dict[str, Any] = t.result or {}
    sources = meter.by_source(seat.requests, agent.gateway_session(t))
    cell = meter.Totals.of(sources.get("main"), sources.get("side"))
    fields = Record(
        timed_out=run.timed_out,
        exit_code=run.exit_code,
        claude_cpu_s=None if run.cpu_s is None else round(run.cpu_s, 3),
        cost_usd=round(cell.cost_usd, 8),
        input_tokens=cell.input_tokens,
        output_tokens=cell.output_tokens,
        cache_read_tokens=cell.cache_read_tokens,
        cache_write_tokens=cell.cache_write_tokens,
        spend={name: totals.as_record() for name, totals in sources.items()},
        side_cost_usd=round(sources["side"].cost_usd, 8) if "side" in sources else 0.0,
        cli_cost_usd=t.cost_usd,
        meter_mismatch=_mismatch(t, sources.get("main")),
        turns=t.turns,
        duration_ms=t.duration_ms,
        denials=t.denials,
        reply_words=len(t.reply.split()),
        peak_context_tokens=t.peak_context_tokens,
        subagents=t.subagents,
        tool_uses=t.tool_uses,
        result_subtype=res.get("subtype"),
        api_error_status=res.get("api_error_status"),
        retry_after_s=t.retry_after_s,
        plugins=t.plugins,
    )
    placed = [n for part in arm.parts if part.kind == "skills" for n in part.names]
    fields.update(skills.usage(t, own=placed))
    return fields


def _mismatch(t: Transcript, main: meter.Totals | None) -> str | None:
    """Where the CLI's own token counts for its session differ from what the gateway metered of
    it (None: they agree, or the CLI reported none)."""
    if t.result is None or not t.cli_usage:
        return None
    metered = main or meter.Totals()
    pairs = (
        ("input", t.usage.input_tokens, metered.input_tokens),
        ("output", t.usage.output_tokens, metered.output_tokens),
        ("cache read", t.usage.cache_read_tokens, metered.cache_read_tokens),
        ("cache write", t.usage.cache_write_tokens, metered.cache_write_tokens),
    )
    off = [f"{name} {cli} (gateway {gw})" for name, cli, gw in pairs if cli != gw]
    return "the CLI reports " + ", ".join(off) if off else None


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
    agent: Agent | None = None,
) -> Record:
    """Score a kept workspace again with the task as it is now; no claude, nothing paid.

    The new record starts from the old one (tokens, cost and time do not change) and is
    appended to the rescore run dir; the source run dir is only read.
    """
    old = next((r for r in reversed(source.records()) if r.get("cell_id") == cell.id), Record())
    agent = agent or registry.of_record(old.get("agent"))
    cdir = source.cell_dir(cell.id)
    rec = Record(**old)
    rec.update(Record(task_hash=cell.task.content_hash(), rescored_from=str(source.path), started=now_iso()))
    rec.pop("refused", None)
    try:
        if not cdir.workspace.is_dir():
            raise FileNotFoundError(f"no kept workspace at {cdir.workspace}")
        transcript, turns = conversation.read_back(agent, cdir, old.get("conversation"))
        base_git = cdir.base_git if cdir.base_git.is_dir() else None  # absent in older run dirs
        # The graders read the session again; a judge is not asked (a rescore pays nothing).
        scored = score_workspace(
            cell.task,
            cdir.workspace,
            cdir.read_seeded(),
            transcript.reply,
            git_dir=base_git,
            caps=caps,
            grading=Grading(
                transcript=transcript,
                view=gateway_log.model_view(gateway_log.lines(cdir.gateway)),
                turns=turns,
            ),
        )
        # Scored again, judged again: what the agent tried still counts. The workspace path is
        # the one the session ran in, from the stream's init event.
        tried = audit.audit_transcript(transcript)
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
