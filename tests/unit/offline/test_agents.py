"""The offline models are one table: every name the server plays resolves through `agents.lookup`
(fixed names, patterns with their parameter, hold suffixes), an unknown `offline-*` name gets the
error that lists the known ones, and the server's one public `answer` dispatches through it.
Plain objects and a temporary workspace; no CLI, no socket."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_ponybench.core.judge.offline import OFFLINE_JUDGE
from pytest_ponybench.offline import agents, wire
from pytest_ponybench.offline.agents import AGENTS, OFFLINE_MODELS, Memory, Turn, lookup, unserved
from pytest_ponybench.offline.script import CellScript, Session
from pytest_ponybench.offline.server import OfflineServer, Request

GOOD = {"greet.py": b"def greet(name):\n    return f'Hello, {name}!'\n"}
BAD = {"greet.py": b"def greet(name):\n    return 'Hello'\n"}
TOOLS: list[dict[str, Any]] = [{"name": n, "input_schema": {}} for n in ("Read", "Write", "Edit")]
LOOP = {"max_tokens": 32000, "tools": TOOLS, "messages": [{"role": "user", "content": "write greet"}]}
SIDE = {"max_tokens": 512, "messages": [{"role": "user", "content": "a title, please"}]}


def turn(model: str, tmp_path: Path, body: dict[str, Any], memory: Memory | None = None, **kw: Any) -> Turn:
    script = CellScript(tmp_path / "ws", GOOD, BAD)
    return Turn(model, {"model": model, **body}, "cell-1", script, memory or Memory(), **kw)


def play(model: str, tmp_path: Path, body: dict[str, Any], **kw: Any) -> agents.Answer:
    served = lookup(model)
    assert served is not None, model
    return served.agent(turn(served.name, tmp_path, body, **kw))


def written(answer: agents.Answer) -> tuple[str, bytes]:
    """The one Write call of an answer: (file name, content)."""
    assert isinstance(answer, wire.Reply) and answer.stop_reason == "tool_use", answer
    [block] = answer.content
    assert block["name"] == "Write"
    return Path(block["input"]["file_path"]).name, block["input"]["content"].encode()


def test_every_name_in_the_table_resolves_to_its_own_entry() -> None:
    assert OFFLINE_MODELS == tuple(AGENTS)
    assert len(set(OFFLINE_MODELS)) == len(OFFLINE_MODELS) >= 15
    for name in OFFLINE_MODELS:
        served = lookup(name)
        assert served is not None and served.name == name and served.hold_s is None
        assert served.agent is AGENTS[name]
        assert agents.is_offline(name) and agents.is_served(name)
    for name in ("offline-reference", "offline-flawed", "offline-hang", OFFLINE_JUDGE, "offline-coin"):
        assert name in AGENTS


def test_a_hold_suffix_resolves_to_the_same_agent_with_its_seconds() -> None:
    served = lookup("offline-flawed@2.5s")
    assert served is not None
    assert (served.name, served.hold_s) == ("offline-flawed", 2.5)
    assert served.agent is AGENTS["offline-flawed"]
    assert agents.split_hold("offline-reference@20s") == ("offline-reference", 20.0)
    assert agents.split_hold("offline-reference") == ("offline-reference", None)


def test_a_storm_resolves_with_its_length(tmp_path: Path) -> None:
    long = play("offline-overloaded-for-3600s", tmp_path, LOOP)
    assert isinstance(long, wire.ApiError)
    assert (long.status, long.kind) == (529, "overloaded_error")
    assert "3600s long" in long.message
    # Over at once: the storm plays the reference.
    assert written(play("offline-overloaded-for-0s", tmp_path, LOOP)) == ("greet.py", GOOD["greet.py"])
    held = lookup("offline-overloaded-for-4s@10s")
    assert held is not None and (held.name, held.hold_s) == ("offline-overloaded-for-4s", 10.0)
    # Side requests meet the storm too; count_tokens does not.
    assert isinstance(play("offline-overloaded-for-3600s", tmp_path, SIDE), wire.ApiError)
    counted = play("offline-overloaded-for-3600s", tmp_path, LOOP, counting=True)
    assert isinstance(counted, wire.Plain) and counted.describe == "count_tokens"


def test_a_storm_lasts_from_the_servers_first_request_for_it(tmp_path: Path) -> None:
    memory = Memory()
    served = lookup("offline-overloaded-for-3600s")
    assert served is not None
    for _ in range(3):
        assert isinstance(served.agent(turn(served.name, tmp_path, LOOP, memory)), wire.ApiError)
    assert memory.since(served.name) < 3600


@pytest.mark.parametrize("name", ["offline-nonsense", "offline-reference@", "offline-overloaded-for-xs"])
def test_an_unknown_offline_name_gets_the_error_that_lists_the_known_ones(name: str) -> None:
    assert lookup(name) is None and not agents.is_served(name)
    for body in (LOOP, SIDE):
        answer = unserved(name, {"model": name, **body})
        assert isinstance(answer, wire.ApiError)
        assert (answer.status, answer.kind) == (400, "invalid_request_error")
        assert repr(name) in answer.message
        assert answer.message.endswith("known models: " + ", ".join(OFFLINE_MODELS))


def test_a_real_model_name_gets_a_404_in_the_loop_and_ok_on_the_side() -> None:
    answer = unserved("claude-sonnet-4-5", {"model": "claude-sonnet-4-5", **LOOP})
    assert isinstance(answer, wire.ApiError) and (answer.status, answer.kind) == (404, "not_found_error")
    side = unserved("claude-haiku", {"model": "claude-haiku", **SIDE})
    assert isinstance(side, wire.Reply) and side.content == [{"type": "text", "text": "OK."}]


def test_each_entry_says_which_requests_reach_it(tmp_path: Path) -> None:
    # The writers: the good or bad file; "OK." on the side; the count for count_tokens.
    assert written(play("offline-reference", tmp_path, LOOP)) == ("greet.py", GOOD["greet.py"])
    assert written(play("offline-flawed", tmp_path, LOOP)) == ("greet.py", BAD["greet.py"])
    side = play("offline-reference", tmp_path, SIDE)
    assert isinstance(side, wire.Reply) and side.describe == "text: OK."
    assert isinstance(play("offline-reference", tmp_path, LOOP, counting=True), wire.Plain)
    # HTTP faults meet count_tokens too (the pre-flight's credential check).
    for counting in (False, True):
        fault = play("offline-error-401", tmp_path, SIDE, counting=counting)
        assert isinstance(fault, wire.ApiError) and fault.status == 401
        assert fault.message == "offline-error-401: scripted HTTP 401 (authentication_error)"
    # Stream faults break every messages request, side ones included.
    for kind in ("hang", "cut", "garbage"):
        broken = play(f"offline-{kind}", tmp_path, SIDE)
        assert isinstance(broken, wire.Fault) and broken.kind == kind
    # The judge answers its tool-less call.
    judged = play(OFFLINE_JUDGE, tmp_path, SIDE)
    assert isinstance(judged, wire.Reply) and judged.describe.startswith("text: REASON: ")


def test_overloaded_once_is_once_per_cell_id(tmp_path: Path) -> None:
    memory = Memory()
    first = play("offline-overloaded-once", tmp_path, LOOP, memory=memory)
    assert isinstance(first, wire.ApiError) and first.status == 529
    assert written(play("offline-overloaded-once", tmp_path, LOOP, memory=memory))[0] == "greet.py"


def test_the_server_answers_through_the_table_without_a_socket(tmp_path: Path) -> None:
    server = OfflineServer()  # not started: answer() needs no HTTP
    server.register("c1", CellScript(tmp_path / "ws", GOOD, BAD))

    def ask(model: str, path: str = "/cell/c1/v1/messages?beta=true") -> wire.Response | wire.Silence:
        raw = json.dumps({"model": model, **LOOP}).encode()
        return server.answer(Request("POST", path, (("x-api-key", "k"),), raw))

    unknown = ask("offline-nonsense")
    assert isinstance(unknown, wire.Response) and unknown.status == 400
    assert "known models: offline-reference" in json.loads(b"".join(unknown.parts))["error"]["message"]
    assert isinstance(ask("offline-hang@1s"), wire.Silence)
    ok = ask("offline-reference")
    assert isinstance(ok, wire.Response) and ok.status == 200 and ok.length is not None
    [call] = json.loads(b"".join(ok.parts))["content"]
    assert call["name"] == "Write" and call["id"].startswith("toolu_")
    elsewhere = ask("offline-reference", "/cell/c1/v1/elsewhere")
    assert isinstance(elsewhere, wire.Response) and elsewhere.status == 404
    ghost = ask("offline-reference", "/cell/ghost/v1/messages")
    assert isinstance(ghost, wire.Response) and ghost.status == 400
    log = server.requests("c1")
    assert [r["reply"].split(" ")[0] for r in log] == ["error", "hang", "Write", "error"]
    assert all(r["headers"] == {} and r["model"] == "offline-reference" for r in log[2:])


def offering(*names: str) -> dict[str, Any]:
    return {**LOOP, "tools": [{"name": n, "input_schema": {}} for n in names]}


def test_the_scripted_agents_write_through_each_clis_own_tools(tmp_path: Path) -> None:
    # OpenCode: write {filePath, content}.
    answer = play("offline-reference", tmp_path, offering("read", "write", "edit", "skill"))
    assert isinstance(answer, wire.Reply)
    [call] = answer.content
    assert call["name"] == "write" and set(call["input"]) == {"filePath", "content"}
    # Copilot: create {path, file_text} for a new file...
    answer = play("offline-flawed", tmp_path, offering("view", "create", "edit", "skill"))
    assert isinstance(answer, wire.Reply)
    [call] = answer.content
    assert call["name"] == "create" and call["input"]["file_text"].encode() == BAD["greet.py"]


def test_copilots_create_never_overwrites_an_existing_file(tmp_path: Path) -> None:
    """Its create refuses a file that exists: an empty file (which another CLI would Write
    over) is replaced by an edit of its whole content, once it was viewed."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "greet.py").write_bytes(b"")
    first = play("offline-reference", tmp_path, offering("view", "create", "edit"))
    assert isinstance(first, wire.Reply)
    [view] = first.content
    assert view["name"] == "view" and view["input"] == {"path": str(ws / "greet.py")}
    viewed = [
        {"role": "user", "content": "write greet"},
        {"role": "assistant", "content": [{**view, "id": "toolu_1"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": ""}]},
    ]
    answer = play("offline-reference", tmp_path, {**offering("view", "create", "edit"), "messages": viewed})
    assert isinstance(answer, wire.Reply)
    [call] = answer.content
    assert call["name"] == "edit" and call["input"]["old_str"] == ""
    assert call["input"]["new_str"].encode() == GOOD["greet.py"]


def test_a_request_without_a_known_write_tool_is_an_api_error_that_names_what_it_offered(
    tmp_path: Path,
) -> None:
    answer = play("offline-reference", tmp_path, offering("Read", "apply_diff"))
    assert isinstance(answer, wire.ApiError) and answer.status == 400
    assert answer.message.startswith(
        "ponybench offline: no tool to write greet.py with; the request offers Read, apply_diff "
    )
    assert "copilot create/edit" in answer.message


@pytest.mark.parametrize(
    ("tools", "read", "key"),
    [(("read", "write", "edit"), "read", "filePath"), (("view", "create", "edit"), "view", "path")],
)
def test_a_declared_call_is_made_in_the_clis_own_names_once(
    tmp_path: Path, tools: tuple[str, ...], read: str, key: str
) -> None:
    """A reference's declared `Read {file_path}` goes out as the CLI's own read tool and key;
    once the conversation holds it (answered with an error or not) the agent goes on, where
    before it asked for Claude Code's `Read` again on every turn of an OpenCode session."""
    ws = tmp_path / "ws"
    script = CellScript(ws, GOOD, BAD, good_session=Session(calls=(("Read", {"file_path": "greet.py"}),)))
    first = AGENTS["offline-reference"](
        Turn("offline-reference", {"model": "offline-reference", **offering(*tools)}, "c", script, Memory())
    )
    assert isinstance(first, wire.Reply)
    [call] = first.content
    assert call["name"] == read and call["input"] == {key: str(ws / "greet.py")}
    failed = [
        {"role": "user", "content": "write greet"},
        {"role": "assistant", "content": [{**call, "id": "toolu_1"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True}]},
    ]
    body = {"model": "offline-reference", **offering(*tools), "messages": failed}
    then = AGENTS["offline-reference"](Turn("offline-reference", body, "c", script, Memory()))
    assert isinstance(then, wire.Reply)
    [write] = then.content
    assert write["name"] != read  # the file is written next


def test_a_declared_call_the_cli_kept_by_another_case_of_its_name_counts_as_made(tmp_path: Path) -> None:
    """A declared `Glob` that OpenCode took as its own `glob` (and kept so in the conversation)
    was made: the agent goes on to write, never asks for it again."""
    ws = tmp_path / "ws"
    script = CellScript(ws, GOOD, BAD, good_session=Session(calls=(("Glob", {"pattern": "*.py"}),)))
    made = [
        {"role": "user", "content": "write greet"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "glob", "input": {"pattern": "*.py"}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "none"}]},
    ]
    body = {"model": "offline-reference", **offering("read", "write", "edit", "glob"), "messages": made}
    answer = AGENTS["offline-reference"](Turn("offline-reference", body, "c", script, Memory()))
    assert isinstance(answer, wire.Reply)
    [call] = answer.content
    assert call["name"] == "write"
