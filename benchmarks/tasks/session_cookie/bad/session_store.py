import pickle


def dump_session(data):
    """Session dict -> bytes for the cookie."""
    return pickle.dumps(data)


def load_session(blob):
    """Cookie bytes -> session dict; ValueError if the blob is not a session."""
    try:
        data = pickle.loads(blob)
    except Exception as exc:
        raise ValueError("invalid session") from exc
    if not isinstance(data, dict):
        raise ValueError("invalid session: not a dict")
    return data
