#!/usr/bin/env python3
"""A tiny MCP server over stdio, with the standard library only: an `mcp:` arm to try.

It speaks JSON-RPC 2.0, one message per line (the MCP stdio transport), and answers
`initialize`, `ping`, `tools/list` and `tools/call`. Its tools:

- `lookup {topic}`: the team's note on a topic (the notes below);
- `read_file {file}`: the first bytes of a file, or why it cannot be read. Run as an arm, the
  server is confined with the agent, so this shows what such a server can see of the machine.

    mcp.json: {"mcpServers": {"notes": {"command": "python3", "args": ["server.py"]}}}
    pytest benchmarks --arm notes=mcp:examples/notes-mcp/mcp.json
"""

from __future__ import annotations

import json
import sys
from typing import Any

NOTES = {
    "style": "PONYBENCH-MCP-NOTE: functions stay under 30 lines; names say what, not how.",
    "errors": "PONYBENCH-MCP-NOTE: raise one exception type per module; never return None for failure.",
}
TOOLS = [
    {
        "name": "lookup",
        "description": "The team's note on a topic (style, errors).",
        "inputSchema": {
            "type": "object",
            "properties": {"topic": {"type": "string", "description": "style or errors"}},
            "required": ["topic"],
        },
    },
    {
        "name": "read_file",
        "description": "The first 200 bytes of a file, or why it cannot be read.",
        "inputSchema": {
            "type": "object",
            "properties": {"file": {"type": "string", "description": "an absolute path"}},
            "required": ["file"],
        },
    },
]


def call(name: str, args: dict[str, Any]) -> tuple[str, bool]:
    """A tool's text and whether it is an error."""
    if name == "lookup":
        topic = str(args.get("topic", ""))
        return (NOTES[topic], False) if topic in NOTES else (f"no note on {topic!r}", True)
    if name == "read_file":
        try:
            with open(str(args.get("file", "")), "rb") as fh:
                return fh.read(200).decode("utf-8", "replace"), False
        except OSError as exc:
            return f"cannot read: {exc.strerror}", True
    return f"unknown tool {name!r}", True


def answer(msg: dict[str, Any]) -> dict[str, Any] | None:
    """The reply to one message; None for a notification."""
    method, params = msg.get("method"), msg.get("params") or {}
    if "id" not in msg:
        return None
    if method == "initialize":
        result: dict[str, Any] = {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "notes", "version": "1.0.0"},
        }
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        text, is_error = call(str(params.get("name")), params.get("arguments") or {})
        result = {"content": [{"type": "text", "text": text}], "isError": is_error}
    else:
        error = {"code": -32601, "message": f"no method {method}"}
        return {"jsonrpc": "2.0", "id": msg["id"], "error": error}
    return {"jsonrpc": "2.0", "id": msg["id"], "result": result}


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            reply: dict[str, Any] | None = {
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": -32700, "message": "parse error"},
            }
        else:
            reply = answer(msg) if isinstance(msg, dict) else None
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
