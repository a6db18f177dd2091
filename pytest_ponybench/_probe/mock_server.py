"""A task's MCP mocks as one stdio MCP server: run inside the cell, from a read-only copy.

    python -I -S mock_server.py SPEC.json

SPEC.json (written by the harness, `core.mocks.Mocks.spec`) names the server, its tools (name,
description, input schema) and each tool's responder; the answer to a call is
`mockanswer.answer` (a copy of `_util/mockanswer.py` in this file's folder: the one
implementation the harness proves graders with). `{{file:...}}` reads come from the server's
own folder of mocks in the copy, never from elsewhere.

It speaks JSON-RPC 2.0, one message per line (the MCP stdio transport): `initialize`, `ping`,
`tools/list`, `tools/call`; a notification gets no answer. A call of a tool it does not mock is a
tool error, as the CLI's own stand-ins answer it. Standard library only, nothing of the package.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from types import ModuleType
from typing import Any

PROTOCOL = "2025-06-18"
MAX_FILE_BYTES = 1024 * 1024  # a {{file:...}} larger than this is refused, as the CLI does
MAX_ANSWER_CHARS = 16_384  # an answer is cut here, as the CLI's stand-ins cut theirs


def _answerer() -> ModuleType:
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("mockanswer", os.path.join(here, "mockanswer.py"))
    if spec is None or spec.loader is None:
        raise SystemExit("mock_server: mockanswer.py is not beside it")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _reader(folder: str) -> Any:
    def read(name: str) -> str | None:
        path = os.path.realpath(os.path.join(folder, name))
        if not path.startswith(os.path.realpath(folder) + os.sep) or not os.path.isfile(path):
            return None
        if os.path.getsize(path) > MAX_FILE_BYTES:
            return None
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()

    return read


def _call(spec: dict[str, Any], params: dict[str, Any], answerer: ModuleType, read: Any) -> dict[str, Any]:
    name = str(params.get("name", ""))
    arguments = params.get("arguments")
    arguments = arguments if isinstance(arguments, dict) else {}
    responder = spec["responders"].get(name)
    if responder is None:
        verdict, text = "tool_error", f"no mock for {spec['server']}/{name}"
    else:
        verdict, text = answerer.answer(responder, arguments, read)
    if len(text) > MAX_ANSWER_CHARS:
        text = text[:MAX_ANSWER_CHARS] + "...[truncated]"
    if verdict == "abort":
        text = f"{answerer.ABORTED}: {spec['server']}/{name} -- {text}"
    return {"content": [{"type": "text", "text": text}], "isError": verdict != "ok"}


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as fh:
        spec = json.load(fh)
    answerer = _answerer()
    read = _reader(os.path.join(os.path.dirname(os.path.abspath(argv[1])), "mocks", spec["server"]))
    tools = [
        {"name": t["name"], "description": t.get("description", ""), "inputSchema": t["inputSchema"]}
        for t in spec["tools"]
    ]
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or "id" not in message:
            continue  # a notification (initialized, cancelled): nothing to answer
        method, params = message.get("method"), message.get("params") or {}
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        if method == "initialize":
            asked = params.get("protocolVersion") if isinstance(params, dict) else None
            reply["result"] = {
                "protocolVersion": asked if isinstance(asked, str) else PROTOCOL,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": f"ponybench-mock/{spec['server']}", "version": "1"},
            }
        elif method == "ping":
            reply["result"] = {}
        elif method == "tools/list":
            reply["result"] = {"tools": tools}
        elif method == "tools/call" and isinstance(params, dict):
            reply["result"] = _call(spec, params, answerer, read)
        else:
            reply["error"] = {"code": -32601, "message": f"method not found: {method}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
