"""Mutation testing of a suite's checks (`ponybench mutate`): how many small bugs in a correct
solution do the hidden checks catch?

Each task's references that must pass are mutated where they add code, and every mutant is
scored with the task's hidden checks through the sandboxed scorer; a mutant is killed when it is
scored not correct or not safe. A survivor is either killed by a new or sharper check or marked
equivalent in the task's mutants.toml, which also keeps the figure the selftest prints.

One concern a module, each importing only those above it:

- `source`: a file's text and the `Edit`s made to it;
- `python`: the AST mutator of Python files;
- `javascript`: the token mutator of JavaScript files (and TypeScript ones, their types left alone);
- `mutants`: `Mutant`, its id, a file's mutants, a task's `TaskOutcome`;
- `mutantsfile`: a task folder's mutants.toml, read and written;
- `runner`: the mutants of a task scored in worker processes, `--changed-since`, the run.

The names callers use are re-exported here.
"""

from __future__ import annotations

from pytest_ponybench.mutation.javascript import JsSyntaxError, js_edits, js_shape, js_tokens
from pytest_ponybench.mutation.mutants import (
    ID_LENGTH,
    Mutant,
    TaskOutcome,
    changed_lines,
    is_javascript,
    is_mutated,
    is_test_file,
    is_typescript,
    mutant_id,
    mutants_of,
)
from pytest_ponybench.mutation.mutantsfile import (
    MUTANTS_FILE,
    MutantsFile,
    MutantsFileError,
    read_mutants_file,
    render_mutants_file,
)
from pytest_ponybench.mutation.python import edits, python_shape
from pytest_ponybench.mutation.runner import (
    DEFAULT_GOAL,
    DEFAULT_MAX_MUTANTS,
    DEFAULT_TIMEOUT_S,
    ChangedSinceError,
    Options,
    changed_tasks,
    run,
    sandbox_failed,
    task_mutants,
)
from pytest_ponybench.mutation.source import Edit, Source

__all__ = [
    "DEFAULT_GOAL",
    "DEFAULT_MAX_MUTANTS",
    "DEFAULT_TIMEOUT_S",
    "ID_LENGTH",
    "MUTANTS_FILE",
    "ChangedSinceError",
    "Edit",
    "JsSyntaxError",
    "Mutant",
    "MutantsFile",
    "MutantsFileError",
    "Options",
    "Source",
    "TaskOutcome",
    "changed_lines",
    "changed_tasks",
    "edits",
    "is_javascript",
    "is_typescript",
    "is_mutated",
    "is_test_file",
    "js_edits",
    "js_shape",
    "js_tokens",
    "mutant_id",
    "mutants_of",
    "python_shape",
    "read_mutants_file",
    "render_mutants_file",
    "run",
    "sandbox_failed",
    "task_mutants",
]
