"""Python mutants of a small source, each checked to be a valid program that differs from it."""

from __future__ import annotations

import ast
from typing import Any

from pytest_ponybench import mutation


def mutants(source: str, operator: str | None = None) -> list[Any]:
    found = mutation.mutants_of("good", "m.py", source)
    for m in found:  # every mutant is a valid program that differs from the source
        assert ast.dump(ast.parse(m.source)) != ast.dump(ast.parse(source)), m
    return [m for m in found if operator is None or m.operator == operator]
