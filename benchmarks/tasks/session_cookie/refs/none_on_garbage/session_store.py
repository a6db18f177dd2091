import json


def dump_session(data):
    return json.dumps(data).encode()


def load_session(blob):
    try:
        data = json.loads(blob)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
