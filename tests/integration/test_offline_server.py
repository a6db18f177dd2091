"""The offline model server, exercised by the real claude CLI (no mocks) and by raw HTTP."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.offline.agents import OFFLINE_MODELS, is_offline
from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer

CLAUDE = shutil.which("claude")
needs_claude = pytest.mark.needs_claude

STUB = b"def greet(name):\n    raise NotImplementedError\n"
NOTES = b"TODO: write greet\n"
GOOD = {
    "greet.py": b"def greet(name):\n    return f'Hello, {name}!'\n",
    "notes.txt": b"greet() is written.\n",
    "pkg/util.py": b"def shout(text):\n    return text.upper()\n",
}
BAD = {"greet.py": b"def greet(name):\n    return 'Hello'\n"}


@dataclass
class Run:
    returncode: int | None  # None: killed by our timeout
    events: list[dict[str, Any]]
    stderr: str
    seconds: float

    @property
    def result(self) -> dict[str, Any] | None:
        found = [e for e in self.events if e.get("type") == "result"]
        return found[-1] if found else None


@dataclass
class Cell:
    id: str
    workspace: Path
    home: Path
    script: CellScript


@pytest.fixture(scope="module")
def server() -> Iterator[OfflineServer]:
    with OfflineServer() as srv:
        yield srv


@pytest.fixture
def make_cell(server: OfflineServer, tmp_path: Path, request: pytest.FixtureRequest) -> Callable[..., Cell]:
    def make(name: str = "c", seed: dict[str, bytes] | None = None, log: bool = True) -> Cell:
        base = tmp_path / name
        workspace, home = base / "ws", base / "home"
        for rel, content in (seed or {}).items():
            (workspace / rel).parent.mkdir(parents=True, exist_ok=True)
            (workspace / rel).write_bytes(content)
        workspace.mkdir(parents=True, exist_ok=True)
        home.mkdir()
        script = CellScript(workspace, GOOD, BAD, base / "requests.jsonl" if log else None)
        cell_id = f"{request.node.name}-{name}"
        server.register(cell_id, script)
        return Cell(cell_id, workspace, home, script)

    return make


def run_claude(
    server: OfflineServer,
    cell: Cell,
    model: str,
    *extra: str,
    env: dict[str, str] | None = None,
    timeout: float = 60.0,
    cell_id: str | None = None,
) -> Run:
    """One headless session the way the harness runs it: own process group, stdout to a file."""
    assert CLAUDE is not None
    full_env = {k: v for k, v in os.environ.items() if k != "CLAUDECODE"}
    full_env.update(
        HOME=str(cell.home),
        IS_SANDBOX="1",
        ANTHROPIC_API_KEY="offline-key",
        ANTHROPIC_BASE_URL=server.cell_url(cell_id or cell.id),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        CLAUDE_CODE_DISABLE_CLAUDE_MDS="1",
        CLAUDE_CODE_DISABLE_AUTO_MEMORY="1",
        CLAUDE_CODE_MAX_RETRIES="0",
        API_TIMEOUT_MS="2000",  # bounds offline-hang; every other reply takes milliseconds
    )
    full_env.update(env or {})
    argv = [CLAUDE, "-p", "Write the code the task asks for.", "--model", model]
    argv += ["--output-format", "stream-json", "--verbose", "--permission-mode"]
    argv += ["bypassPermissions", "--setting-sources", "project,local", "--strict-mcp-config"]
    argv += ["--disallowedTools", "Bash", "--max-turns", "10", *extra]
    out_path, err_path = cell.home / "claude.jsonl", cell.home / "stderr.txt"
    start = time.monotonic()
    with out_path.open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen(
            argv,
            cwd=cell.workspace,
            env=full_env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
        try:
            code: int | None = proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            code = None
    lines = out_path.read_text().splitlines()
    events = [json.loads(line) for line in lines if line.startswith("{")]
    return Run(code, events, err_path.read_text(), time.monotonic() - start)


def post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json", "x-api-key": "k"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def replies(server: OfflineServer, cell: Cell) -> list[str]:
    return [r["reply"] for r in server.requests(cell.id)]


# ---------------------------------------------------------------- scripted agents


@needs_claude
def test_reference_writes_new_file_and_edits_seeded_stub(
    server: OfflineServer, make_cell: Callable[..., Cell]
) -> None:
    cell = make_cell(seed={"greet.py": STUB, "notes.txt": NOTES})
    run = run_claude(server, cell, "offline-reference")

    for rel, content in GOOD.items():
        assert (cell.workspace / rel).read_bytes() == content, rel
    # One turn of parallel Reads of the seeded files, then one file per turn: Edit the seeded
    # ones, Write the missing one, then report.
    ws = cell.workspace
    assert replies(server, cell) == [
        f"Read {ws}/greet.py; Read {ws}/notes.txt",
        f"Edit {ws}/greet.py",
        f"Edit {ws}/notes.txt",
        f"Write {ws}/pkg/util.py",
        "text: Done: wrote greet.py, notes.txt, pkg/util.py.",
    ]
    result = run.result
    assert result is not None and result["is_error"] is False, run.stderr
    # 5 requests, but the reply with two Reads is two assistant events (one message id), and
    # num_turns counts 6.
    assert result["num_turns"] == 6
    ids = [e["message"]["id"] for e in run.events if e.get("type") == "assistant"]
    assert len(ids) == 6 and len(set(ids)) == 5
    assert result["result"] == "Done: wrote greet.py, notes.txt, pkg/util.py."
    assert result["total_cost_usd"] > 0
    usage = result["usage"]
    for key in ("input_tokens", "output_tokens", "cache_read_input_tokens"):
        assert usage[key] > 0, key
    assert usage["cache_creation_input_tokens"] > 0
    tool_results = [
        block
        for event in run.events
        if event.get("type") == "user"
        for block in event["message"]["content"]
        if block.get("type") == "tool_result"
    ]
    assert len(tool_results) == 5 and not any(b.get("is_error") for b in tool_results)


@needs_claude
def test_flawed_writes_the_bad_reference(server: OfflineServer, make_cell: Callable[..., Cell]) -> None:
    cell = make_cell()
    run = run_claude(server, cell, "offline-flawed")
    assert run.result is not None and run.result["is_error"] is False
    assert sorted(p.name for p in cell.workspace.rglob("*")) == ["greet.py"]
    assert (cell.workspace / "greet.py").read_bytes() == BAD["greet.py"]


@needs_claude
def test_idle_answers_in_chat_and_writes_nothing(
    server: OfflineServer, make_cell: Callable[..., Cell]
) -> None:
    cell = make_cell(seed={"greet.py": STUB})
    run = run_claude(server, cell, "offline-idle")
    assert run.result is not None and run.result["is_error"] is False
    assert "```python\n" in run.result["result"]
    assert run.result["num_turns"] == 1
    assert [p.name for p in cell.workspace.rglob("*")] == ["greet.py"]
    assert (cell.workspace / "greet.py").read_bytes() == STUB


# ---------------------------------------------------------------- fault models

# Observed with claude 2.1.332, CLAUDE_CODE_MAX_RETRIES=0, API_TIMEOUT_MS=2000: every fault ends
# in a result event with subtype "success", is_error true, terminal_reason "api_error", exit 1,
# within about 0.5-1 s (hang: the API timeout plus about 0.7 s).
# - 400: the CLI resends at once with beta features stripped: 6 requests in about 0.2 s.
# - hang: "Request timed out ..."; api_error_status null; one request, no fallback.
# - cut: the CLI retries once without streaming (cut again), then "Connection to the API was
#   lost (ECONNRESET)"; api_error_status null.
# - garbage: also a non-streaming retry; "API returned an empty or malformed response (HTTP
#   200)"; stderr has "Could not parse message into JSON"; the usage of the message_start that
#   did parse is counted, so such a run reports a cost.
FAULTS = {
    # model: (api_error_status, text in the result, requests the server sees)
    "offline-error-400": (400, "API Error: 400 offline-error-400", 6),
    "offline-error-401": (401, "Failed to authenticate", 1),
    "offline-error-429": (429, "Request rejected (429)", 1),
    "offline-error-500": (500, "API Error: 500", 1),
    "offline-overloaded": (529, "API Error: 529", 1),
    "offline-overloaded-once": (529, "API Error: 529", 1),
    "offline-hang": (None, "Request timed out", 1),
    "offline-cut": (None, "Connection to the API was lost", 2),
    "offline-garbage": (None, "malformed response", 2),
}


@needs_claude
@pytest.mark.parametrize("model", list(FAULTS))
def test_fault_model_ends_in_an_error_result(
    server: OfflineServer, make_cell: Callable[..., Cell], model: str
) -> None:
    status, text, requests = FAULTS[model]
    cell = make_cell()
    run = run_claude(server, cell, model, timeout=30)

    assert run.returncode is not None, "the CLI had to be killed"
    assert run.seconds < 10
    result = run.result
    assert result is not None, run.stderr
    assert result["is_error"] is True
    assert result["terminal_reason"] == "api_error"
    assert result["api_error_status"] == status
    assert text in result["result"]
    assert len(server.requests(cell.id)) == requests
    assert list(cell.workspace.iterdir()) == []


@needs_claude
def test_overloaded_once_recovers_when_the_cli_may_retry(
    server: OfflineServer, make_cell: Callable[..., Cell]
) -> None:
    cell = make_cell()
    run = run_claude(server, cell, "offline-overloaded-once", env={"CLAUDE_CODE_MAX_RETRIES": "1"})
    retries = [e for e in run.events if e.get("subtype") == "api_retry"]
    assert [r["error_status"] for r in retries] == [529]
    assert run.result is not None and run.result["is_error"] is False
    assert (cell.workspace / "greet.py").read_bytes() == GOOD["greet.py"]
    assert replies(server, cell)[0] == "error 529 overloaded_error"


@needs_claude
def test_unregistered_cell_is_named_in_the_error(
    server: OfflineServer, make_cell: Callable[..., Cell]
) -> None:
    cell = make_cell()
    run = run_claude(server, cell, "offline-reference", cell_id="nobody-home")
    assert run.result is not None and run.result["is_error"] is True
    assert "cell 'nobody-home' is not registered" in run.result["result"]


def test_unknown_models_and_paths_get_anthropic_errors(
    server: OfflineServer, make_cell: Callable[..., Cell]
) -> None:
    cell = make_cell()
    url = server.cell_url(cell.id) + "/v1/messages"
    tools = [{"name": "Write", "input_schema": {}}]
    ask = {"max_tokens": 32000, "tools": tools, "messages": [{"role": "user", "content": "hi"}]}

    status, _, raw = post(url, {**ask, "model": "offline-nonsense"})
    error = json.loads(raw)
    assert status == 400 and error["type"] == "error"
    assert error["error"]["type"] == "invalid_request_error"
    assert "offline-nonsense" in error["error"]["message"]
    assert "offline-reference" in error["error"]["message"]

    status, _, raw = post(url, {**ask, "model": "claude-sonnet-4-5"})
    assert status == 404 and json.loads(raw)["error"]["type"] == "not_found_error"

    status, _, raw = post(server.base_url + "/v1/messages", {**ask, "model": "offline-idle"})
    assert status == 404 and "/cell/<id>/" in json.loads(raw)["error"]["message"]

    status, _, raw = post(server.cell_url("ghost") + "/v1/messages", {**ask, "model": "x"})
    assert status == 400 and "'ghost' is not registered" in json.loads(raw)["error"]["message"]

    assert is_offline("offline-hang") and not is_offline("sonnet")
    assert all(is_offline(m) for m in OFFLINE_MODELS)


# ---------------------------------------------------------------- protocol and log


def test_count_tokens_models_and_hello(server: OfflineServer, make_cell: Callable[..., Cell]) -> None:
    cell = make_cell()
    body = {"model": "offline-reference", "messages": [{"role": "user", "content": "x" * 400}]}
    status, _, raw = post(server.cell_url(cell.id) + "/v1/messages/count_tokens?beta=true", body)
    assert status == 200 and 100 <= json.loads(raw)["input_tokens"] <= 120  # about chars / 4

    with urllib.request.urlopen(server.cell_url(cell.id) + "/v1/models", timeout=10) as answer:
        assert [m["id"] for m in json.load(answer)["data"]] == list(OFFLINE_MODELS)
    hello = urllib.request.Request(server.cell_url(cell.id) + "/api/hello", method="HEAD")
    with urllib.request.urlopen(hello, timeout=10) as answer:
        assert answer.status == 200
    assert [r["method"] for r in server.requests(cell.id)] == ["POST", "GET", "HEAD"]


def test_plain_json_replies_are_deterministic(server: OfflineServer, make_cell: Callable[..., Cell]) -> None:
    cell = make_cell(log=False)
    url = server.cell_url(cell.id) + "/v1/messages"
    tools: list[dict[str, Any]] = [{"name": n, "input_schema": {}} for n in ("Read", "Edit", "Write")]
    body = {
        "model": "offline-reference",
        "max_tokens": 32000,
        "system": [{"type": "text", "text": "You are a test."}],
        "tools": tools,
        "messages": [{"role": "user", "content": "write it"}],
    }
    first, second = post(url, body), post(url, body)
    assert first[0] == 200 and first[2] == second[2]
    message = json.loads(first[2])
    assert message["type"] == "message" and message["stop_reason"] == "tool_use"
    (block,) = message["content"]
    assert block["name"] == "Write" and block["id"].startswith("toolu_")
    assert block["input"] == {
        "file_path": str(cell.workspace / "greet.py"),
        "content": GOOD["greet.py"].decode(),
    }
    usage = message["usage"]
    assert usage["cache_creation_input_tokens"] > 0 and usage["output_tokens"] > 0

    # A side request (no tools, little room) gets a short text, not a tool call.
    status, _, raw = post(url, {**body, "tools": [], "max_tokens": 50})
    assert status == 200 and json.loads(raw)["content"] == [{"type": "text", "text": "OK."}]
    assert len(server.requests(cell.id)) == 3  # kept in memory: no log_path


@needs_claude
def test_two_cells_at_once_are_told_apart(server: OfflineServer, make_cell: Callable[..., Cell]) -> None:
    good_cell, bad_cell = make_cell("good"), make_cell("bad")
    runs: dict[str, Run] = {}
    threads = [
        threading.Thread(target=lambda c=c, m=m: runs.update({m: run_claude(server, c, m)}))
        for c, m in ((good_cell, "offline-reference"), (bad_cell, "offline-flawed"))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(r.result is not None and not r.result["is_error"] for r in runs.values())
    assert (good_cell.workspace / "greet.py").read_bytes() == GOOD["greet.py"]
    assert (bad_cell.workspace / "greet.py").read_bytes() == BAD["greet.py"]
    assert {r["model"] for r in server.requests(good_cell.id)} == {"offline-reference"}
    assert {r["model"] for r in server.requests(bad_cell.id)} == {"offline-flawed"}


@needs_claude
def test_request_log_holds_the_appended_system_prompt(
    server: OfflineServer, make_cell: Callable[..., Cell]
) -> None:
    cell = make_cell()
    marker = "PONYBENCH-ARM-MARKER-7f3a"
    run = run_claude(server, cell, "offline-idle", "--append-system-prompt", marker)
    assert run.result is not None and run.result["is_error"] is False
    assert cell.script.log_path is not None
    (record,) = [json.loads(line) for line in cell.script.log_path.read_text().splitlines()]
    assert record == server.requests(cell.id)[0]
    assert record["path"] == f"/cell/{cell.id}/v1/messages?beta=true"
    assert record["model"] == "offline-idle" and record["stream"] is True
    assert marker in json.dumps(record["body"]["system"])
    assert "Write" in [t["name"] for t in record["body"]["tools"]]
    assert not {"x-api-key", "authorization"} & {h.lower() for h in record["headers"]}
    assert "offline-key" not in cell.script.log_path.read_text()


def test_stop_releases_a_hanging_request(tmp_path: Path) -> None:
    with OfflineServer() as srv:
        srv.register("hang", CellScript(tmp_path, {}, {}))
        srv.register("live", CellScript(tmp_path, {}, {}))
        body = json.dumps({"model": "offline-hang", "stream": True, "messages": []}).encode()
        port = int(srv.base_url.rsplit(":", 1)[1])
        client = socket.create_connection(("127.0.0.1", port), timeout=10)
        client.sendall(
            b"POST /cell/hang/v1/messages HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(body), body)
        )
        time.sleep(0.3)
        assert len(srv.requests("hang")) == 1  # accepted, and silent
        live = {"model": "offline-idle", "messages": [{"role": "user", "content": "hi"}]}
        assert post(srv.cell_url("live") + "/v1/messages", live)[0] == 200
        started = time.monotonic()
    assert time.monotonic() - started < 2
    assert client.recv(100) == b""  # closed without an answer
    client.close()
