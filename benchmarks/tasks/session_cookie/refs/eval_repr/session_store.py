def dump_session(data):
    return repr(data).encode()


def load_session(blob):
    try:
        value = eval(blob.decode())
    except Exception as exc:
        raise ValueError("not a session") from exc
    if not isinstance(value, dict):
        raise ValueError("not a session")
    return value
