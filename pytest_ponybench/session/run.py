"""Cells: the grid of (task, arm, model, run), and running one cell end to end."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_ponybench._util import textfiles
from pytest_ponybench._util.paths import PACKAGE_ROOT
from pytest_ponybench.core import skills
from pytest_ponybench.core.arms import Arm
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.isolation import confine
from pytest_ponybench.isolation.scratch import new_cell_dir
from pytest_ponybench.offline.agents import is_offline
from pytest_ponybench.offline.endpoint import session_of
from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer
from pytest_ponybench.roles.config import OPT_ALLOW_UNCONFINED
from pytest_ponybench.scoring import workspace
from pytest_ponybench.scoring.score import score_cell
from pytest_ponybench.scoring.workspace import DEFAULT_CAPS, Caps
from pytest_ponybench.session import agent, audit, integrity
from pytest_ponybench.store.results import BASE_GIT, RunDir, now_iso, write_json
from pytest_ponybench.store.slots import StartSlots


@dataclass
class CellContext:
    run_dir: RunDir
    claude: str
    cell_timeout: float
    max_turns: int
    server: OfflineServer | None = None
    max_budget_usd: float | None = None
    claude_version: str | None = None
    allow_unconfined: bool = False  # a paid model may run where confinement is impossible
    # Adds metrics to a finished record (pytest_ponybench_record implementations).
    extend: Callable[[Cell, dict[str, Any], Path], None] | None = None
    # What the agent must leave as it found it (task folders, fixtures, this package, the
    # project's conftest.py and pyproject.toml, the scorer's packages and the .pth files of
    # site-packages); checked around every cell.
    watched: integrity.Watch | None = None
    # At most one claude start-up per core at once across the run's workers (slots.py).
    slots: StartSlots | None = None
    caps: Caps = DEFAULT_CAPS


def _fresh_cell_dir(run_dir: RunDir, cell_id: str) -> tuple[Path, int]:
    """cells/<id>/ for this attempt; an earlier attempt's folder is kept as <id>~N."""
    path = run_dir.cell_dir(cell_id)
    attempt = 1
    if path.exists():
        while path.with_name(f"{cell_id}~{attempt}").exists():
            attempt += 1
        path.rename(path.with_name(f"{cell_id}~{attempt}"))
        attempt += 1
    path.mkdir(parents=True)
    return path, attempt


def _confine_check(offline: bool, ctx: CellContext) -> bool:
    """Whether this cell runs confined; refuses a paid one that cannot be, unless allowed."""
    state = confine.status()
    if not state.available and not offline and not ctx.allow_unconfined:
        raise RuntimeError(confine.refusal(["this cell's model"], False, OPT_ALLOW_UNCONFINED))
    return state.available


def _harness_paths(cell: Cell, ctx: CellContext) -> list[Path]:
    """What a confined session must not see even where it lies inside a system folder."""
    paths = [cell.task.path.parent, ctx.run_dir.path, PACKAGE_ROOT, Path.cwd()]
    return paths + ([cell.task.fixture_path] if cell.task.fixture_path else [])


def _arm_not_applied(arm: Arm, stream: agent.Stream) -> str | None:
    """A plugin the CLI could not load measured the baseline under the arm's name: invalid."""
    if arm.kind != "plugin":
        return None
    errors = [e for e in (stream.init or {}).get("plugin_errors") or [] if isinstance(e, dict)]
    if errors:
        return f"the arm's plugin was not loaded: {errors[0].get('message') or errors[0]}"
    return None


def run_cell(cell: Cell, ctx: CellContext) -> dict[str, Any]:
    """Seed, run claude, score, keep the workspace, append the record; return the record."""
    task = cell.task
    cell_dir, attempt = _fresh_cell_dir(ctx.run_dir, cell.id)
    started = now_iso()
    # The workspace lives outside any git repository (the agent must not see the harness's
    # history), in the session's private scratch, and moves into the run dir when the cell ends.
    base = ctx.watched.take(append_only=[ctx.run_dir.results]) if ctx.watched else None
    scratch = new_cell_dir()
    ws, home, base_git = scratch / "workspace", scratch / "home", scratch / BASE_GIT
    kept = True  # the workspace moves into the run dir, unless it is over the caps
    pre: confine.Prefix | None = None
    rec: dict[str, Any] = {
        "cell_id": cell.id,
        "task": task.id,
        "arm": cell.arm.name,
        "model": cell.model,
        "run": cell.run,
        "attempt": attempt,
        "arm_hash": cell.arm.content_hash(),
        "task_hash": task.content_hash(),
        "scored": task.scored,
        "claude_version": ctx.claude_version,
        "started": started,
    }
    try:
        if workspace.inside_git_repo(scratch):
            raise RuntimeError(
                f"the scratch folder {scratch} lies inside a git repository whose "
                "history the agent would see; point TMPDIR elsewhere"
            )
        seeded = workspace.lay(task, ws)
        workspace.snapshot(ws, keep=base_git)
        # The report's transcript starts with the prompt; a live stream does not carry it.
        (cell_dir / "prompt.md").write_text(task.prompt, encoding="utf-8")
        # Rescore needs to know which files were seeded, after the scratch folder is gone.
        write_json(cell_dir / "seeded.json", seeded)
        offline = is_offline(cell.model)
        base_url = None
        if offline:
            if ctx.server is None:
                raise RuntimeError("offline model requested but no offline server is running")
            ctx.server.register(
                cell.id,
                CellScript(
                    workspace=ws,
                    good=task.good,
                    bad=task.bad,
                    log_path=cell_dir / "offline_requests.jsonl",
                    good_session=session_of(task.good_meta),  # the declared tool calls and reply
                    bad_session=session_of(task.bad_meta),
                ),
            )
            base_url = ctx.server.cell_url(cell.id)
        cmd = agent.build_command(
            ctx.claude, task.prompt, cell.model, cell.arm, task.max_turns or ctx.max_turns, ctx.max_budget_usd
        )
        api_timeout_ms = int(min(ctx.cell_timeout * 0.6, 120 if offline else 600) * 1000)
        env = agent.cell_env(home, base_url=base_url, offline=offline, api_timeout_ms=api_timeout_ms)
        credentials = None if offline else agent.login_credentials(env)
        confined = _confine_check(offline, ctx)
        rec["confined"] = confined
        if confined:
            state = confine.status()
            rec["confinement"] = {
                "method": state.method,
                "userns": state.userns,
                "seccomp": state.seccomp,
                "cap_eff": state.caps.get("CapEff"),
            }
            plugin = [cell.arm.plugin_dir.resolve()] if cell.arm.plugin_dir is not None else []
            cmd, pre = confine.agent_command(
                cmd,
                workspace=ws,
                home=home,
                env=env,
                hide=_harness_paths(cell, ctx),
                readable=plugin,
                credentials=credentials,
                credentials_path=home / agent.CREDENTIALS,
            )
        elif credentials is not None:
            agent.place_credentials(home, credentials)
        slot = ctx.slots.take() if ctx.slots is not None else None
        rec["start_wait_s"] = round(slot.waited_s, 3) if slot is not None else 0.0
        t0 = time.monotonic()
        run = agent.run_claude(
            cmd,
            cwd=ws,
            env=env,
            stdout=cell_dir / "claude.jsonl",
            stderr=cell_dir / "claude.stderr",
            timeout_s=ctx.cell_timeout,
            confined=confined,
            on_started=slot.release if slot is not None else None,  # called however it ends
            pass_fds=pre.pass_fds if pre is not None else (),
        )
        stream = agent.parse_stream(cell_dir / "claude.jsonl")
        tried = audit.audit_stream(cell_dir / "claude.jsonl", ws, home)
        invalid = agent.invalid_reason(stream, run, textfiles.last_line(cell_dir / "claude.stderr"))
        if invalid is None:
            invalid = _arm_not_applied(cell.arm, stream)
        res = stream.result or {}
        usage = stream.usage
        reply = str(res.get("result") or stream.last_text or "")
        rec.update(
            {
                "valid": invalid is None,
                "error": invalid,
                "timed_out": run.timed_out,
                "exit_code": run.exit_code,
                "wall_s": round(time.monotonic() - t0, 3),
                "claude_cpu_s": None if run.cpu_s is None else round(run.cpu_s, 3),
                "cost_usd": res.get("total_cost_usd"),
                "input_tokens": usage.get("input_tokens"),
                "output_tokens": usage.get("output_tokens"),
                "cache_read_tokens": usage.get("cache_read_input_tokens"),
                "cache_write_tokens": usage.get("cache_creation_input_tokens"),
                "turns": res.get("num_turns"),
                "duration_ms": res.get("duration_ms"),
                "denials": len(res.get("permission_denials") or []),
                "reply_words": len(reply.split()),
                "peak_context_tokens": stream.peak_context_tokens,
                "subagents": stream.subagents,
                "tool_uses": stream.tool_uses,
                "result_subtype": res.get("subtype"),
                "api_error_status": res.get("api_error_status"),
                "plugins": [
                    p.get("name") if isinstance(p, dict) else p
                    for p in (stream.init or {}).get("plugins") or []
                ],
                **skills.usage(cell_dir / "claude.jsonl"),
            }
        )
        rec.update(score_cell(task, ws, seeded, reply, git_dir=base_git, caps=ctx.caps))
        kept = "refused" not in rec or not str(rec["refused"]).startswith(workspace.OVER_CAP)
        audit.apply(rec, tried)
        if run.timed_out:
            rec["reason"] = (
                f"timed out after {ctx.cell_timeout:g}s; " + str(rec.get("reason") or "")
            ).rstrip("; ")
    except Exception as exc:  # a harness fault in one cell must not lose the record
        rec.update(valid=False, error=f"harness error: {type(exc).__name__}: {exc}")
    except BaseException:  # Ctrl-C, SIGTERM: claude is already killed; record, then go on
        rec.update(valid=False, error="interrupted before the cell finished")
        raise
    finally:
        if pre is not None:
            pre.close()
        if ctx.server is not None:
            ctx.server.unregister(cell.id)
        try:
            if ws.exists() and kept:
                shutil.move(str(ws), str(cell_dir / "workspace"))
            if base_git.exists():
                shutil.move(str(base_git), str(cell_dir / BASE_GIT))
        finally:  # a full disk must not strand the workspace (or a credential) in the scratch
            shutil.rmtree(scratch, ignore_errors=True)
        if base is not None and (changes := base.changed()):
            # The instrument itself moved: nothing this cell (or any later one) says can be trusted.
            rec.update(valid=False, error=integrity.message(changes), harness_changed=changes)
        if ctx.extend is not None and rec.get("valid"):
            ctx.extend(cell, rec, cell_dir)
        rec["finished"] = now_iso()
        ctx.run_dir.append(rec)
    return rec


def rescore_cell(
    cell: Cell,
    source: RunDir,
    out: RunDir,
    extend: Callable[[Cell, dict[str, Any], Path], None] | None = None,
    caps: Caps = DEFAULT_CAPS,
) -> dict[str, Any]:
    """Score a kept workspace again with the task as it is now; no claude, nothing paid.

    The new record starts from the old one (tokens, cost and time do not change) and is
    appended to the rescore run dir; the source run dir is only read.
    """
    old: dict[str, Any] = next((r for r in reversed(source.records()) if r.get("cell_id") == cell.id), {})
    cell_dir = source.cell_dir(cell.id)
    ws = cell_dir / "workspace"
    rec: dict[str, Any] = {
        **old,
        "task_hash": cell.task.content_hash(),
        "rescored_from": str(source.path),
        "started": now_iso(),
    }
    try:
        if not ws.is_dir():
            raise FileNotFoundError(f"no kept workspace at {ws}")
        seeded_file = cell_dir / "seeded.json"
        seeded = json.loads(seeded_file.read_text()) if seeded_file.exists() else {}
        stream = agent.parse_stream(cell_dir / "claude.jsonl")
        reply = str((stream.result or {}).get("result") or stream.last_text or "")
        base_git = cell_dir / BASE_GIT  # absent in run dirs of older versions
        rec.pop("refused", None)
        rec.update(
            score_cell(
                cell.task, ws, seeded, reply, git_dir=base_git if base_git.is_dir() else None, caps=caps
            )
        )
        # Scored again, judged again: what the agent tried still counts. The workspace path is
        # the one the session ran in, from the stream's init event.
        audit.apply(rec, audit.audit_stream(cell_dir / "claude.jsonl"))
        if extend is not None:
            extend(cell, rec, cell_dir)
    except Exception as exc:
        rec.update(valid=False, error=f"rescore failed: {type(exc).__name__}: {exc}")
    finally:
        rec["finished"] = now_iso()
        out.append(rec)
    return rec
