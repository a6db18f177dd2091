"""Session <-> cookie bytes."""

import marshal


def dump_session(data: dict) -> bytes:
    # marshal is fast, compact and handles exactly the builtin types a session holds.
    return marshal.dumps(data)


def load_session(blob: bytes) -> dict:
    try:
        value = marshal.loads(blob)
    except (EOFError, ValueError, TypeError) as exc:
        raise ValueError("invalid session") from exc
    if not isinstance(value, dict):
        raise ValueError("invalid session")
    return value
