"""How `claude plugin eval` names become ponybench names, one function each.

The reader of aggregate-result.json and the suite importer both go through these, so a case
imported as a task and the same case in CPE's results carry the same task id, and a plugin the
same arm name: `ponybench compare aggregate-result.json runs/<stamp>` pairs them.
"""

from __future__ import annotations

import re

from pytest_ponybench.core.names import MAX_NAME_CHARS

__all__ = ["BASELINE", "arm_name", "tag_name", "task_id"]

BASELINE = "baseline"  # CPE's run without the plugin
_NOT_ID = re.compile(r"[^A-Za-z0-9_-]+")
_NOT_ARM = re.compile(r"[^A-Za-z0-9_.]+")
_NOT_TAG = re.compile(r"[^A-Za-z0-9_]+")


def task_id(case_name: str) -> str:
    """A task folder name for a case: letters, digits, `_` and `-`, not starting with a digit
    (`Judge: explain it` -> `Judge_explain_it`), at most 64 of them."""
    slug = _NOT_ID.sub("_", case_name.strip()).strip("_-") or "case"
    slug = slug if slug.replace("-", "_").isidentifier() else f"case_{slug}"
    return slug[:MAX_NAME_CHARS].rstrip("_-")  # a long name is cut: a clash is then named


def arm_name(plugin_names: list[str]) -> str:
    """The arm of a run with these plugins loaded: their names (`+` between several) as an arm
    name may spell them (letters, digits, `_`, `.`), at most 64 of them; never `baseline`, `.`
    or `..`."""
    joined = "_".join(_NOT_ARM.sub("_", n).strip("_") for n in plugin_names if n.strip())
    name = joined[:MAX_NAME_CHARS].rstrip("_") if joined.strip("._") else "plugin"  # never `.` or `..`
    return f"plugin_{name}" if name == BASELINE else name


def tag_name(tag: str) -> str:
    """A task tag (usable with -m): an identifier."""
    slug = _NOT_TAG.sub("_", tag.strip()).strip("_") or "tag"
    return slug if slug.isidentifier() else f"t_{slug}"
