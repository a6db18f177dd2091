"""Pre-flight: never pay for a broken instrument.

Before any cell that would spend money: the selected tasks' selftest, and an arm activation
check that runs each arm once against the offline server and proves its content reaches the
model. Then an optional prompt-cache warm-up per (model, arm). Everything here is recorded in
run.json.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from . import agent, textfiles
from .arms import Arm
from .offline import CellScript, OfflineServer, is_offline
from .selftest import check_reference
from .tasks import Task

PROBE_PROMPT = "Reply with the single word: ok"


def selftest_problems(tasks: Iterable[Task]) -> list[str]:
    """Every reference of the selected tasks, scored as the selftest does (in parallel: the
    work is in subprocesses)."""
    jobs = [(t, which) for t in tasks if t.has_references for which in ("good", "bad")]
    with ThreadPoolExecutor(max_workers=4) as pool:
        found = list(pool.map(lambda job: check_reference(*job)[0], jobs))
    return [p for p in found if p]


def _declares_session_start(plugin_dir: Path) -> bool:
    """Whether the plugin has a SessionStart hook (hooks/hooks.json or the manifest's hooks)."""
    sources = [plugin_dir / "hooks" / "hooks.json", plugin_dir / ".claude-plugin" / "plugin.json"]
    for path in sources:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        hooks = data.get("hooks") if isinstance(data, dict) else None
        if isinstance(hooks, dict) and "SessionStart" in hooks:
            return True
    return False


def _session(
    arm: Arm,
    claude: str,
    server: OfflineServer | None,
    model: str,
    tmp: Path,
    timeout_s: float,
    cell_id: str,
    max_turns: int = 3,
) -> tuple[agent.Stream, agent.Run, str, str | None]:
    """One short session of arm: (stream, run, request log, invalid). An offline model goes to
    the server, which logs the requests; any other model to the real API (no log)."""
    ws, home, out = tmp / "workspace", tmp / "home", tmp / "out"
    for d in (ws, out):
        d.mkdir(parents=True, exist_ok=True)
    log = out / "offline_requests.jsonl"
    offline = is_offline(model)
    if offline and server is None:
        raise ValueError(f"{model} needs the offline server")
    if offline and server is not None:
        server.register(cell_id, CellScript(workspace=ws.resolve(), good={}, bad={}, log_path=log))
    try:
        cmd = agent.build_command(claude, PROBE_PROMPT, model, arm, max_turns=max_turns)
        env = agent.cell_env(
            home,
            base_url=server.cell_url(cell_id) if offline and server else None,
            offline=offline,
            api_timeout_ms=int(timeout_s * 600),
        )
        run = agent.run_claude(
            cmd,
            cwd=ws,
            env=env,
            stdout=out / "claude.jsonl",
            stderr=out / "claude.stderr",
            timeout_s=timeout_s,
        )
    finally:
        if offline and server is not None:
            server.unregister(cell_id)
    stream = agent.parse_stream(out / "claude.jsonl")
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    return stream, run, text, agent.invalid_reason(stream, run, textfiles.last_line(out / "claude.stderr"))


def activation_check(arm: Arm, claude: str, server: OfflineServer, timeout_s: float = 60.0) -> dict[str, Any]:
    """Run arm once offline; ok only when its content demonstrably reached the model."""
    problems: list[str] = []
    evidence: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix=f"ponybench-preflight-{arm.name}-") as tmp:
        stream, _run, log, invalid = _session(
            arm, claude, server, "offline-idle", Path(tmp), timeout_s, f"preflight-{arm.name}"
        )
    if invalid:
        problems.append(f"the probe session failed: {invalid}")
    if not log:
        problems.append("no request reached the model")
    if arm.kind == "plugin" and arm.plugin_dir is not None:
        manifest = json.loads((arm.plugin_dir / ".claude-plugin" / "plugin.json").read_text())
        name = str(manifest.get("name"))
        loaded = [
            p.get("name") if isinstance(p, dict) else p for p in (stream.init or {}).get("plugins") or []
        ]
        evidence["plugins"] = loaded
        if name not in loaded:
            problems.append(f"plugin {name!r} is not in the session's loaded plugins {loaded}")
        outputs = [o.strip() for o in stream.hook_outputs if o.strip()]
        evidence["hook_outputs"] = outputs
        if _declares_session_start(arm.plugin_dir):
            if not outputs:
                problems.append("its SessionStart hook printed nothing the model could see")
            for out in outputs:
                if json.dumps(out)[1:-1][:200] not in log and out[:200] not in log:
                    problems.append(f"its SessionStart hook output {out[:60]!r} never reached the model")
    elif arm.kind == "prompt" and arm.prompt:
        needle = json.dumps(arm.prompt.strip())[1:-1][:200]
        evidence["prompt_in_request"] = needle in log
        if needle not in log:
            problems.append("the appended prompt is not in the model's system prompt")
    elif arm.kind == "settings" and arm.settings:
        settings = json.loads(arm.settings)
        style = settings.get("outputStyle")
        init = stream.init or {}
        if style is not None and "output_style" in init:
            evidence["output_style"] = init["output_style"]
            if str(init["output_style"]).lower() != str(style).lower():
                problems.append(
                    f"outputStyle {style!r} did not take effect (session shows {init['output_style']!r})"
                )
        else:
            evidence["observable"] = False  # accepted by the CLI; no visible effect to check
    return {"arm": arm.name, "ok": not problems, "problems": problems, "evidence": evidence}


def warm_up(
    claude: str, models: list[str], arms: list[Arm], server: OfflineServer | None, timeout_s: float
) -> list[dict[str, Any]]:
    """One throwaway call per (model, arm) so that the first cells do not each pay the cold
    prompt-cache write of the shared prefix: ordering noise, not an arm effect."""
    done = []
    for model in models:
        for arm in arms:
            with tempfile.TemporaryDirectory(prefix="ponybench-warmup-") as tmp:
                stream, run, _log, invalid = _session(
                    arm,
                    claude,
                    server,
                    model,
                    Path(tmp),
                    timeout_s,
                    f"warmup-{arm.name}-{model}",
                    max_turns=1,
                )
            res = stream.result or {}
            done.append(
                {
                    "model": model,
                    "arm": arm.name,
                    "ok": invalid is None,
                    "error": invalid,
                    "cost_usd": res.get("total_cost_usd"),
                    "wall_s": round(run.wall_s, 3),
                }
            )
    return done
