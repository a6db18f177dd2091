"""The report's transcript of a cell from stream-json (hand-made lines): the prompt, the calls with
their code and results, the usage; a long text kept cut and saying how much; the prompt from the
first request's user text without the CLI's reminder."""

from __future__ import annotations

import json
from typing import Any

from pytest_ponybench.agents.dialect import CLAUDE
from pytest_ponybench.htmlreport import transcript
from tests.support import transcript_of


def _lines(*events: dict[str, Any]) -> list[str]:
    return [json.dumps(e) for e in events]


def _items(lines: list[str], prompt: str | None = None) -> list[transcript.Item]:
    return transcript.items_of(transcript_of(lines), CLAUDE, prompt)


def test_transcript_shows_prompt_calls_with_code_results_and_usage() -> None:
    items = _items(
        _lines(
            {
                "type": "system",
                "subtype": "init",
                "model": "m",
                "tools": ["Write"],
                "plugins": [{"name": "p"}],
            },
            {"type": "assistant", "message": {"content": [{"type": "text", "text": "Writing it."}]}},
            {
                "type": "assistant",
                "message": {
                    "content": [
                        {
                            "type": "tool_use",
                            "name": "Write",
                            "input": {"file_path": "/w/a.py", "content": "x = 1\n"},
                        },
                        {
                            "type": "tool_use",
                            "name": "Edit",
                            "input": {"file_path": "/w/b.py", "old_string": "y = 1", "new_string": "y = 2"},
                        },
                        {"type": "tool_use", "name": "Read", "input": {"file_path": "/w/c.py"}},
                    ]
                },
            },
            {
                "type": "user",
                "message": {"content": [{"type": "tool_result", "content": "boom", "is_error": True}]},
            },
            {
                "type": "result",
                "subtype": "success",
                "is_error": False,
                "num_turns": 2,
                "total_cost_usd": 0.5,
                "usage": {"input_tokens": 10, "output_tokens": 3},
                "result": "Done.",
            },
        )
        + ["not json {"],
        prompt="Do the thing.",
    )
    kinds = [(i["kind"], i["title"]) for i in items]
    assert kinds == [
        ("prompt", "prompt"),
        ("session", "session start"),
        ("text", "assistant"),
        ("tool", "Write"),
        ("tool", "Edit"),
        ("tool", "Read"),
        ("result", "tool result"),
        ("final", "result"),
        ("event", "not JSON"),
    ]
    write, edit, read, result, final = items[3], items[4], items[5], items[6], items[7]
    assert (write["path"], write["code"]) == ("/w/a.py", "x = 1\n")
    assert (edit["old"], edit["code"]) == ("y = 1", "y = 2")
    assert json.loads(read["text"]) == {"file_path": "/w/c.py"}
    assert result["error"] is True and result["text"] == "boom"
    assert "input_tokens 10, output_tokens 3" in final["text"] and "Done." in final["text"]
    assert "plugins: p" in items[1]["text"]


def test_a_long_text_is_kept_cut_and_says_how_much() -> None:
    big = "y" * (transcript.KEEP_CHARS + 123)
    (item,) = _items(
        _lines({"type": "user", "message": {"content": [{"type": "tool_result", "content": big}]}})
    )
    assert len(item["text"]) == transcript.KEEP_CHARS and item["cut"] == 123


def test_the_prompt_is_the_first_requests_user_text_without_the_clis_reminder() -> None:
    line = json.dumps(
        {
            "body": {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "<system-reminder>\ngit status\n</system-reminder>"},
                            {"type": "text", "text": "Add a function."},
                        ],
                    }
                ]
            }
        }
    )
    assert transcript.prompt_from_requests(line) == "Add a function."
    assert transcript.prompt_from_requests("torn {") is None
