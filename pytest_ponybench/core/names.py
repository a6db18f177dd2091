"""The rule every name a cell id is made of keeps: a task id, an arm name, a model name.

A cell's id (`task-arm-model-rN`) is its test id and the name of its folder in the run dir, so
each part must be short enough that the folder name stays under the file system's 255 bytes,
and can never be a path of its own (`.`, `..`, a `/`). Each kind keeps its own characters
(tasks.py, arms.py, roles/settings.py); this is what they share.
"""

from __future__ import annotations

import re

from pytest_ponybench.errors import excerpt

__all__ = ["MAX_MODEL_CHARS", "MAX_NAME_CHARS", "model_problem", "name_problem"]

MAX_NAME_CHARS = 64  # a task id or an arm name (the longest shipped task id has 29)
MAX_MODEL_CHARS = 100  # a model id (a Bedrock inference profile id is about 50)
_NOT_IN_MODEL = re.compile(r"[/\\\s\x00-\x1f\x7f]")


def name_problem(name: str, limit: int = MAX_NAME_CHARS) -> str | None:
    """Why `name` cannot be part of a cell id, in words (None: it can). The kind's own
    characters are checked by its caller."""
    if len(name) > limit:
        return f"{excerpt(name)} is {len(name)} characters long (at most {limit})"
    if name.strip(".") == "":
        return f"{excerpt(name)} is not a name ('.' and '..' name folders)"
    return None


def model_problem(name: str) -> str | None:
    """Why `name` cannot be a model of the grid (None: it can)."""
    if _NOT_IN_MODEL.search(name):
        return f"{excerpt(name)} holds a '/', a backslash, a space or a control character"
    return name_problem(name, MAX_MODEL_CHARS)
