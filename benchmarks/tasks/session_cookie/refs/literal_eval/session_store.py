import ast


def dump_session(data: dict) -> bytes:
    return repr(data).encode("utf-8")


def load_session(blob: bytes) -> dict:
    try:
        value = ast.literal_eval(blob.decode("utf-8"))
    except (ValueError, SyntaxError, UnicodeDecodeError, MemoryError, RecursionError) as exc:
        raise ValueError("not a session") from exc
    if not isinstance(value, dict):
        raise ValueError("not a session")
    return value
