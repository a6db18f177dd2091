"""The importer's TOML writer: values written as TOML read back exactly; what has no TOML form is
refused."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from pytest_ponybench.cpe import tomlw


@pytest.mark.parametrize(
    "text",
    [
        "plain",
        'with "quotes" and \\backslashes\\',
        "two\nlines",
        'ends with a quote"',
        'ends with two quotes""',
        'three """ in a row and """" four',
        "tab\tand\rcarriage and \x00 nul and \x7f del",
        "windows\r\nlines\r\n",
        "unicode: ∞ é 漢字 \U0001f600",
        "\nstarts with a newline",
        "\n\n",
    ],
)
def test_strings_read_back_exactly(text: str) -> None:
    doc = {"value": text, "table": [{"inside": text}]}
    assert tomllib.loads(tomlw.dumps(doc)) == doc


def test_a_document_with_tables_arrays_and_inline_tables_reads_back() -> None:
    doc: dict[str, Any] = {
        "kind": "open",
        "runs": 3,
        "cell_timeout": 120,
        "weight": 2.5,
        "allowed": True,
        "tools": ["Read", "Bash(git diff:*)"],
        "env": {"APP_MODE": "test", "needs quoting": "x"},
        "graders": [
            {
                "name": "a",
                "steps": [
                    {"tool": "Read", "input": {"path": "file_path", "regex": "\\.py$"}},
                    {"tool": "Edit"},
                ],
            },
            {"name": "b", "criteria": 'Line one.\nLine two with "quotes".'},
        ],
    }
    text = tomlw.dumps(doc, header=["first line", "second"])
    assert text.startswith("# first line\n# second\n")
    assert tomllib.loads(text) == doc
    assert text.index("[env]") < text.index("[[graders]]")


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), object()])
def test_values_with_no_toml_form_are_refused(bad: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        tomlw.dumps({"x": bad})
