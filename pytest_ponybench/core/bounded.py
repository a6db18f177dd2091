"""Agent-written values held to fixed sizes, and credentials taken out of what is kept.

Everything a session wrote (its texts, its tool inputs) is only ever matched or quoted, and is
read with these bounds whatever the agent did: a string is cut at a size, nesting at a depth.
What the record and the report keep is redacted as well.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_DEPTH", "REDACTED", "bounded_value", "cut", "parse_input", "redact"]

MAX_DEPTH = 64  # deeper nesting in a tool input is replaced by a note
REDACTED = "[redacted]"
# Values that are credentials whatever surrounds them: Anthropic keys and OAuth tokens, other
# sk- keys, AWS key ids, GitHub and Slack tokens, JWTs, private key blocks.
_SECRET_VALUE = re.compile(
    r"sk-ant-[A-Za-z0-9_\-]{8,}"
    r"|\bsk-[A-Za-z0-9]{20,}"
    r"|\bAKIA[0-9A-Z]{16}\b"
    r"|\bgh[pousr]_[A-Za-z0-9]{20,}"
    r"|\bgithub_pat_[A-Za-z0-9_]{20,}"
    r"|\bxox[abprs]-[A-Za-z0-9-]{10,}"
    r"|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)"
)
# Keys of a tool input whose value is a credential (an MCP call's `api_key`, a header).
_SECRET_KEY = re.compile(r"(?i)(api[_-]?key|secret|token|passw(or)?d|authorization|cookie|credential)")


def redact(text: str) -> str:
    """text with every credential-shaped value replaced by [redacted]."""
    return _SECRET_VALUE.sub(REDACTED, text)


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f" [... {len(text) - limit} characters cut]"


def bounded_value(value: Any, limit: int, redacting: bool, key: str = "", depth: int = 0) -> Any:
    """A JSON value with every string cut at limit (and credentials redacted when asked)."""
    if redacting and key and _SECRET_KEY.search(key) and value not in (None, "", [], {}):
        return REDACTED
    if isinstance(value, str):
        value = cut(value, limit)
        return redact(value) if redacting else value
    if isinstance(value, Mapping | list) and depth >= MAX_DEPTH:
        return f"[nested deeper than {MAX_DEPTH}]"
    if isinstance(value, Mapping):
        return {str(k): bounded_value(v, limit, redacting, str(k), depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [bounded_value(v, limit, redacting, "", depth + 1) for v in value]
    return value


def parse_input(value: Any, limit: int) -> tuple[Mapping[str, Any] | None, str]:
    """(a tool input as an object, or None; the raw text when it was not one), strings cut at
    limit. A string holding a JSON object is taken as that object: some streams carry the input
    as its text."""
    if isinstance(value, Mapping):
        return bounded_value(dict(value), limit, redacting=False), ""
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except (ValueError, RecursionError):
            return None, cut(value, limit)
        if isinstance(parsed, dict):
            return bounded_value(parsed, limit, redacting=False), ""
        return None, cut(value, limit)
    return None, cut(json.dumps(value, default=str), limit)
