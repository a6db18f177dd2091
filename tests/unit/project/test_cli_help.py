"""The `ponybench` command's face, held still: every help text, the bare command and a few usage
errors print byte for byte what data/cli_help/outputs.json recorded, and every parser's options
(names, defaults, choices, help, metavars) equal data/cli_help/parsers.json.

Both files were written by the one-module cli.py, before it became `_cli/`
(`python -m tests.unit.project.test_cli_help` writes them again: only for a change meant to be seen).
argparse's layout differs between Python versions, so the byte-for-byte texts are compared on
the version that wrote them; the parsers' contents are compared on every version.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
from typing import Any

import pytest

from pytest_ponybench import cli
from tests.unit._support import DATA as UNIT_DATA

DATA = UNIT_DATA / "cli_help"
OUTPUTS = DATA / "outputs.json"
PARSERS = DATA / "parsers.json"
COLUMNS = "100"  # argparse wraps to the terminal: one width for the recording and the test

CASES: dict[str, list[str]] = {
    "bare": [],
    "help": ["--help"],
    **{name: [name, "--help"] for name in ("summary", "compare", "noise", "history", "report", "merge")},
    "import-cpe": ["import-cpe", "--help"],
    "import-skill-creator": ["import-skill-creator", "--help"],
    "init": ["init", "--help"],
    "task": ["task", "--help"],
    "task new": ["task", "new", "--help"],
    "mutate": ["mutate", "--help"],
    "a bad --goal": ["mutate", "--goal", "2"],
    "summary without RUN_DIR": ["summary"],
    "merge without -o": ["merge", "run"],
    "task without new": ["task"],
    "an unknown command": ["bogus"],
    "a bad --family": ["compare", "run", "--family", "arm"],
    "a bad --kind": ["task", "new", "x", "--kind", "big"],
    "a bad --window": ["history", "--window", "many"],
}


def run(argv: list[str]) -> dict[str, Any]:
    """What `ponybench ARGV` prints and returns, without touching a run dir (help and usage only)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code: int | str | None = cli.main(argv)
        except SystemExit as exc:  # argparse ends --help (0) and a usage error (2) itself
            code = exc.code
    return {"argv": argv, "code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def shape(parser: argparse.ArgumentParser) -> dict[str, Any]:
    """A parser's contents, subcommands included, as JSON: what a user can type and read."""
    actions: list[dict[str, Any]] = []
    subcommands: dict[str, Any] = {}
    for action in parser._actions:
        entry = {
            "kind": type(action).__name__,
            "options": list(action.option_strings),
            "dest": action.dest,
            "nargs": action.nargs,
            "const": action.const,
            "default": action.default,
            "choices": None,
            "required": action.required,
            "help": action.help,
            "metavar": action.metavar,
        }
        if isinstance(action, argparse._SubParsersAction):
            entry["choices"] = [[a.dest, a.help, a.metavar] for a in action._choices_actions]
            subcommands = {name: shape(sub) for name, sub in action.choices.items()}
        elif action.choices is not None:
            entry["choices"] = list(action.choices)
        actions.append(entry)
    defaults = {k: v for k, v in parser._defaults.items() if not callable(v)}
    return {
        "prog": parser.prog,
        "usage": parser.usage,
        "description": parser.description,
        "epilog": parser.epilog,
        "defaults": defaults,
        "actions": actions,
        "subcommands": subcommands,
    }


def record() -> dict[str, Any]:
    os.environ["COLUMNS"] = COLUMNS
    return {
        "python": list(sys.version_info[:2]),
        "columns": COLUMNS,
        "cases": {name: run(argv) for name, argv in CASES.items()},
    }


def test_every_help_text_and_usage_error_is_printed_as_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    recorded = json.loads(OUTPUTS.read_text(encoding="utf-8"))
    assert set(recorded["cases"]) == set(CASES)
    if tuple(recorded["python"]) != sys.version_info[:2]:
        pytest.skip(f"recorded on Python {recorded['python']}: argparse lays help out per version")
    monkeypatch.setenv("COLUMNS", recorded["columns"])
    for name, argv in CASES.items():
        assert run(argv) == recorded["cases"][name], name


def test_the_recording_says_something() -> None:
    # The recording must hold what it is meant to hold, or the comparison above proves nothing.
    cases = json.loads(OUTPUTS.read_text(encoding="utf-8"))["cases"]
    assert cases["bare"]["code"] == cli.USAGE and cases["bare"]["stderr"].startswith("usage: ponybench")
    for name in (
        "help",
        "summary",
        "compare",
        "noise",
        "history",
        "report",
        "merge",
        "import-cpe",
        "import-skill-creator",
        "init",
        "task",
    ):
        assert cases[name]["code"] == 0 and cases[name]["stdout"].startswith("usage: ponybench"), name
    assert "--fail-on RULES" in cases["compare"]["stdout"]
    assert "--window K" in cases["history"]["stdout"] and "--history FOLDER" in cases["report"]["stdout"]
    assert "--with-suite" in cases["init"]["stdout"]
    assert (
        cases["an unknown command"]["code"] == 2
        and "invalid choice: 'bogus'" in (cases["an unknown command"]["stderr"])
    )


def test_every_parser_holds_the_recorded_options() -> None:
    recorded = json.loads(PARSERS.read_text(encoding="utf-8"))
    now = json.loads(json.dumps(shape(cli.build_parser())))  # tuples as lists, as recorded
    assert now == recorded
    assert set(recorded["subcommands"]) == {
        "summary",
        "compare",
        "noise",
        "history",
        "merge",
        "report",
        "import-cpe",
        "import-skill-creator",
        "init",
        "task",
        "mutate",
    }


def test_every_subcommand_runs_its_own_function() -> None:
    parser = cli.build_parser()
    for argv, func in (
        (["summary", "r"], cli.cmd_summary),
        (["compare", "r"], cli.cmd_compare),
        (["noise", "r"], cli.cmd_noise),
        (["mutate"], cli.cmd_mutate),
        (["report", "r"], cli.cmd_report),
        (["merge", "-o", "o", "r"], cli.cmd_merge),
        (["import-cpe", "e"], cli.cmd_import_cpe),
        (["init"], cli.cmd_init),
        (["task", "new", "n"], cli.cmd_task_new),
    ):
        assert parser.parse_args(argv).func is func, argv


if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    OUTPUTS.write_text(json.dumps(record(), indent=1) + "\n", encoding="utf-8")
    PARSERS.write_text(json.dumps(shape(cli.build_parser()), indent=1) + "\n", encoding="utf-8")
