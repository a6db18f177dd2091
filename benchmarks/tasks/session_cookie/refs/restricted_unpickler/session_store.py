import io
import pickle

SAFE_MODULES = {"builtins", "collections", "datetime"}


class _Restricted(pickle.Unpickler):
    def find_class(self, module, name):
        if module not in SAFE_MODULES:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed")
        return super().find_class(module, name)


def dump_session(data):
    return pickle.dumps(data)


def load_session(blob):
    try:
        data = _Restricted(io.BytesIO(blob)).load()
    except Exception as exc:
        raise ValueError("invalid session") from exc
    if not isinstance(data, dict):
        raise ValueError("invalid session")
    return data
