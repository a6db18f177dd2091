"""Pre-flight: never pay for a broken instrument.

Before any cell that would spend money: the selected tasks' selftest, and an arm activation
check that runs each arm once against the offline server, confined and with its files laid as a
cell's, and proves every part of it reached the session (`part_proof`: a plugin here, the other
kinds by `core.armproof`). Then an optional prompt-cache warm-up per (model, arm). Everything
here is recorded in run.json.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pytest_ponybench._util import textfiles
from pytest_ponybench._util.paths import PACKAGE_ROOT
from pytest_ponybench.agents import launch as launcher
from pytest_ponybench.agents import registry
from pytest_ponybench.agents.base import SessionSpec
from pytest_ponybench.agents.install import sealed
from pytest_ponybench.core import armproof
from pytest_ponybench.core import skills as skills_mod
from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.graders.outcome import JUDGE_TYPES
from pytest_ponybench.core.tasks import Task
from pytest_ponybench.core.transcript import Transcript
from pytest_ponybench.gateway.routes import Routes
from pytest_ponybench.gateway.server import Seat
from pytest_ponybench.isolation import confine
from pytest_ponybench.roles.config import OPT_JUDGE_MODEL
from pytest_ponybench.roles.reference_proofs import lay_reference, prove_graders, reference_evidence
from pytest_ponybench.roles.selftest import check_reference
from pytest_ponybench.session.judge import Judging

__all__ = [
    "JUDGE_TOLERANCE",
    "PROBE_PROMPT",
    "judge_calibration",
    "activation_check",
    "declared_components",
    "declared_hook_events",
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
    with tempfile.TemporaryDirectory(prefix="ponybench-judge-calibration-") as tmp:
        for task in tasks:
            judged = {g.name for g in task.graders if g.type in JUDGE_TYPES}
            for n, ref in enumerate(task.references):
                if not judged & set(ref.meta.graders):
                    continue
                ws = Path(tmp) / f"{task.id}-{n}" / "ws"
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


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def declared_hook_events(plugin_dir: Path) -> set[str]:
    """The events the plugin hooks (hooks/hooks.json, or the manifest's `hooks`: inline, a path,
    or a list of paths), e.g. {"SessionStart", "PreToolUse"}."""
    manifest = _json(plugin_dir / ".claude-plugin" / "plugin.json")
    sources: list[Any] = [_json(plugin_dir / "hooks" / "hooks.json")]
    given = manifest.get("hooks") if isinstance(manifest, dict) else None
    for item in given if isinstance(given, list) else [given]:
        sources.append(_json(plugin_dir / item) if isinstance(item, str) else item)
    events: set[str] = set()
    for data in sources:
        hooks = data.get("hooks") if isinstance(data, dict) and "hooks" in data else data
        if isinstance(hooks, dict):
            events.update(str(k) for k in hooks)
    return events


def _front_name(path: Path, default: str) -> str:
    """The `name:` of a Markdown file's front matter, else default."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return default
    if text.startswith("---"):
        for line in text.split("---", 2)[1].splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "name" and value.strip():
                return value.strip().strip("'\"")
    return default


def declared_components(plugin_dir: Path, plugin: str) -> dict[str, list[str]]:
    """What the plugin folder brings, as the CLI names it once registered (`plugin:name`):
    skills (skills/<dir>/SKILL.md), agents (agents/*.md), commands (commands/*.md)."""
    skills = [_front_name(f, f.parent.name) for f in sorted(plugin_dir.glob("skills/*/SKILL.md"))]
    agents = [_front_name(f, f.stem) for f in sorted(plugin_dir.glob("agents/*.md"))]
    commands = [f.stem for f in sorted(plugin_dir.glob("commands/*.md"))]
    return {
        "skills": [f"{plugin}:{n}" for n in skills],
        "agents": [f"{plugin}:{n}" for n in agents],
        "commands": [f"{plugin}:{n}" for n in commands],
    }


def hook_answers(transcript: Transcript, event: str = "SessionStart") -> list[str]:
    """What every hook of `event` the session ran printed."""
    return [h.stdout for h in transcript.hooks_of(event) if h.ended]


def model_context(answer: str) -> tuple[str | None, bool]:
    """What of one hook answer the CLI gives the model, as the hook protocol says: plain stdout
    as it is; JSON with hookSpecificOutput.additionalContext that context (the JSON itself
    never); JSON with "async": true nothing yet (the hook goes on in the background). Returns
    (context or None, async)."""
    text = answer.strip()
    if not text:
        return None, False
    try:
        data = json.loads(text)
    except ValueError:
        return text, False
    if not isinstance(data, dict):
        return text, False
    if data.get("async") is True:
        return None, True
    specific = data.get("hookSpecificOutput")
    context = specific.get("additionalContext") if isinstance(specific, dict) else None
    return (context.strip() or None, False) if isinstance(context, str) else (None, False)


def plugin_problems(
    plugin_dir: Path, init: dict[str, Any], transcript: Transcript, log: str
) -> tuple[list[str], dict[str, Any]]:
    """Is a plugin arm loaded? It must be in the session's loaded plugins without errors; every
    SessionStart hook context it gives must be in the model's request (plain, JSON, async as the
    protocol says); every skill, agent and command its folder brings must be registered in the
    init event. A plugin whose only effect would be a SessionStart hook that gives the model
    nothing is refused: it would measure nothing."""
    problems: list[str] = []
    manifest = _json(plugin_dir / ".claude-plugin" / "plugin.json")
    name = str(manifest.get("name")) if isinstance(manifest, dict) else plugin_dir.name
    loaded = [p.get("name") if isinstance(p, dict) else p for p in init.get("plugins") or []]
    evidence: dict[str, Any] = {"plugins": loaded}
    if name not in loaded:
        problems.append(f"plugin {name!r} is not in the session's loaded plugins {loaded}")
    errors = [e for e in init.get("plugin_errors") or [] if isinstance(e, dict)]
    if errors:
        problems += [f"the CLI could not load it: {e.get('message') or e}" for e in errors]

    events = declared_hook_events(plugin_dir)
    evidence["hook_events"] = sorted(events)
    answers = [a.strip() for a in hook_answers(transcript) if a.strip()]
    evidence["hook_outputs"] = answers
    contexts: list[str] = []
    waiting = False
    for answer in answers:
        context, is_async = model_context(answer)
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

    wanted = declared_components(plugin_dir, name)
    have = skills_mod.registered(init, [name])
    evidence["registered"] = have
    for kind, names in wanted.items():
        for item in names:
            if item not in have[kind]:
                listed = ", ".join(have[kind]) or "none"
                problems.append(
                    f"its {kind[:-1]} {item!r} is not registered in the session (registered: {listed})"
                )
    brings_more = any(wanted.values()) or bool(events - {"SessionStart"})
    if "SessionStart" in events and not contexts and not waiting and not brings_more:
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
) -> tuple[launcher.Session, str, str | None, Seat]:
    """One short session of arm through the gateway: (session, the offline request log, why it
    measured nothing, its seat). An offline model goes to the offline server, which logs the
    requests; any other model to the real API (no log)."""
    ws, home, out = tmp / "workspace", tmp / "home", tmp / "out"
    for d in (ws, out):
        d.mkdir(parents=True, exist_ok=True)
    log = out / "offline_requests.jsonl"
    cli = registry.get()
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
            stderr=out / "claude.stderr",
            timeout_s=timeout_s,
        )
        seat = routes.close(route)
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


def part_proof(part: Part, transcript: Transcript, log: str) -> tuple[list[str], dict[str, Any]]:
    """What one part of an arm must show in the probe session: (problems, evidence)."""
    init = transcript.init or {}
    if part.kind == "plugin" and part.path is not None:
        return plugin_problems(part.path, init, transcript, log)
    if part.kind == "settings":
        return settings_proof(part, init)
    if part.kind in ("mcp", "skills", "agents"):
        return armproof.init_proof(part, init)
    return armproof.request_proof(part, log)


def activation_check(arm: Arm, claude: str, routes: Routes, timeout_s: float = 60.0) -> dict[str, Any]:
    """Run arm once offline; ok only when every part's content demonstrably reached the session.
    A one-part arm's evidence is that part's; a composed arm's is a list, one per part."""
    problems: list[str] = []
    found: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix=f"ponybench-preflight-{arm.name}-") as tmp:
        session, log, invalid, _seat = _session(
            arm, claude, routes, "offline-idle", Path(tmp), timeout_s, f"preflight-{arm.name}"
        )
        for part in arm.parts:
            issues, seen = part_proof(part, session.transcript, log)
            problems += [f"{part.kind}: {i}" for i in issues] if len(arm.parts) > 1 else issues
            found.append({"kind": part.kind, **seen})
    if invalid:
        problems.insert(0, f"the probe session failed: {invalid}")
    if not log:
        problems.insert(0, "no request reached the model")
    evidence: dict[str, Any] = {"parts": found} if len(found) > 1 else {}
    if len(found) == 1:
        evidence = {k: v for k, v in found[0].items() if k != "kind"}
    return {"arm": arm.name, "ok": not problems, "problems": problems, "evidence": evidence}


def warm_up(
    claude: str, models: list[str], arms: list[Arm], routes: Routes, timeout_s: float
) -> list[dict[str, Any]]:
    """One throwaway call per (model, arm) so that the first cells do not each pay the cold
    prompt-cache write of the shared prefix: ordering noise, not an arm effect."""
    done = []
    for model in models:
        for arm in arms:
            with tempfile.TemporaryDirectory(prefix="ponybench-warmup-") as tmp:
                session, _log, invalid, seat = _session(
                    arm,
                    claude,
                    routes,
                    model,
                    Path(tmp),
                    timeout_s,
                    f"warmup-{arm.name}-{model}",
                    max_turns=1,
                )
            spent = sum(m.cost_usd for m in seat.requests)
            done.append(
                {
                    "model": model,
                    "arm": arm.name,
                    "ok": invalid is None,
                    "error": invalid,
                    "cost_usd": round(spent, 8),
                    "wall_s": round(session.run.wall_s, 3),
                }
            )
    return done
