"""The OpenAI Responses API (Codex's) on both sides: the offline server reads a Responses
request as the conversation its scripted agents read and writes their reply back as Responses
events; the gateway reads such an answer as it streams past (usage, tool calls by call id).
Pure functions; no CLI, no socket."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_ponybench.gateway.log import model_view
from pytest_ponybench.gateway.responses import ResponsesReading
from pytest_ponybench.offline import agents, responses, wire
from pytest_ponybench.offline.agents import Memory, Turn, lookup
from pytest_ponybench.offline.script import CellScript
from pytest_ponybench.offline.server import OfflineServer, Request

GOOD = {"greet.py": b"def greet(name):\n    return f'Hello, {name}!'\n"}
BAD = {"greet.py": b"def greet(name):\n    return 'Hello'\n"}
PATCH_TOOL: dict[str, Any] = {"type": "custom", "name": "apply_patch", "format": {"type": "grammar"}}


def request(*items: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": "offline-reference",
        "stream": True,
        "tools": [PATCH_TOOL, {"type": "function", "name": "view_image"}, {"type": "web_search"}],
        "input": [
            {
                "type": "message",
                "role": "developer",
                "content": [{"type": "input_text", "text": "Be Codex."}],
            },
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "write greet"}]},
            *items,
        ],
    }


def play(body: dict[str, Any], tmp_path: Path) -> agents.Answer:
    served = lookup("offline-reference")
    assert served is not None
    script = CellScript(tmp_path / "ws", GOOD, BAD)
    return served.agent(Turn("offline-reference", responses.as_messages(body), "c1", script, Memory()))


def test_a_request_reads_as_the_conversation_and_the_reference_answers_with_a_patch(tmp_path: Path) -> None:
    asked = responses.as_messages(request())
    assert asked["system"] == "Be Codex." and [t["name"] for t in asked["tools"]] == [
        "apply_patch",
        "view_image",
    ]
    answer = play(request(), tmp_path)
    assert isinstance(answer, wire.Reply)
    [call] = answer.content
    path = str(tmp_path / "ws" / "greet.py")
    assert call["name"] == "apply_patch" and call["input"]["path"] == path
    body = "+def greet(name):\n+    return f'Hello, {name}!'\n"
    assert call["input"]["patch"] == f"*** Begin Patch\n*** Add File: {path}\n{body}*** End Patch\n"


def test_an_existing_file_is_replaced_by_one_update_and_a_made_patch_ends_the_session(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "greet.py").write_text("old = 1\n")
    answer = play(request(), tmp_path)
    assert isinstance(answer, wire.Reply)
    patch = answer.content[0]["input"]["patch"]
    assert "*** Update File: " in patch and "\n@@\n-old = 1\n+def greet(name):\n" in patch
    done = request(
        {"type": "custom_tool_call", "call_id": "c1", "name": "apply_patch", "input": patch},
        {
            "type": "custom_tool_call_output",
            "call_id": "c1",
            "output": "Success. Updated the following files:",
        },
    )
    (tmp_path / "ws" / "greet.py").write_bytes(GOOD["greet.py"])
    end = play(done, tmp_path)
    assert isinstance(end, wire.Reply) and end.stop_reason == "end_turn"


def test_the_server_answers_a_responses_request_with_its_events(tmp_path: Path) -> None:
    server = OfflineServer()
    server.register("c1", CellScript(tmp_path / "ws", GOOD, BAD))
    raw = json.dumps(request()).encode()
    out = server.answer(Request("POST", "/cell/c1/v1/responses", (), raw))
    assert isinstance(out, wire.Response) and out.status == 200 and out.content_type == "text/event-stream"
    events = [json.loads(part.split(b"data: ", 1)[1]) for part in out.parts]
    assert [e["type"] for e in events] == [
        "response.created",
        "response.output_item.added",
        "response.custom_tool_call_input.delta",
        "response.output_item.done",
        "response.completed",
    ]
    item = events[3]["item"]
    assert item["type"] == "custom_tool_call" and item["call_id"].startswith("toolu_")
    usage = events[-1]["response"]["usage"]
    assert usage["input_tokens"] >= usage["input_tokens_details"]["cached_tokens"] >= 0
    # The gateway's reader: the call by its id, the usage with its cached share apart.
    reading = ResponsesReading("text/event-stream")
    for part in out.parts:
        reading.feed(part)
    seen = reading.finish()
    assert seen.complete and seen.stop_reason == "tool_use" and seen.tool_use_ids == [item["call_id"]]
    assert seen.usage.input_tokens + seen.usage.cache_read_tokens == usage["input_tokens"]
    # An error in OpenAI's form, a model it does not serve in the cell.
    bad = server.answer(
        Request(
            "POST", "/cell/c1/v1/responses", (), json.dumps({**request(), "model": "offline-nope"}).encode()
        )
    )
    assert isinstance(bad, wire.Response) and bad.status == 400
    assert json.loads(b"".join(bad.parts))["error"]["message"].startswith(
        "model 'offline-nope' is not served"
    )


def test_what_reached_a_codex_model_reads_from_its_items() -> None:
    line = {
        "request": {"system": None, "messages": request()["input"]},
        "response": [{"type": "custom_tool_call", "name": "apply_patch", "input": "*** Begin Patch"}],
    }
    view = model_view([line])
    assert "Be Codex." in view.input and "write greet" in view.input
    assert view.output == "apply_patch *** Begin Patch"
