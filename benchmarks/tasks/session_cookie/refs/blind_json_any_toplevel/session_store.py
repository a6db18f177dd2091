"""Session <-> cookie bytes."""

import json


def dump_session(data: dict) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode("utf-8")


def load_session(blob: bytes) -> dict:
    try:
        return json.loads(blob)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"invalid session: {exc}") from exc
