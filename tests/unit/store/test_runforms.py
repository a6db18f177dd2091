"""Tests for `store/runforms.py`: each form of run.json earlier versions wrote is told by its newest
key, and the migration into the current one (the file left as it is). Each form read through it
whole is test_runinfo's."""

from __future__ import annotations

from typing import Any

from pytest_ponybench.store import runforms
from tests.unit._support.runjson import form


def test_each_form_is_told_by_its_newest_key() -> None:
    assert [runforms.form_of(form(n)) for n in range(1, runforms.CURRENT)] == [1, 2, 3, 4, 5]
    assert runforms.form_of({**form(5), "options": {**form(5)["options"], "judge_model": "x"}}) == 6
    assert runforms.upgrade(form(1), 1)["mode"] == "run" and "mode" not in form(1)  # the file is kept


def test_an_arm_from_before_parts_gets_the_one_part_its_kind_and_content_were() -> None:
    arms: list[Any] = [
        {"name": "baseline", "kind": "baseline"},
        {"name": "careful", "kind": "plugin", "plugin_dir": "plugins/careful"},
        {"name": "terse", "kind": "prompt", "prompt": "Be brief."},
        {"name": "strict", "kind": "settings", "settings": "settings/strict.json"},
        {"name": "made", "kind": "prompt", "parts": [{"kind": "prompt", "value": "x"}]},  # already parts
        {"name": "odd", "kind": "unknown", "prompt": "left for the reader to refuse"},
        {"name": "empty", "kind": "prompt"},  # no content: left as it is
        "not an arm",
    ]
    doc = {"mode": "run", "arms": arms}
    out = runforms.upgrade(doc, 4)
    assert [a.get("parts") if isinstance(a, dict) else a for a in out["arms"]] == [
        [],
        [{"kind": "plugin", "value": "plugins/careful"}],
        [{"kind": "prompt", "value": "Be brief."}],
        [{"kind": "settings", "value": "settings/strict.json"}],
        [{"kind": "prompt", "value": "x"}],
        None,
        None,
        "not an arm",
    ]
    assert doc["arms"] is arms and "parts" not in arms[1]  # the document is left as it is
    assert out["mode"] == "run" and runforms.upgrade({}, 2) == {}  # mode is added to form 1 only


def test_every_form_has_its_words_and_the_current_is_the_newest() -> None:
    assert sorted(runforms.FORMS) == list(range(1, runforms.CURRENT + 1))
    assert all(runforms.FORMS.values())
    assert runforms.form_of({}) == 1 and runforms.form_of({"options": "not a table", "arms": "no"}) == 1
