"""A task folder's mutants.toml: the last mutation figure (`[result]`), the survivors
(`[survived]`) and the mutants its author marked equivalent (`[equivalent]`: id = "why no check
can tell it from the reference"). The selftest prints the figure."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.mutation.mutants import ID_LENGTH, TaskOutcome

__all__ = [
    "FILE_KEYS",
    "MUTANTS_FILE",
    "RESULT_KEYS",
    "MutantsFile",
    "MutantsFileError",
    "read_mutants_file",
    "render_mutants_file",
]

MUTANTS_FILE = "mutants.toml"


class MutantsFileError(PonybenchError):
    """A task's mutants.toml is malformed; the message names the file and the key."""


@dataclass
class MutantsFile:
    """What a task's mutants.toml says: the last figure and the mutants marked equivalent."""

    path: Path
    equivalent: dict[str, str] = field(default_factory=dict)
    result: dict[str, int] = field(default_factory=dict)


RESULT_KEYS = ("killed", "survived", "equivalent", "total")
FILE_KEYS = {"result", "equivalent", "survived"}


def read_mutants_file(path: Path) -> MutantsFile:
    """Parse a task's mutants.toml (a missing file is an empty one); MutantsFileError names
    the file and the key of every problem."""
    if not path.exists():
        return MutantsFile(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise MutantsFileError(f"{path}: not valid TOML: {exc}") from None
    problems: list[str] = []
    unknown = sorted(set(data) - FILE_KEYS)
    if unknown:
        problems.append(
            f"{path}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(FILE_KEYS))})"
        )
    out = MutantsFile(path)
    for table in ("equivalent", "survived", "result"):
        if table in data and not isinstance(data[table], dict):
            problems.append(f"{path}: key '{table}' must be a table")
    equivalent = data.get("equivalent", {})
    if isinstance(equivalent, dict):
        for key, reason in equivalent.items():
            if not re.fullmatch(rf"[0-9a-f]{{{ID_LENGTH}}}", key):
                problems.append(
                    f"{path}: key 'equivalent.{key}': not a mutant id ({ID_LENGTH} lowercase hex digits)"
                )
            elif not isinstance(reason, str) or not reason.strip():
                problems.append(f"{path}: key 'equivalent.{key}': the reason must be a non-empty string")
            else:
                out.equivalent[key] = reason.strip()
    result = data.get("result", {})
    if isinstance(result, dict):
        for key, value in result.items():
            if key not in RESULT_KEYS:
                problems.append(f"{path}: key 'result.{key}': unknown (known: {', '.join(RESULT_KEYS)})")
            elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
                problems.append(f"{path}: key 'result.{key}': must be a whole number >= 0, not {value!r}")
            else:
                out.result[key] = value
    if problems:
        raise MutantsFileError("\n".join(problems))
    return out


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render_mutants_file(outcome: TaskOutcome, old: MutantsFile) -> str:
    generated = {m.id: m for m in outcome.mutants}
    lines = [
        "# Mutation testing of this task's checks: written by `ponybench mutate`, except the",
        "# [equivalent] reasons, which are the task author's (a mutant id and why no check can tell",
        "# it from the reference). See README, Writing a task.",
        "",
        "[result]",
        f"killed = {outcome.killed}",
        f"survived = {len(outcome.survived)}",
        f"equivalent = {len(outcome.equivalent)}",
        f"total = {len(outcome.mutants)}",
        "",
        "[equivalent]",
    ]
    for key, reason in old.equivalent.items():
        mutant = generated.get(key)
        lines.append(f"# {mutant.describe()[:200]}" if mutant else "# stale: not made by the last run")
        lines.append(f"{key} = {_toml_string(reason)}")
    lines += ["", "[survived]"]
    for mutant in outcome.survived:
        lines.append(f"{mutant.id} = {_toml_string(mutant.describe()[:200])}")
    return "\n".join(lines) + "\n"
