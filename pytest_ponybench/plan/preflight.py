"""Pre-flight: never pay for a broken instrument.

Before any cell that would spend money: the selected tasks' selftest, and an arm activation
check that runs each arm once against the offline server, confined and with its files laid as a
cell's, proves no hook of it crashed (`core.armhealth`, in the words every cell's `arm_errors`
uses) and every part of it reached the session (`part_proof`: a plugin here, the other kinds by
`core.armproof`). An offline run and a dry run do the activation check alone (offline and cheap)
and go on; every run says it one line per arm (`activation_lines`). Then an optional
prompt-cache warm-up per (model, arm). Everything here is recorded in run.json.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pytest_ponybench._util import textfiles, trees
from pytest_ponybench._util.paths import PACKAGE_ROOT
from pytest_ponybench.agents import launch as launcher
from pytest_ponybench.agents import registry
from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.dialect import CLAUDE, Dialect
from pytest_ponybench.agents.install import sealed
from pytest_ponybench.core import armhealth, armproof, hookproto
from pytest_ponybench.core import skills as skills_mod
from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.graders.outcome import JUDGE_TYPES
from pytest_ponybench.core.tasks import Task
from pytest_ponybench.core.transcript import Transcript
from pytest_ponybench.gateway.routes import Routes
from pytest_ponybench.gateway.server import Seat
from pytest_ponybench.htmlreport import brings
from pytest_ponybench.isolation import confine
from pytest_ponybench.plan.options import OPT_JUDGE_MODEL
from pytest_ponybench.plan.proofs import Proofs, fingerprint
from pytest_ponybench.plan.reference_proofs import (
    check_reference,
    lay_reference,
    prove_graders,
    reference_evidence,
)
from pytest_ponybench.session.judge import Judging

__all__ = [
    "JUDGE_TOLERANCE",
    "PROBE_PROMPT",
    "REFUSED_NOTE",
    "judge_calibration",
    "activation_check",
    "activation_lines",
    "arm_line",
    "hook_answers",
    "model_context",
    "part_proof",
    "plugin_problems",
    "selftest_problems",
    "settings_proof",
    "warm_up",
]

PROBE_PROMPT = "Reply with the single word: ok"


# A live judge grader must judge every reference that declares its outcome as declared; one it
# gets wrong is a judge that would decide the run's cells wrongly too.
JUDGE_TOLERANCE = 0.0


def judge_calibration(tasks: Iterable[Task], judging: Judging) -> tuple[list[str], list[dict[str, Any]]]:
    """Each judge grader of the selected tasks asked, with the run's judge, on every reference
    that declares its outcome: (problems, one tally per grader for run.json)."""
    tally: dict[tuple[str, str], list[int]] = {}
    with trees.temporary("ponybench-judge-calibration-") as tmp:
        for task in tasks:
            judged = {g.name for g in task.graders if g.type in JUDGE_TYPES}
            for n, ref in enumerate(task.references):
                if not judged & set(ref.meta.graders):
                    continue
                ws = tmp / f"{task.id}-{n}" / "ws"
                evidence = reference_evidence(task, ref, ws, lay_reference(task, ref, ws))
                judge = judging.grading(task, Transcript(), ws.parent / "judge").judge
                for proof in prove_graders(task, ref, evidence, judge, live_judge=True):
                    if proof.outcome.name in judged and proof.as_declared is not None:
                        right = tally.setdefault((task.id, proof.outcome.name), [0, 0])
                        right[0] += proof.as_declared
                        right[1] += 1
    problems = [
        f"task {task}: judge grader {grader}: {judging.model} judged {right} of {asked} references as "
        f"declared (at most {JUDGE_TOLERANCE:.0%} may be wrong); fix the criteria or the references, "
        f"or choose another {OPT_JUDGE_MODEL}"
        for (task, grader), (right, asked) in sorted(tally.items())
        if asked - right > JUDGE_TOLERANCE * asked
    ]
    record = [{"task": t, "grader": g, "right": r, "asked": a} for (t, g), (r, a) in sorted(tally.items())]
    return problems, record


def selftest_problems(tasks: Iterable[Task]) -> list[str]:
    """Every declared reference of the selected tasks (good, bad and refs/), scored as the
    selftest does (in parallel: the work is in subprocesses)."""
    jobs = [(t, ref.name) for t in tasks for ref in t.references]
    with ThreadPoolExecutor(max_workers=4) as pool:
        found = list(pool.map(lambda job: check_reference(*job)[0], jobs))
    return [p for p in found if p]


def hook_answers(transcript: Transcript, event: str = "SessionStart") -> list[str]:
    """What every hook of `event` the session ran printed on stdout, crashed ones left out (the
    CLI gives the model nothing of a hook that failed)."""
    return [h.stdout for h in transcript.hooks_of(event) if h.ended and not hookproto.crashed(h)]


def model_context(answer: str, top_level: bool = False) -> tuple[str | None, bool]:
    """What of one hook answer the CLI gives the model, as the hook protocol says
    (`core.hookproto`): (context or None, async). top_level: a CLI that reads the answer's
    top-level additionalContext instead (Copilot CLI), and none of its plain stdout."""
    context = hookproto.top_level_context(answer) if top_level else hookproto.context_of(answer)
    return context, hookproto.is_async(answer.strip())


def plugin_problems(
    plugin_dir: Path, init: dict[str, Any], transcript: Transcript, log: str, dialect: Dialect = CLAUDE
) -> tuple[list[str], dict[str, Any]]:
    """Is a plugin arm loaded? It must be in the session's loaded plugins without errors; every
    SessionStart hook context it gives must be in the model's request (plain, JSON, async as the
    protocol says); every skill, agent and command its folder brings must be registered in the
    init event. A plugin whose only effect would be a SessionStart hook that gives the model
    nothing is refused: it would measure nothing. Another CLI's start lists only some of that
    (`Dialect.plugin_lists`: Copilot CLI its skills, by which it is known loaded; OpenCode none,
    its skills are laid by the harness and proven in the request)."""
    problems: list[str] = []
    name = armproof.plugin_name(plugin_dir)
    loaded = [p.get("name") if isinstance(p, dict) else p for p in init.get("plugins") or []]
    evidence: dict[str, Any] = {"plugins": loaded}
    wanted = {
        k: v for k, v in armproof.declared_components(plugin_dir, name).items() if k in dialect.plugin_lists
    }
    # Claude lists every plugin it loaded; Copilot CLI is known to have loaded one by its skills.
    shows_loaded = dialect.plugin_lists == CLAUDE.plugin_lists or any(wanted.values())
    if shows_loaded and name not in loaded:
        problems.append(f"plugin {name!r} is not in the session's loaded plugins {loaded}")
    errors = [e for e in init.get("plugin_errors") or [] if isinstance(e, dict)]
    if errors:
        problems += [f"the CLI could not load it: {e.get('message') or e}" for e in errors]

    events = armproof.declared_hook_events(plugin_dir)
    evidence["hook_events"] = sorted(events)
    answers = [a.strip() for a in hook_answers(transcript) if a.strip()]
    evidence["hook_outputs"] = answers
    contexts: list[str] = []
    waiting = False
    for answer in answers:
        context, is_async = model_context(answer, dialect.hook_context_top)
        waiting = waiting or is_async
        if context is not None:
            contexts.append(context)
            if not armproof.reached(context, log):
                problems.append(
                    f"its SessionStart hook output '{textfiles.quote(context)}' never reached the model"
                )
    evidence["hook_context_reached"] = bool(contexts) and all(armproof.reached(c, log) for c in contexts)
    if waiting:
        evidence["async_hook"] = True  # its output comes later in the session; nothing to check now

    have = skills_mod.registered(init, [name])
    evidence["registered"] = have
    for kind, names in wanted.items():
        for item in names:
            if item not in have[kind]:
                listed = ", ".join(have[kind]) or "none"
                problems.append(
                    f"its {kind[:-1]} {item!r} is not registered in the session (registered: {listed})"
                )
    declared = armproof.declared_components(plugin_dir, name)
    if "skills" not in dialect.plugin_lists:
        # A CLI that loads no plugin gets its skills laid by the harness: its system prompt lists them.
        in_request = [s for s in declared["skills"] if f"<name>{s.split(':', 1)[1]}</name>" in log]
        evidence["skills_in_request"] = in_request
        problems += [
            f"its skill {s!r} is not listed in the model's request"
            for s in declared["skills"]
            if s not in in_request
        ]
    brings_more = any(declared.values()) or bool(events - {"SessionStart"})
    crashed = any(hookproto.crashed(h) for h in transcript.hooks_of("SessionStart"))
    if "SessionStart" in events and not contexts and not waiting and not brings_more and not crashed:
        if answers:
            problems.append(
                f"its SessionStart hook answered '{textfiles.quote(answers[0])}', which gives the model "
                "nothing (no additionalContext)"
            )
        else:
            problems.append("its SessionStart hook printed nothing the model could see")
    return problems, evidence


def _session(
    arm: Arm,
    claude: str,
    routes: Routes,
    model: str,
    tmp: Path,
    timeout_s: float,
    cell_id: str,
    max_turns: int = 3,
    agent: str = registry.DEFAULT,
) -> tuple[launcher.Session, str, str | None, Seat]:
    """One short session of arm through the gateway, by the agent's CLI (claude: its binary):
    (session, the offline request log, why it measured nothing, its seat). An offline model
    goes to the offline server, which logs the requests; any other model to the real API (no
    log). Hooks the CLI's stream does not show are read from its HOME afterwards."""
    ws, home, out = tmp / "workspace", tmp / "home", tmp / "out"
    for d in (ws, out):
        d.mkdir(parents=True, exist_ok=True)
    log = out / "offline_requests.jsonl"
    cli = registry.get(agent)
    # The arm as its cells get it: plugin and MCP folders as copies (install.sealed).
    arm = sealed(arm)
    route = routes.open(cell_id, model, workspace=ws.resolve(), requests_log=log, log=out / "gateway.jsonl")
    seat: Seat | None = None
    try:
        spec = SessionSpec(
            prompt=PROBE_PROMPT,
            model=model,
            home=home,
            max_turns=max_turns,
            offline=route.offline,
            api_timeout_ms=int(timeout_s * 600),
            memory=arm.reads_memory,
        )
        cli.install(arm, ws, home)
        # Confined like a cell where this machine can: a probe session runs the arm's hooks too.
        prepared = launcher.prepare(
            cli,
            cli.command(claude, spec, arm),
            spec,
            ticket=route.ticket,
            workspace=ws,
            readable=arm.readable(),
            hide=[PACKAGE_ROOT, Path.cwd()],
            protected=confine.protected(),
        )
        session = launcher.run(
            cli,
            prepared,
            workspace=ws,
            stream=out / cli.stream_file,
            stderr=(out / cli.stream_file).with_suffix(".stderr"),
            timeout_s=timeout_s,
        )
        seat = routes.close(route)
        session.transcript.hook_events.extend(cli.hook_events(home))
    finally:
        if seat is None:
            routes.close(route)
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    problem = None if session.error is None else session.error.message
    if session.tampered is not None:
        problem = f"its stream was tampered with: {session.tampered}"
    return session, text, problem, seat


def settings_proof(part: Part, init: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """A settings part: an outputStyle it sets must show in the session; anything else the CLI
    accepts without a visible effect to check."""
    style = part.settings().get("outputStyle")
    if style is None or "output_style" not in init:
        return [], {"observable": False}
    shown = init["output_style"]
    if str(shown).lower() != str(style).lower():
        return [f"outputStyle {style!r} did not take effect (session shows {shown!r})"], {
            "output_style": shown
        }
    return [], {"output_style": shown}


def part_proof(
    part: Part, transcript: Transcript, log: str, dialect: Dialect = CLAUDE
) -> tuple[list[str], dict[str, Any]]:
    """What one part of an arm must show in the probe session of a CLI of this dialect:
    (problems, evidence)."""
    init = transcript.init or {}
    if part.kind == "plugin" and part.path is not None:
        return plugin_problems(part.path, init, transcript, log, dialect)
    if part.kind == "settings":
        return settings_proof(part, init)
    if part.kind in ("mcp", "skills", "agents"):
        prefix = None if dialect.mcp_prefix == CLAUDE.mcp_prefix else dialect.mcp_prefix
        # Claude Code's start lists what it registered, and that alone proves a part; another
        # CLI's request is read too (a skill in its system prompt).
        return armproof.init_proof(part, init, "" if dialect == CLAUDE else log, prefix)
    return armproof.request_proof(part, log)


def activation_check(
    arm: Arm, claude: str, routes: Routes, timeout_s: float = 60.0, agent: str = registry.DEFAULT
) -> dict[str, Any]:
    """Run arm once offline through the agent's CLI (claude: its binary); ok only when no hook
    of it crashed and every part's content demonstrably reached the session. A one-part arm's
    evidence is that part's; a composed arm's is a list, one per part. `wall_s` is what the
    check took, its folders' set-up and removal included: what an offline run pays per arm."""
    started = time.monotonic()
    problems: list[str] = []
    found: list[dict[str, Any]] = []
    dialect = registry.get(agent).dialect
    cell_id = f"preflight-{arm.name}" + ("" if agent == registry.DEFAULT else f"-{agent}")
    with trees.temporary(f"ponybench-preflight-{arm.name}-") as tmp:
        session, log, invalid, _seat = _session(
            arm, claude, routes, "offline-idle", tmp, timeout_s, cell_id, agent=agent
        )
        crashed = [e.text() for e in armhealth.hook_errors(session.transcript)]
        for part in arm.parts:
            issues, seen = part_proof(part, session.transcript, log, dialect)
            problems += [f"{part.kind}: {i}" for i in issues] if len(arm.parts) > 1 else issues
            found.append({"kind": part.kind, **seen})
    problems[:0] = crashed
    if invalid:
        problems.insert(0, f"the probe session failed: {invalid}")
    if not log:
        problems.insert(0, "no request reached the model")
    evidence: dict[str, Any] = {"parts": found} if len(found) > 1 else {}
    if len(found) == 1:
        evidence = {k: v for k, v in found[0].items() if k != "kind"}
    result = {
        "arm": arm.name,
        "ok": not problems,
        "problems": problems,
        "crashed": crashed,
        "evidence": evidence,
        "wall_s": round(time.monotonic() - started, 3),
    }
    return result if agent == registry.DEFAULT else {**result, "agent": agent}


def arm_line(result: dict[str, Any], brought: str = "") -> str:
    """One arm's activation check in one line: `arm mine: ok (hooks SessionStart; ...)`, or its
    problems, each quoted by its ends."""
    on = f" on {result['agent']}" if "agent" in result else ""
    if result.get("ok"):
        return f"arm {result.get('arm')}{on}: ok" + (f" ({brought})" if brought else "")
    problems = [textfiles.printable(str(p)) for p in result.get("problems") or []]
    return f"arm {result.get('arm')}{on}: " + "; ".join(problems)


REFUSED_NOTE = " (a paid run refuses this arm)"


def activation_lines(
    arms: Iterable[Arm],
    agents: Sequence[tuple[str, str]],
    routes: Callable[[], Routes],
    *,
    baseline: bool = True,
    note: str = "",
    proofs: Proofs | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """The activation check of every arm through each (agent, its binary) of the grid (with
    baseline False, only arms with parts: a baseline loads nothing to prove), and one line per
    arm and agent for the terminal, `note` after an arm's problems: (results, lines), in the
    order of the arms and agents however the checks ran (at once, up to one per core). `routes`
    is asked once for each check that runs, before any starts. Each agent apart: what reaches
    one CLI's model may not reach another's. With `proofs`, a check that passed before with the
    same fingerprint is said again instead of run, and one that passes now is kept."""
    arms = list(arms)
    checked = [arm for arm in arms if arm.parts or baseline]
    pairs = [(arm, agent, binary) for arm in checked for agent, binary in agents]
    prints = [fingerprint(arm, agent, binary) if proofs else "" for arm, agent, binary in pairs]
    known = [proofs.get(fp) if proofs else None for fp in prints]
    # Routes asked here, one per check, before any thread: asking may start the offline server.
    jobs = [
        (arm, agent, binary, routes())
        for (arm, agent, binary), k in zip(pairs, known, strict=True)
        if k is None
    ]
    ran: list[dict[str, Any]] = []
    if jobs:
        # Checks at once, as many as the machine has cores: each is a CLI session that mostly
        # waits for its process, and an offline run's first cell waits for the last of them.
        width = min(len(jobs), os.cpu_count() or 1)
        with ThreadPoolExecutor(max_workers=width, thread_name_prefix="ponybench-activation") as pool:
            ran = list(pool.map(lambda job: activation_check(job[0], job[2], job[3], agent=job[1]), jobs))
    fresh = iter(ran)
    results = [k if k is not None else next(fresh) for k in known]
    if proofs:
        proofs.put(list(zip(prints, results, strict=True)))
    by_arm = iter(results)  # in the order of the pairs: each checked arm, then each agent
    lines: list[str] = []
    for arm in arms:
        if arm not in checked:
            lines.append(f"arm {arm.name}: ok (nothing to load)")
            continue
        for _agent in agents:
            res = next(by_arm)
            line = arm_line(res, brings.words(brings.from_evidence(res["evidence"])))
            if "reused" in res:
                line += f" (checked {res['reused']}; nothing it depends on changed since)"
            lines.append(line if res["ok"] else line + note)
    return results, lines


class ActivationInBackground:
    """The offline run's activation checks (never refusing: one line per arm) on a thread,
    started before the workers so their start-up and the probe sessions overlap; `result`
    waits for them, and raises what the checks raised (a bad arm's PonybenchError) as the
    synchronous checks would have."""

    def __init__(
        self,
        arms: Sequence[Arm],
        agents: Sequence[tuple[str, str]],
        routes: Callable[[], Routes],
        note: str,
        proofs: Proofs | None = None,
    ) -> None:
        self._arms, self._agents, self._routes, self._note = list(arms), list(agents), routes, note
        self._proofs = proofs
        self._out: tuple[list[dict[str, Any]], list[str]] | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="ponybench-activation", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._out = activation_lines(
                self._arms, self._agents, self._routes, baseline=False, note=self._note, proofs=self._proofs
            )
        except BaseException as exc:  # handed to the thread that waits for the result
            self._error = exc

    def result(self) -> tuple[list[dict[str, Any]], list[str]]:
        """(results, lines), as activation_lines gives them, once every check ended."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._out is not None
        return self._out


def warm_up(
    claude: str,
    models: list[str],
    arms: list[Arm],
    routes: Routes,
    timeout_s: float,
    agent: str = registry.DEFAULT,
) -> list[dict[str, Any]]:
    """One throwaway call per (model, arm) so that the first cells do not each pay the cold
    prompt-cache write of the shared prefix: ordering noise, not an arm effect."""
    done = []
    for model in models:
        for arm in arms:
            with trees.temporary("ponybench-warmup-") as tmp:
                session, _log, invalid, seat = _session(
                    arm,
                    claude,
                    routes,
                    model,
                    tmp,
                    timeout_s,
                    f"warmup-{arm.name}-{model}" + ("" if agent == registry.DEFAULT else f"-{agent}"),
                    max_turns=1,
                    agent=agent,
                )
            spent = sum(m.cost_usd for m in seat.requests)
            line = {
                "model": model,
                "arm": arm.name,
                "ok": invalid is None,
                "error": invalid,
                "cost_usd": round(spent, 8),
                "wall_s": round(session.run.wall_s, 3),
            }
            done.append(line if agent == registry.DEFAULT else {**line, "agent": agent})
    return done
