"""Tests for `_util/yaml12.py`: YAML as Claude Code's parser reads it (1.2 booleans, a key given
twice refused), hostile documents refused before they are built, and Markdown front matter."""

from __future__ import annotations

import time

import pytest

from pytest_ponybench._util.yaml12 import (
    MAX_YAML_DEPTH,
    MAX_YAML_NODES,
    YamlProblem,
    read,
    split_front_matter,
)


def test_only_true_and_false_are_booleans() -> None:
    doc = read("a: yes\nb: no\nc: on\nd: off\ne: true\nf: False\ng: TRUE\nh: 1.5\ni: ~\n")
    assert doc == {
        "a": "yes",
        "b": "no",
        "c": "on",
        "d": "off",
        "e": True,
        "f": False,
        "g": True,
        "h": 1.5,
        "i": None,
    }


def test_integers_are_yaml_1_2s_a_leading_zero_is_decimal() -> None:
    doc = read("a: 010\nb: 0o10\nc: 0x1F\nd: -010\ne: +7\nf: 0\ng: !!int 010\n010: key\n")
    assert doc == {"a": 10, "b": 8, "c": 31, "d": -10, "e": 7, "f": 0, "g": 10, 10: "key"}
    # YAML 1.1's other integers are strings in 1.2, as quoted ones are anywhere
    doc = read("a: 0b101\nb: 1_000\nc: 1:30\nd: 0o9\ne: '010'\nf: -0x1\n")
    assert doc == {"a": "0b101", "b": "1_000", "c": "1:30", "d": "0o9", "e": "010", "f": "-0x1"}
    assert read("a: 1.5\nb: 010.5\n") == {"a": 1.5, "b": 10.5}  # floats as before


def test_an_explicit_integer_tag_on_what_is_no_integer_is_a_problem() -> None:
    with pytest.raises(YamlProblem, match="'0b1' is not a YAML 1.2 integer") as info:
        read("a: !!int 0b1\n")
    assert not info.value.hostile


def test_aliases_of_a_small_thing_are_read() -> None:
    assert read("a: &x [1, 2]\nb: *x\n") == {"a": [1, 2], "b": [1, 2]}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("a: 1\na: 2\n", "not valid YAML at line 2: key 'a' is given twice"),
        ("top:\n  k: 1\n  k: 2\n", "not valid YAML at line 3: key 'k' is given twice"),
        ("a: [1, 2\n", "not valid YAML at line 2: expected ',' or ']', but got '<stream end>'"),
        (
            "n: 1" + "0" * 5000,
            "not valid YAML: Exceeds the limit (4300 digits) for integer string conversion",
        ),
    ],
)
def test_what_is_not_yaml_says_why_and_is_not_hostile(text: str, problem: str) -> None:
    with pytest.raises(YamlProblem) as info:
        read(text)
    assert str(info.value).startswith(problem) and not info.value.hostile


def laughs(levels: int) -> str:
    """A "billion laughs": each level ten aliases of the one before."""
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 10)}]" for n in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_a_billion_laughs_is_refused_at_once_as_hostile() -> None:
    started = time.monotonic()
    with pytest.raises(YamlProblem) as info:
        read(laughs(9))  # 10**9 values expanded; a few hundred bytes
    assert time.monotonic() - started < 5
    assert (
        str(info.value)
        == f"refused: the YAML expands to more than {MAX_YAML_NODES} values (aliases of aliases?)"
    )
    assert info.value.hostile
    assert len(read(laughs(4))["l3"]) == 10  # 10**4 values: read


@pytest.mark.parametrize(
    "text",
    [
        "[" * (MAX_YAML_DEPTH + 5) + "]" * (MAX_YAML_DEPTH + 5),
        "".join(f"{'  ' * n}k:\n" for n in range(MAX_YAML_DEPTH + 5)),
    ],
)
def test_nesting_past_the_depth_is_refused_as_hostile(text: str) -> None:
    with pytest.raises(YamlProblem) as info:
        read(text)
    assert (
        str(info.value) == f"refused: the YAML nests deeper than {MAX_YAML_DEPTH} levels"
        and info.value.hostile
    )


def test_front_matter_and_body() -> None:
    assert split_front_matter("---\nname: x\n---\nbody\n") == ("name: x", "body\n")
    assert split_front_matter("---\r\nname: x\r\n---\r\nbody") == ("name: x", "body")
    assert split_front_matter("---\n---\nbody") == ("", "body")
    assert split_front_matter("no front matter\n---\n") == (None, "no front matter\n---\n")


def test_an_unterminated_front_matter_is_a_problem() -> None:
    with pytest.raises(
        YamlProblem, match=r"unterminated front matter \(an opening '---' with no closing '---'\)"
    ):
        split_front_matter("---\nname: x\nbody\n")
