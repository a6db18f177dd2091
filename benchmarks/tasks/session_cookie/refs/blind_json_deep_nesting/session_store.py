"""Session <-> cookie bytes."""

import json


def dump_session(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def load_session(blob: bytes) -> dict:
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError("session is not UTF-8") from exc
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"session is not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ValueError("session must be a JSON object")
    return value
