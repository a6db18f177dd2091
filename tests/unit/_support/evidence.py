"""A claude session's stream lines made by hand (a reply, tool calls and their answers) and what
the graders read of them, through claude's adapter as a cell reads them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_ponybench.agents import claude_stream
from pytest_ponybench.core.graders.evidence import CellEvidence
from pytest_ponybench.core.graders.outcome import GradeContext
from tests.support import transcript_of

CTX = GradeContext()


def evidence_of(lines: list[str], workspace: Path | None = None) -> CellEvidence:
    """What graders read of these stream lines, through claude's adapter as a cell reads them."""
    return CellEvidence.from_transcript(transcript_of(lines), workspace)


def stream_evidence(path: Path) -> CellEvidence:
    return CellEvidence.from_transcript(claude_stream.parse(path))


def assistant(*blocks: dict[str, Any], parent: str | None = None, msg: str = "m") -> str:
    return json.dumps(
        {"type": "assistant", "parent_tool_use_id": parent, "message": {"id": msg, "content": list(blocks)}}
    )


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def use(name: str, given: Any, id_: str = "") -> dict[str, Any]:
    return {"type": "tool_use", "id": id_, "name": name, "input": given}


def result(reply: str) -> str:
    return json.dumps({"type": "result", "subtype": "success", "result": reply})


def answered(id_: str, content: str = "ok", is_error: bool = False) -> str:
    """The CLI's answer to a tool call, as the stream carries it."""
    block = {"type": "tool_result", "tool_use_id": id_, "content": content, "is_error": is_error}
    return json.dumps({"type": "user", "message": {"role": "user", "content": [block]}})


def calls(*pairs: tuple[str, Any]) -> CellEvidence:
    """A session of these calls, each answered without an error, as the CLI ran them."""
    lines: list[str] = []
    for n, (name, given) in enumerate(pairs):
        lines += [assistant(use(name, given, f"toolu_{n}")), answered(f"toolu_{n}")]
    return evidence_of(lines)


# node's crash as the CLI reports it: `output` is stdout and stderr together.
NODE_CRASH = (
    "node:internal/modules/cjs/loader:1210\n  throw err;\n  ^\n\n"
    "Error: Cannot find module '/tmp/ponybench-0/1-a/arms/plugin-b/crashing-hook/hooks/session-start.js'\n"
    "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n"
    "    at node:internal/main/run_main_module:28:49 {\n  code: 'MODULE_NOT_FOUND',\n"
    "  requireStack: []\n}\n\nNode.js v20.20.2\n"
)
