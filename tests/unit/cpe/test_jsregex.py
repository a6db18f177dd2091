"""The importer's JavaScript regexes in Python's form: what they find, what has no Python form,
the flags that change nothing. (Its other translator, values to TOML, is test_tomlw's.)"""

from __future__ import annotations

import re

import pytest

from pytest_ponybench.cpe.jsregex import translate


def _search(pattern: str, js_flags: str, text: str) -> bool:
    done = translate(pattern, js_flags)
    assert done.pattern is not None, done.why
    flags = 0
    for f, bit in (("i", re.I), ("m", re.M), ("s", re.S)):
        if f in done.flags:
            flags |= bit
    return re.search(done.pattern, text, flags) is not None


# Each row: a JS pattern, its flags, a text, and whether JavaScript's RegExp.test finds it.
JS_BEHAVIOUR = [
    ("^Done", "", "Done: wrote it.", True),
    ("^done", "i", "Done: wrote it.", True),
    ("done$", "", "it is done\n", False),  # JS $ is the very end without m; Python's $ is not
    ("done$", "", "it is done", True),
    ("done$", "m", "it is done\nnext", True),
    ("a.b", "", "a\nb", False),
    ("a.b", "s", "a\nb", True),
    ("(?<word>ab)\\k<word>", "", "xxababyy", True),
    ("(?<word>ab)\\k<word>", "", "xxabacyy", False),
    ("[^]", "", "\n", True),  # any character, a newline included
    ("x[]", "", "x", False),  # an empty class matches nothing
    ("[[a]", "", "[", True),
    ("\\u{1F600}", "u", "smile \U0001f600", True),
    ("a\\/b", "", "a/b", True),
    ("(?<=ab)c", "", "abc", True),
    ("colou?r", "g", "color", True),
    ("\\$\\d+", "", "costs $12", True),
]


@pytest.mark.parametrize(("pattern", "flags", "text", "found"), JS_BEHAVIOUR)
def test_a_translated_pattern_finds_what_javascript_finds(
    pattern: str, flags: str, text: str, found: bool
) -> None:
    assert _search(pattern, flags, text) is found


@pytest.mark.parametrize(
    ("pattern", "flags", "why"),
    [
        ("abc", "y", "sticky flag y"),
        ("[a--b]", "v", "v flag"),
        ("\\cJ", "", "control character"),
        ("(?<=a+)b", "", "not a pattern Python's re reads the same way"),
        ("a(b", "", "not a pattern Python's re reads the same way"),
        ("[abc", "", "not closed"),
        ("abc\\", "", "lone backslash"),
    ],
)
def test_what_has_no_python_form_is_refused_with_the_reason(pattern: str, flags: str, why: str) -> None:
    done = translate(pattern, flags)
    assert done.pattern is None and done.why is not None and why in done.why


def test_flags_that_change_nothing_a_test_sees_are_dropped() -> None:
    assert translate("x", "gdu").flags == "" and translate("x", "gims").flags == "ims"


# ---------------------------------------------------------------- TOML
