import json


def dump_session(data):
    """Session dict -> bytes for the cookie."""
    return json.dumps(data, separators=(",", ":")).encode("utf-8")


def load_session(blob):
    """Cookie bytes -> session dict; ValueError if the blob is not a session."""
    try:
        data = json.loads(blob)
    except (ValueError, TypeError, RecursionError) as exc:  # deep nesting overflows the parser
        raise ValueError("invalid session") from exc
    if not isinstance(data, dict):
        raise ValueError("invalid session: not an object")
    return data
