"""This benchmark project's own extension point: implementations of pytest-ponybench's hooks.

`pytest_ponybench_record` adds `typed_defs` to every cell record: the share of functions in the
Python files the agent wrote or changed whose parameters and return are all annotated. Arms that
carry a style guide or a typing skill move it; the summary of a run shows it under `extra`. The
code is read with `ast`, never imported or run: it is untrusted.
"""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path
from typing import Any


def _delivered_python(cell_dir: Path) -> list[Path]:
    """Python files the agent created or changed (seeded files it left alone are not its work)."""
    workspace = cell_dir / "workspace"
    try:
        seeded: dict[str, str] = json.loads((cell_dir / "seeded.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        seeded = {}
    out = []
    for path in sorted(workspace.rglob("*.py")):
        if ".git" in path.parts or path.is_symlink() or not path.is_file():
            continue
        rel = path.relative_to(workspace).as_posix()
        if seeded.get(rel) != hashlib.sha256(path.read_bytes()).hexdigest():
            out.append(path)
    return out


def _fully_annotated(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    args = [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
    args = [a for a in args if a.arg not in ("self", "cls")]
    args += [a for a in (fn.args.vararg, fn.args.kwarg) if a is not None]
    return fn.returns is not None and all(a.annotation is not None for a in args)


def typed_share(cell_dir: Path) -> float | None:
    """Annotated functions / all functions in the delivered Python; None when there is none."""
    total = typed = 0
    for path in _delivered_python(cell_dir):
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                total += 1
                typed += _fully_annotated(node)
    return round(typed / total, 3) if total else None


def pytest_ponybench_record(cell: Any, record: dict[str, Any], cell_dir: Path) -> dict[str, Any] | None:
    return {"typed_defs": typed_share(cell_dir)}
