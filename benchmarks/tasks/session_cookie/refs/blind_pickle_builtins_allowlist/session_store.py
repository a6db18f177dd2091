"""Session <-> cookie bytes."""

import io
import pickle

_SAFE_MODULES = {"builtins"}


class _RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        # Only builtin types may be referenced, never user-defined classes.
        if module in _SAFE_MODULES:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"forbidden global {module}.{name}")


def dump_session(data: dict) -> bytes:
    return pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)


def load_session(blob: bytes) -> dict:
    try:
        value = _RestrictedUnpickler(io.BytesIO(blob)).load()
    except Exception as exc:
        raise ValueError("invalid session") from exc
    if not isinstance(value, dict):
        raise ValueError("invalid session")
    return value
