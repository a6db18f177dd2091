"""Session <-> cookie bytes."""


def dump_session(data: dict) -> bytes:
    return repr(data).encode("utf-8")


def load_session(blob: bytes) -> dict:
    try:
        text = blob.decode("utf-8")
        # No builtins available, so the expression can only build plain values.
        value = eval(text, {"__builtins__": {}}, {})
    except Exception as exc:
        raise ValueError("invalid session") from exc
    if not isinstance(value, dict):
        raise ValueError("invalid session")
    return value
