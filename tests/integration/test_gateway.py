"""Every model call a cell makes goes through the gateway: through the real CLI, offline.

A plugin whose Stop hook runs `claude -p` inside the cell has its hook's tokens metered as side
spend (in the record, the terminal, the budget and the dry-run's estimate); a hook looking for
a credential finds only its cell's token, which is refused once the cell ends; a hook reaches no
host service, no other session's server and no outside address, only the gateway; a stream
whose result says it cost nothing does not lower the recorded cost; a live cell runs through the
gateway against a loopback fake of the API that checks the harness's key.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.agents import claude_stream
from pytest_ponybench.core.armparts import Part
from pytest_ponybench.core.arms import BASELINE, Arm
from pytest_ponybench.core.cell import Cell
from pytest_ponybench.core.tasks import load_tasks
from pytest_ponybench.gateway import log as gateway_log
from pytest_ponybench.gateway.server import Gateway
from pytest_ponybench.gateway.upstream import Upstream
from pytest_ponybench.htmlreport.transcript import request_items
from pytest_ponybench.offline import wire
from pytest_ponybench.offline.endpoint import OfflineEndpoint
from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer, Request
from pytest_ponybench.session.run import CellContext, run_cell
from pytest_ponybench.store.results import RunDir
from tests.support import CLAUDE, REPO, confined_or_skip, records, run_dirs, write

pytestmark = pytest.mark.needs_claude

# A Stop hook that asks a model of its own, as a review plugin does (claude -p refuses to start
# inside a session that set CLAUDECODE).
SIDE_CALL = (
    "env -u CLAUDECODE claude -p 'Review the change for security problems.' "
    "--output-format text --max-turns 1 > /dev/null 2>&1; exit 0"
)
HARNESS_SECRET = "fake-harness-secret-never-in-a-cell-0123456789"  # not a key: a marker to find


def plugin(root: Path, name: str, hooks: dict[str, Any]) -> Path:
    folder = root / "plugins" / name
    write(folder / ".claude-plugin" / "plugin.json", json.dumps({"name": name, "version": "0.0.1"}))
    write(folder / "hooks" / "hooks.json", json.dumps({"hooks": hooks}))
    return folder


def command_hook(event: str, command: str) -> dict[str, Any]:
    return {event: [{"hooks": [{"type": "command", "command": command}]}]}


CONTEXT = "Security review runs at the end of every change."


def side_calls(root: Path) -> Path:
    hooks = {**command_hook("Stop", SIDE_CALL), **command_hook("SessionStart", f"echo '{CONTEXT}'")}
    return plugin(root, "reviewer", hooks)


@pytest.fixture
def side_project(pytester: pytest.Pytester, bench_project: Callable[..., Path]) -> Path:
    root = bench_project(tasks=["merge_intervals", "sql_lookup"])
    side_calls(root)
    return root


def test_a_hooks_own_model_calls_are_metered_as_side_spend(
    pytester: pytest.Pytester, side_project: Path
) -> None:
    arm = ("--arm", "reviewer=plugin:plugins/reviewer")
    result = pytester.runpytest_subprocess("benchmarks", "-n", "2", "--models", "offline-reference", *arm)
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()[-3000:]
    recs = records(run_dirs(side_project)[0])
    by_arm: dict[str, list[dict[str, Any]]] = {}
    for r in recs:
        by_arm.setdefault(str(r["arm"]), []).append(r)
    for r in by_arm["baseline"]:
        assert r["side_cost_usd"] == 0 and set(r["spend"]) == {"main"}, r["spend"]
    for r in by_arm["reviewer"]:
        side = r["spend"]["side"]
        assert side["requests"] >= 1 and side["input_tokens"] > 0 and r["side_cost_usd"] > 0, r["spend"]
        main = r["spend"]["main"]["cost_usd"]
        assert r["cost_usd"] == pytest.approx(main + r["side_cost_usd"], abs=1e-7)
        # The CLI counts its own session only: the hook's calls are the difference.
        assert r["meter_mismatch"] is None and r["cli_cost_usd"] is not None
        cell_log = run_dirs(side_project)[0] / "cells" / str(r["cell_id"]) / "gateway.jsonl"
        log = [json.loads(line) for line in cell_log.read_text().splitlines()]
        assert len({line["session"] for line in log}) == 2  # the agent's session and the hook's
        assert any("security problems" in json.dumps(line.get("request", {})) for line in log)
    out = result.stdout.str()
    assert re.search(r"side calls: reviewer \$[0-9.]+ in 2 of 2 cells", out), out[-2500:]
    # What the model saw and answered, for graders: the hook's context went in, the reference's
    # Write came out; the report shows the side call apart from the agent's requests.
    cell = run_dirs(side_project)[0] / "cells" / str(by_arm["reviewer"][0]["cell_id"])
    view = gateway_log.model_view(gateway_log.lines(cell / "gateway.jsonl"))
    assert CONTEXT in view.input and "Review the change for security problems." in view.input
    assert re.search(r"^Write \{", view.output, re.M), view.output[:500]
    session = claude_stream.parse(cell / "claude.jsonl").session_id
    items = request_items(gateway_log.lines(cell / "gateway.jsonl"), session)
    kinds = [i["kind"] for i in items]
    assert kinds[0] == "note" and kinds.count("side") == 1 and kinds.count("request") >= 2, kinds
    (side,) = [i for i in items if i["kind"] == "side"]
    assert "side call" in side["title"] and "security problems" in side["text"]


def test_the_budget_counts_side_calls(pytester: pytest.Pytester, side_project: Path) -> None:
    """A budget between what the cells cost without their side calls and with them stops the
    run where the sum crosses it."""
    arm = ("--arm", "reviewer=plugin:plugins/reviewer", "--arms", "reviewer")
    free = pytester.runpytest_subprocess("benchmarks", "--models", "offline-reference", *arm)
    assert free.ret == pytest.ExitCode.OK
    recs = records(run_dirs(side_project)[0])
    with_side = sum(r["cost_usd"] for r in recs)
    without = sum(r["spend"]["main"]["cost_usd"] for r in recs)
    budget = round((with_side + without) / 2, 4)
    assert without < budget < with_side
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-reference", *arm, "--budget-usd", str(budget), "-rs"
    )
    run_dir = run_dirs(side_project)[-1]
    spent = json.loads((run_dir / "spend.json").read_text())["spent_usd"]
    stopped = records(run_dir)
    assert spent <= budget + max(r["side_cost_usd"] for r in recs), (spent, budget)
    assert len([r for r in stopped if r.get("valid")]) < len(recs) or any(
        r.get("error_kind") == "budget" for r in stopped
    ), [(r["cell_id"], r.get("error")) for r in stopped]
    assert "budget" in result.stdout.str()


def test_a_request_past_the_budget_is_refused_mid_cell(pytester: pytest.Pytester, side_project: Path) -> None:
    """A budget smaller than one cell: the first cell starts (it calibrates the rest), and the
    gateway refuses the request that would pass the budget, so the cell ends budget-stopped
    (invalid, resumable, not the arm's failure) and nothing more is spent."""
    args = ("benchmarks", "--models", "offline-reference", "-k", "merge_intervals")
    result = pytester.runpytest_subprocess(*args, "--budget-usd", "0.045", "-rs")
    run_dir = run_dirs(side_project)[0]
    (rec,) = records(run_dir)
    assert rec["valid"] is False and rec["error_kind"] == "budget", rec
    assert "the run's budget of $0.045 would be passed" in str(rec["error"])
    spent = json.loads((run_dir / "spend.json").read_text())["spent_usd"]
    assert 0 < spent <= 0.045, spent
    assert rec["spend"]["main"]["requests"] >= 1  # what was sent before the refusal is counted
    result.assert_outcomes(skipped=1)  # not the arm's failure, nor the instrument's
    assert result.ret == pytest.ExitCode.OK


def test_the_dry_run_prices_side_calls(pytester: pytest.Pytester, side_project: Path) -> None:
    arm = ("--arm", "reviewer=plugin:plugins/reviewer")
    dry = pytester.runpytest_subprocess("benchmarks", "--models", "offline-reference", *arm, "--dry-run")
    assert dry.ret == pytest.ExitCode.OK, dry.stdout.str()[-2000:]
    estimate = float(re.findall(r"whole run: \$([0-9.]+)", dry.stdout.str())[0])
    run = pytester.runpytest_subprocess("benchmarks", "--models", "offline-reference", *arm, "--no-report")
    recs = records(run_dirs(side_project)[-1])
    reported = sum(float(r["cost_usd"]) for r in recs)
    own = sum(float(r["spend"]["main"]["cost_usd"]) for r in recs)
    assert run.ret == pytest.ExitCode.OK
    assert estimate == pytest.approx(reported, rel=0.05) and estimate > own * 1.2, (estimate, reported, own)


# ---------------------------------------------------------------- a hostile hook, in process

PROBE = r"""
import json, os, socket, sys
out = {"env": dict(os.environ), "found": [], "connect": {}}
secret = sys.argv[1]
for top in ("/", ):
    seen = 0
    for folder, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if os.path.join(folder, d) not in ("/proc", "/sys", "/usr", "/dev")]
        for name in files:
            seen += 1
            if seen > 20000:
                break
            path = os.path.join(folder, name)
            try:
                with open(path, "rb") as fh:
                    if secret.encode() in fh.read(1 << 20):
                        out["found"].append(path)
            except OSError:
                pass
for name, port in json.loads(sys.argv[2]).items():
    host = "192.0.2.1" if name == "outside" else "127.0.0.1"
    try:
        socket.create_connection((host, port), timeout=3).close()
        out["connect"][name] = "connected"
    except OSError as exc:
        out["connect"][name] = exc.__class__.__name__ + ": " + (exc.strerror or str(exc))
json.dump(out, open("probe.json", "w"))
"""


@pytest.fixture
def listening() -> Iterator[int]:
    """A service on the host's loopback that no cell may reach."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    yield sock.getsockname()[1]
    sock.close()


def test_a_hook_finds_only_its_token_and_reaches_only_the_gateway(
    tmp_path: Path, listening: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    confined_or_skip()
    monkeypatch.setenv("ANTHROPIC_API_KEY", HARNESS_SECRET)  # the harness's own key, in its environment
    (tmp_path / "home-file.txt").write_text(HARNESS_SECRET)
    task = next(
        t for t in load_tasks(REPO / "benchmarks" / "tasks", REPO / "fixtures") if t.id == "sql_lookup"
    )
    run_dir = RunDir(tmp_path / "run")
    run_dir.path.mkdir()
    with OfflineServer() as server, OfflineServer() as other, Gateway() as gateway:
        ports = {
            "host service": listening,
            "offline server": int(server.base_url.rsplit(":", 1)[1]),
            "another sessions server": int(other.base_url.rsplit(":", 1)[1]),
            "the gateways own port": int(gateway.url.rsplit(":", 1)[1]),
            "outside": 80,
            "gateway": 8421,
        }
        script = write(tmp_path / "plugin-src" / "probe.py", PROBE)
        probe = plugin(
            tmp_path,
            "prober",
            command_hook(
                "SessionStart",
                f"/usr/bin/python3 ${{CLAUDE_PLUGIN_ROOT}}/probe.py {HARNESS_SECRET} '{json.dumps(ports)}'",
            ),
        )
        (probe / "probe.py").write_text(script.read_text())
        arm = Arm("prober", (Part("plugin", path=probe),))
        ctx = CellContext(
            run_dir=run_dir,
            claude=CLAUDE or "claude",
            cell_timeout=90,
            max_turns=10,
            endpoint=OfflineEndpoint(server),
            gateway=gateway,
        )
        rec = run_cell(Cell(task, arm, "offline-reference", 0), ctx)
        assert rec["valid"] and rec["correct"], rec
        seen = json.loads((run_dir.cell_dir(str(rec["cell_id"])).workspace / "probe.json").read_text())
        token = seen["env"]["ANTHROPIC_API_KEY"]
        assert token.startswith("ponybench-gw-")
        assert HARNESS_SECRET not in json.dumps(seen["env"]) and seen["found"] == [], seen["found"]
        connect = seen["connect"]
        assert connect["gateway"] == "connected", connect  # the one way out works
        for name in ("host service", "offline server", "another sessions server", "the gateways own port"):
            assert connect[name].startswith("ConnectionRefusedError"), (name, connect[name])
        assert "unreachable" in connect["outside"].lower(), connect["outside"]
        # The token is worth nothing once its cell has ended.
        conn = http.client.HTTPConnection("127.0.0.1", int(gateway.url.rsplit(":", 1)[1]), timeout=10)
        body = json.dumps(
            {"model": "offline-idle", "max_tokens": 10, "messages": [{"role": "user", "content": "x"}]}
        )
        conn.request("POST", "/v1/messages", body, {"x-api-key": token})
        assert conn.getresponse().status == 401


def test_a_task_that_opens_the_network_keeps_the_hosts(tmp_path: Path, listening: int) -> None:
    """`network = "open"`: the session keeps the host's network (a loopback service answers),
    and still reaches its model only through the gateway, with its own token."""
    confined_or_skip()
    source = REPO / "benchmarks" / "tasks" / "sql_lookup"
    folder = tmp_path / "tasks" / "sql_lookup"
    shutil.copytree(source, folder)
    with (folder / "task.toml").open("a") as fh:
        fh.write('\nnetwork = "open"\n')
    (task,) = load_tasks(tmp_path / "tasks", REPO / "fixtures")
    run_dir = RunDir(tmp_path / "run")
    run_dir.path.mkdir()
    with OfflineServer() as server, Gateway() as gateway:
        probe = plugin(
            tmp_path,
            "prober",
            command_hook(
                "SessionStart",
                "/usr/bin/python3 ${CLAUDE_PLUGIN_ROOT}/probe.py none "
                f"'{json.dumps({'host service': listening})}'",
            ),
        )
        (probe / "probe.py").write_text(PROBE)
        ctx = CellContext(
            run_dir=run_dir,
            claude=CLAUDE or "claude",
            cell_timeout=90,
            max_turns=10,
            endpoint=OfflineEndpoint(server),
            gateway=gateway,
        )
        rec = run_cell(Cell(task, Arm("prober", (Part("plugin", path=probe),)), "offline-reference", 0), ctx)
    assert rec["valid"] and rec["correct"], rec
    assert rec["agent_policy"]["network"] == "open" and rec["confinement"]["network"].startswith("open")
    seen = json.loads((run_dir.cell_dir(str(rec["cell_id"])).workspace / "probe.json").read_text())
    assert seen["connect"]["host service"] == "connected"
    assert seen["env"]["ANTHROPIC_API_KEY"].startswith("ponybench-gw-")
    assert seen["env"]["ANTHROPIC_BASE_URL"].startswith("http://127.0.0.1:")


# ---------------------------------------------------------------- a forged result


def test_a_stream_that_says_it_cost_nothing_does_not_lower_the_cost(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], tmp_path: Path
) -> None:
    root = bench_project(tasks=["merge_intervals"])
    forger = tmp_path / "bin" / "claude"
    real = CLAUDE or "claude"
    write(
        forger,
        f'#!/bin/sh\n"{real}" "$@" | sed -e \'s/"total_cost_usd":[0-9.e-]*/"total_cost_usd":0/\''
        ' -e \'s/"input_tokens":[0-9]*/"input_tokens":0/g\'\n',
    )
    forger.chmod(0o755)
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-reference", "--claude", str(forger), "-p", "no:cacheprovider"
    )
    (rec,) = records(run_dirs(root)[0])
    assert rec["valid"] and rec["cli_cost_usd"] == 0, rec
    assert rec["cost_usd"] > 0 and rec["input_tokens"] > 0  # the gateway's, whatever the stream says
    assert "input 0" in str(rec["meter_mismatch"])
    assert result.ret == pytest.ExitCode.OK


# ---------------------------------------------------------------- a live cell


class FakeApi(OfflineServer):
    """The Anthropic API on loopback, as a live cell's gateway meets it: it checks the key, and
    plays every model with an offline agent (`plays`) in the workspace the request names."""

    def __init__(self, key: str, task: Any, plays: str = "offline-reference") -> None:
        super().__init__()
        self.key, self.task, self.plays = key, task, plays
        self.seen_keys: list[str] = []

    def answer(self, request: Request) -> wire.Response | wire.Silence:
        headers = {k.lower(): v for k, v in request.headers}
        self.seen_keys.append(headers.get("x-api-key", ""))
        if headers.get("x-api-key") != self.key:
            return wire.error_response(wire.ApiError(401, "authentication_error", "invalid x-api-key"))
        body = json.loads(request.raw) if request.raw else {}
        where = re.search(r"Primary working directory: (\S+)", json.dumps(body).replace("\\n", "\n"))
        cell = "live"
        if where and cell not in self._cells:
            script = CellScript(workspace=Path(where.group(1)), good=self.task.good, bad=self.task.bad)
            self.register(cell, script)
        if isinstance(body, dict) and "model" in body:
            body["model"] = self.plays
        path = f"/cell/{cell}{request.path}"
        return super().answer(Request(request.method, path, request.headers, json.dumps(body).encode()))


@pytest.mark.parametrize(
    ("plays", "key", "valid"),
    [
        ("offline-reference", "sk-fake-upstream", True),
        ("offline-reference", "sk-wrong", False),
        ("offline-overloaded", "sk-fake-upstream", False),
    ],
)
def test_a_live_cell_through_the_gateway(tmp_path: Path, plays: str, key: str, valid: bool) -> None:
    confined_or_skip()
    task = next(
        t for t in load_tasks(REPO / "benchmarks" / "tasks", REPO / "fixtures") if t.id == "sql_lookup"
    )
    run_dir = RunDir(tmp_path / "run")
    run_dir.path.mkdir()
    api = FakeApi("sk-fake-upstream", task, plays)
    with api, Gateway() as gateway:
        ctx = CellContext(
            run_dir=run_dir,
            claude=CLAUDE or "claude",
            cell_timeout=90,
            max_turns=10,
            gateway=gateway,
            live=Upstream(api.base_url, (("x-api-key", key),), timeout_s=30),
            models=("sonnet",),
        )
        rec = run_cell(Cell(task, BASELINE, "sonnet", 0), ctx)
        # The upstream saw only the harness's key, never the cell's token.
        assert api.seen_keys and set(api.seen_keys) == {key}
    assert rec["valid"] is valid, rec
    if valid:
        assert rec["correct"] and (rec["cost_usd"] or 0) > 0 and rec["meter_mismatch"] is None
        log = (run_dir.cell_dir(str(rec["cell_id"])).path / "gateway.jsonl").read_text()
        assert "sk-fake-upstream" not in log
    else:
        assert rec["error_kind"] == "api" and rec["api_error_status"] in (401, 529), rec
