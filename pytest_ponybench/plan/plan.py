"""The plan: everything a pytest run asks of ponybench, resolved once and frozen.

Settings, tasks, arms, an earlier run and the cells are read and checked in pytest_configure
(roles/planner.py hands in what only pytest's config knows), before collection starts: a bad value
is one usage error naming the flag, key or file, and no hidden check is ever collected as a
test. Every role object reads this plan; none re-reads the command line.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_ponybench.agents import registry
from pytest_ponybench.agents.base import task_refusal
from pytest_ponybench.core import arms as arms_mod
from pytest_ponybench.core import shards
from pytest_ponybench.core.armparts import MEMORY_FILES
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.cell import DEFAULT_AGENT, Cell, agents_shown, grid
from pytest_ponybench.core.endpoint import is_offline
from pytest_ponybench.core.graders.outcome import JUDGE_TYPES
from pytest_ponybench.core.records import latest
from pytest_ponybench.core.runs import Runs
from pytest_ponybench.core.tasks import Task, TaskError, load_tasks, select
from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.isolation import confine
from pytest_ponybench.plan import options as cfg
from pytest_ponybench.plan import previous, provenance
from pytest_ponybench.plan.options import Mode, Settings
from pytest_ponybench.store.results import RunDir
from pytest_ponybench.store.runinfo import RunInfo, ShardInfo

if TYPE_CHECKING:  # imported where used: a collection needs neither
    from pytest_ponybench.analysis import sequential

__all__ = ["CLOUD_ENV", "CREDENTIAL_ENV", "Plan", "resolve"]

# What the CLI accepts as a credential for a live model, besides a logged-in user's file.
CREDENTIAL_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN")
CLOUD_ENV = ("CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY")


@dataclass(frozen=True)
class Plan:
    mode: Mode
    settings: Settings
    tasks: tuple[Task, ...]
    arms: tuple[Arm, ...] = ()
    cells: tuple[Cell, ...] = ()
    claude: str | None = None  # the resolved binary; None only where no cell or judge runs claude
    # Each agent of the grid -> its resolved binary (claude's is `claude`).
    binaries: Mapping[str, str] = field(default_factory=dict)
    previous: RunDir | None = None  # the run dir --resume appends to or --rescore reads
    previous_info: RunInfo | None = None  # its run.json
    collect_only: bool = False
    cell_by_id: Mapping[str, Cell] = field(default_factory=dict)
    shard: shards.Shard | None = None  # this run's part of a sharded grid (cells holds only it)
    runs: Runs | None = None  # the grid's runs (None: a selftest or a rescore, which has no grid)

    @property
    def sequential(self) -> sequential.Plan | None:
        """The group-sequential design of --until-decided: up to `runs` runs per task, a look
        after each run, the primary and family as declared."""
        s = self.settings
        if not s.until_decided or not self.arms:
            return None
        from pytest_ponybench.analysis.sequential import Plan as Design

        return Design(max_runs=s.runs, primary=s.primary, family=s.family, baseline=self.arms[0].name)

    @property
    def judged(self) -> bool:
        """Whether a selected task declares a judge grader (llm, llm_reference)."""
        return any(g.type in JUDGE_TYPES for t in self.tasks for g in t.graders)

    @property
    def judge_model(self) -> str:
        """The judge: --judge-model, else a current Sonnet, or the offline judge when every
        model of the run is offline (so a free run stays free)."""
        if self.settings.judge_model:
            return self.settings.judge_model
        return cfg.OFFLINE_JUDGE if all(is_offline(m) for m in self.settings.models) else cfg.DEFAULT_JUDGE

    @property
    def live_models(self) -> tuple[str, ...]:
        """Every model the run pays for: the grid's live ones, and a live judge that is asked."""
        judge = (self.judge_model,) if self.judged and not is_offline(self.judge_model) else ()
        grid = tuple(m for m in self.settings.models if not is_offline(m))
        return grid + tuple(j for j in judge if j not in grid)

    @property
    def paid(self) -> bool:
        """Whether any model is a live one (costs money); offline-* models are local."""
        return bool(self.live_models)

    @property
    def offline(self) -> bool:
        return any(is_offline(m) for m in self.settings.models)

    def cell(self, param_id: str) -> Cell | None:
        """The cell behind a test's parameter id (the id *is* Cell.id; see collection)."""
        return self.cell_by_id.get(param_id)

    def provenance(
        self, claude_version: str | None, versions: Mapping[str, str | None] | None = None
    ) -> RunInfo:
        """This session's run.json, before the controller adds the pre-flight and the start;
        with the agents' versions when the grid is not of claude alone."""
        runs = self.runs if self.runs is not None else Runs(self.settings.runs)
        options = provenance.recorded_options(self.settings, list(self.arms), runs, self.judge_model)
        info = provenance.provenance(
            self.settings,
            list(self.arms),
            list(self.tasks),
            [c.id for c in self.cells],
            claude_version,
            options,
        )
        info = replace(info, mode=self.mode.value)
        if agents_shown(self.settings.agents):
            known = {a: v for a, v in (versions or {}).items() if v is not None}
            info = replace(info, agent_versions=known)
        if self.mode is not Mode.RESCORE:
            spec = shards.GridSpec(
                {t.id: t.content_hash() for t in self.tasks},
                {a.name: a.content_hash() for a in self.arms},
                self.settings.models,
                runs,
                self.settings.agents,
            )
            shard = self.shard
            info = replace(
                info,
                grid_hash=spec.hash,
                shard=None
                if shard is None
                else ShardInfo(shard.index, shard.count, tuple(spec.shard_cell_ids(shard))),
            )
        if self.previous is not None:
            where = str(self.previous.path)
            info = (
                replace(info, resume_of=where)
                if self.mode is Mode.RESUME
                else replace(info, rescore_of=where)
            )
        return info


def _tasks(settings: Settings) -> tuple[Task, ...]:
    if not settings.tasks_dir.is_dir():
        raise PonybenchError(
            f"ponybench: the tasks folder {settings.tasks_dir} does not exist "
            f"(set {cfg.OPT_TASKS_DIR} or [tool.ponybench] tasks)"
        )
    try:
        tasks = tuple(select(load_tasks(settings.tasks_dir, settings.fixtures_dir), settings.task_filter))
        return tasks[: settings.max_tasks] if settings.max_tasks else tasks
    except TaskError as exc:
        raise PonybenchError(
            f"ponybench: {len(exc.problems)} problem(s) with the tasks:\n"
            + "\n".join(f"  - {p}" for p in exc.problems)
        ) from None


def _benchmark_folders(settings: cfg.Settings) -> tuple[Path, ...]:
    """The folders that are the benchmark's own: where a plugin holds them (a plugin repository
    that ponybench runs in), they are not the plugin."""
    return (settings.tasks_dir, settings.fixtures_dir, settings.out_dir)


def _rescore_cells(
    run_dir: RunDir, tasks: tuple[Task, ...], arms: tuple[Arm, ...], agents: tuple[str, ...]
) -> tuple[Cell, ...]:
    """The cells of the earlier run, as its latest attempts recorded them (their ids naming
    the agent as that run's did)."""
    by_task = {t.id: t for t in tasks}
    by_arm = {a.name: a for a in arms}
    shown = agents_shown(agents)
    cells = []
    for rec in latest(run_dir.records()):
        task, arm, run = by_task.get(str(rec.get("task"))), by_arm.get(str(rec.get("arm"))), rec.get("run")
        if task is None or arm is None or not isinstance(run, int) or not isinstance(rec.get("model"), str):
            continue  # a task since removed, filtered out with --tasks, or a garbled record
        agent = str(rec.get("agent") or DEFAULT_AGENT)
        cells.append(Cell(task, arm, str(rec["model"]), run, agent, shown))
    if not cells:
        raise PonybenchError(
            f"{cfg.OPT_RESCORE} {run_dir.path}: no cell to rescore "
            "(no record, or none of its tasks is selected)"
        )
    return tuple(cells)


def _check_credentials(live_models: tuple[str, ...]) -> None:
    """A live model (or judge) needs a credential the gateway can send upstream; without one
    every cell would fail. Bedrock, Vertex and Foundry are not what the gateway speaks."""
    if not live_models:
        return
    from pytest_ponybench.gateway import upstream  # urllib and ssl: only for a live model

    if upstream.from_environment() is not None:
        return
    live = ", ".join(live_models)
    cloud = [k for k in CLOUD_ENV if os.environ.get(k)]
    hint = f" ({', '.join(cloud)} is set: the model gateway speaks the Anthropic API only)" if cloud else ""
    raise PonybenchError(
        f"ponybench: {cfg.OPT_MODELS} or {cfg.OPT_JUDGE_MODEL} names live model(s) ({live}) but no "
        f"credential was found{hint}: "
        f"set {CREDENTIAL_ENV[0]} (a dedicated key with a spend limit) or log in with `claude`; "
        "offline-* models need none"
    )


def _claude(settings: Settings) -> str:
    claude = settings.resolve_claude()
    if claude is None:
        raise PonybenchError(
            f"ponybench: the claude CLI was not found ({cfg.OPT_CLAUDE} {settings.claude!r}). "
            f"Install it with `npm install -g @anthropic-ai/claude-code` or pass {cfg.OPT_CLAUDE} PATH."
        )
    return claude


def _claude_sealed(claude: str, settings: Settings) -> None:
    """What every cell binds of the host to run claude must not hold the project, HOME, the out
    folder or the scratch (a `--claude` wrapper in a repository binds itself, not the repository)."""
    protected = {**confine.protected(settings.out_dir), "the project root": settings.root}
    if (
        why := confine.exposure(confine.claude_readable(claude, os.environ.get("PATH")), protected)
    ) is not None:
        raise PonybenchError(f"ponybench: {cfg.OPT_CLAUDE} {claude}: {why}")


def resolve(
    mode: Mode, settings: Settings, *, collect_only: bool = False, added: Sequence[tuple[str, str]] = ()
) -> Plan:
    """The frozen plan of a run from its settings; every problem is a usage error before
    collection. `collect_only`: the run shows something and runs nothing (no run dir, no claude
    started); `added`: the arm specs of pytest_ponybench_arms, each with where it came from."""
    if mode is Mode.SELFTEST:
        return Plan(mode, settings, _tasks(settings), collect_only=collect_only)
    run_dir: RunDir | None = None
    info: RunInfo | None = None
    arms: tuple[Arm, ...]
    shard = settings.shard
    if mode in (Mode.RESUME, Mode.RESCORE):
        flag = cfg.OPT_RESUME if mode is Mode.RESUME else cfg.OPT_RESCORE
        if shard is not None:
            raise PonybenchError(
                f"{cfg.OPT_SHARD} starts a shard of a new run; {flag} takes the grid, and the shard, "
                "of the run it reads"
            )
        path = settings.resume if mode is Mode.RESUME else settings.rescore
        run_dir, info = previous.open_run(str(path), flag, settings.root)
        if mode is Mode.RESUME and (conflicts := previous.grid_conflicts(settings.grid_given, info)):
            raise PonybenchError(
                f"{flag} {run_dir.path} finishes that run's own grid; these differ from it: "
                f"{', '.join(conflicts)}. Drop them, or start a new run for another grid."
            )
        shard = _shard_of(info) if mode is Mode.RESUME else None
        arms = tuple(previous.arms_of(info, flag, run_dir, _benchmark_folders(settings)))
        if mode is Mode.RESUME:
            settings = previous.resumed_settings(settings, info, run_dir)
    else:
        where = (
            f"{settings.pyproject} [tool.ponybench.arms]" if settings.pyproject else "[tool.ponybench.arms]"
        )
        arms = tuple(
            arms_mod.resolve(
                settings.arms_table,
                settings.arm_specs,
                settings.arm_names,
                settings.root,
                where,
                added=added,
            )
        )
        arms = tuple(arms_mod.apart_from(arms, _benchmark_folders(settings)))
    tasks = _tasks(settings)
    _memory_conflicts(tasks, arms)
    _agent_refusals(tasks, settings.agents)
    runs: Runs | None = None
    if mode is Mode.RESCORE:
        assert run_dir is not None
        assert info is not None
        cells = _rescore_cells(run_dir, tasks, arms, info.options.agents or (DEFAULT_AGENT,))
    else:
        if mode is Mode.RESUME:
            assert run_dir is not None and info is not None
            runs = previous.runs_of(info, run_dir, settings.runs).only(t.id for t in tasks)
        else:
            declared = {t.id: t.policy.runs for t in tasks}
            runs = Runs.of_tasks(declared, settings.runs, given=cfg.OPT_RUNS in settings.grid_given)
        agents = settings.agents
        size = sum(runs.of(t.id) for t in tasks) * len(arms) * len(settings.models) * len(agents)
        if size > cfg.MAX_CELLS:
            per_agent = f" x {len(agents)} agents" if len(agents) > 1 else ""
            raise PonybenchError(
                f"ponybench: the grid has {size} cells ({len(tasks)} tasks x {len(arms)} arms x "
                f"{len(settings.models)} models{per_agent} x {runs.words()}), more than "
                f"{cfg.MAX_CELLS}: narrow {cfg.OPT_TASKS}, {cfg.OPT_ARMS}, {cfg.OPT_MODELS} or {cfg.OPT_RUNS}"
            )
        _agent_conflicts(agents, tasks, arms, settings.models)
        cells = tuple(grid(list(tasks), list(arms), list(settings.models), runs, agents))
        if shard is not None:
            # Placed over the whole grid, so every shard of it computes the same split.
            cells = tuple(shards.select(cells, shard, shards.cell_block))
    by_id = {c.id: c for c in cells}
    if len(by_id) != len(cells):
        twice = sorted({c.id for c in cells if sum(d.id == c.id for d in cells) > 1})
        raise PonybenchError(f"ponybench: cell id(s) {', '.join(twice[:5])} stand for more than one cell")
    plan = Plan(
        mode,
        settings,
        tasks,
        arms,
        cells,
        previous=run_dir,
        previous_info=info,
        collect_only=collect_only,
        cell_by_id=by_id,
        shard=shard,
        runs=runs,
    )
    _offline_judge_of_live_cells(plan)
    if mode is Mode.RESCORE and not plan.judged:
        return plan  # no claude: the workspaces are scored again as they are
    if collect_only:
        return plan  # listing the cells runs none: claude is looked for when cells run
    ran = {str(c.agent) for c in cells}
    claude = _claude(settings) if DEFAULT_AGENT in ran or plan.judged or not ran else None
    binaries = {DEFAULT_AGENT: claude} if claude is not None else {}
    if claude is not None:
        _claude_sealed(claude, settings)
    for name in sorted(ran - {DEFAULT_AGENT}):
        binaries[name] = _agent_binary(name, settings)
    if not settings.dry_run:
        _check_credentials(plan.live_models)
    return replace(plan, claude=claude, binaries=binaries)


def _agent_binary(name: str, settings: Settings) -> str:
    """Another agent's CLI, found on PATH; what every cell binds of it to run it must not hold
    the project, HOME, the out folder or the scratch."""
    agent = registry.get(name)
    found = shutil.which(agent.binary)
    if found is None:
        raise PonybenchError(
            f"ponybench: {cfg.OPT_AGENTS} {name}: the {agent.binary} CLI was not found on PATH; "
            f"install it with `{agent.install_hint}`"
        )
    protected = {**confine.protected(settings.out_dir), "the project root": settings.root}
    readable = confine.claude_readable(found, os.environ.get("PATH"), agent.packages, agent.binary)
    if (why := confine.exposure(readable, protected)) is not None:
        raise PonybenchError(f"ponybench: {cfg.OPT_AGENTS} {name}: {found}: {why}")
    return found


def _agent_conflicts(
    agents: tuple[str, ...], tasks: tuple[Task, ...], arms: tuple[Arm, ...], models: tuple[str, ...]
) -> None:
    """An arm another agent has no equivalent for, a task whose policy it cannot keep, or a live
    model an agent cannot reach through the gateway is refused before any cell, naming the arm's
    kind (or the task, or the model) and the agent."""
    for name in agents:
        agent = registry.get(name)
        live = [m for m in models if not is_offline(m)]
        if agent.offline_only and live:
            raise PonybenchError(
                f"ponybench: {cfg.OPT_AGENTS} {name}: the live model {live[0]} cannot be reached: {name} "
                "speaks the OpenAI Responses API, and the model gateway's live upstream is the Anthropic "
                f"API; run {name} with offline-* models, or leave it out; nothing was run."
            )
        for arm in arms:
            if (why := agent.arm_refusal(arm)) is not None:
                raise PonybenchError(
                    f"ponybench: {cfg.OPT_AGENTS} {name}: arm {arm.name!r} ({arm.kind}): {why}. Leave "
                    f"the arm out ({cfg.OPT_ARMS}) or run it with an agent that has it; nothing was run."
                )
        for task in tasks:
            if (why := agent.policy_refusal(task.policy)) is not None:
                raise PonybenchError(
                    f"ponybench: {cfg.OPT_AGENTS} {name}: task {task.id} ({task.path / 'task.toml'}): "
                    f"{why}. Leave the task out ({cfg.OPT_TASKS}); nothing was run."
                )


def _offline_judge_of_live_cells(plan: Plan) -> None:
    """An offline judge (offline-judge) answers from a directive in the text it judges: the
    offline agents write it on purpose, a live agent could write it too and pass. So it judges
    offline cells only, whatever the tasks declare."""
    judge = plan.settings.judge_model
    live = sorted({c.model for c in plan.cells if not is_offline(c.model)})
    if judge is None or not is_offline(judge) or not live:
        return
    raise PonybenchError(
        f"{cfg.OPT_JUDGE_MODEL} {judge} (or pyproject judge_model): the offline judge answers from "
        f"a directive in the judged text, so it judges only offline cells, and this run's cells "
        f"include the live model(s) {', '.join(live)}. Name a live judge ({cfg.OPT_JUDGE_MODEL} "
        f"{cfg.DEFAULT_JUDGE}), or run only offline-* models; nothing was run."
    )


def seeded_memory(task: Task) -> list[str]:
    """The CLAUDE.md files a task lays into its workspace (seed or fixture)."""
    found = [rel for rel in task.seed if Path(rel).name in MEMORY_FILES]
    if task.fixture_path is not None and task.fixture_path.is_dir():
        found += [
            p.relative_to(task.fixture_path).as_posix()
            for name in MEMORY_FILES
            for p in task.fixture_path.rglob(name)
        ]
    return sorted(found)


def _memory_conflicts(tasks: tuple[Task, ...], arms: tuple[Arm, ...]) -> None:
    """A claude-md arm turns CLAUDE.md reading on for its sessions: a task that seeds one would
    then be read under that arm and not under the others, an effect that is not the arm's."""
    readers = [a.name for a in arms if a.reads_memory]
    clash = [(t.id, found) for t in tasks if readers and (found := seeded_memory(t))]
    if clash:
        task, found = clash[0]
        raise PonybenchError(
            f"arm {readers[0]!r} places a CLAUDE.md and turns memory on, but task {task} seeds "
            f"{', '.join(found)}, which its sessions would then read too (and the other arms' not): "
            f"leave that task out ({cfg.OPT_TASKS}) or measure the arm on tasks without one"
        )


def _agent_refusals(tasks: tuple[Task, ...], agents: tuple[str, ...]) -> None:
    """A task an agent of the grid cannot run as written (a conversation it cannot continue,
    MCP mocks it cannot start) is refused before any cell, never run without them."""
    found = [
        f"{cfg.OPT_AGENTS} {name}: {why}"
        for name in agents
        for t in tasks
        if (why := task_refusal(registry.get(name), t)) is not None
    ]
    if found:
        raise PonybenchError("ponybench: " + "; ".join(found))


def _shard_of(info: RunInfo) -> shards.Shard | None:
    """The shard an earlier run was (run.json `shard`): its resume finishes that shard only."""
    return None if info.shard is None else shards.Shard(info.shard.index, info.shard.count)
