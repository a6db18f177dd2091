"""A task as a conversation: `[[turns]]` after prompt.md, an earlier conversation it continues
(`history`, `claude plugin eval`'s history_file read as it is), graders of one turn (`turn`), a turn
played until a grader passes, and each reference's replies and calls per turn; every mistake is
one problem naming task.toml's key or the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_ponybench.core.graders import cell
from pytest_ponybench.core.graders.evidence import CellEvidence
from pytest_ponybench.core.graders.outcome import GradeContext
from pytest_ponybench.core.tasks import TaskError, load_task
from tests.support import write

TWO_TURNS = """\
kind = "open"
axis = "correct"

[[turns]]
prompt = "Now spell the codename backwards."

[[graders]]
name = "named"
type = "regex"
turn = 1
pattern = "BLUEBIRD"
axis = "correct"

[[graders]]
name = "reversed"
type = "regex"
turn = 2
pattern = "DRIBEULB"
axis = "correct"
"""
HISTORY = [
    {"type": "user", "message": {"role": "user", "content": "The login page crashes on submit."}},
    {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": "I see it."}]},
    },
    {"type": "summary", "summary": "a line that is no message"},
]


def conversation_task(root: Path, toml: str = TWO_TURNS, good: str = "", bad: str = "") -> Path:
    task = root / "t"
    write(task / "task.toml", toml)
    write(task / "prompt.md", "Pick a codename and say it in capitals.\n")
    write(task / "good" / "ref.toml", good)
    write(task / "bad" / "ref.toml", bad)
    return task


def problems_of(task: Path) -> list[str]:
    with pytest.raises(TaskError) as info:
        load_task(task)
    return [p.split(": ", 1)[1] for p in info.value.problems]


def test_a_conversation_task_loads_with_its_turns_and_graders_of_one_turn(tmp_path: Path) -> None:
    good = 'reply = "BLUEBIRD"\n[[turns]]\nreply = "DRIBEULB"\n'
    task = load_task(conversation_task(tmp_path, good=good))
    assert task.prompts == ("Pick a codename and say it in capitals.", "Now spell the codename backwards.")
    assert task.resumes and [getattr(g, "turn", None) for g in task.graders] == [1, 2]
    assert task.good_meta.said(2).reply == "DRIBEULB" and task.good_meta.said(3).reply is None
    # A grader of one turn reads that turn's evidence alone.
    turns = (CellEvidence(reply="BLUEBIRD"), CellEvidence(reply="BIRDBLUE"))
    whole = CellEvidence(reply="BIRDBLUE", turns=turns)
    outcomes = {g.name: cell.grade_one(g, whole, GradeContext()).passed for g in task.graders}
    assert outcomes == {"named": True, "reversed": False}


def test_a_plain_task_keeps_its_hash_and_its_graders_their_description(tmp_path: Path) -> None:
    plain = TWO_TURNS.split("[[turns]]")[0] + '[[graders]]\nname = "g"\ntype = "regex"\npattern = "x"\n'
    task = load_task(conversation_task(tmp_path, plain))
    assert "turn" not in task.graders[0].describe() and not task.resumes
    before = task.content_hash()
    write(tmp_path / "t" / "task.toml", plain.replace('pattern = "x"', 'pattern = "x"\nturn = 1'))
    assert load_task(tmp_path / "t").content_hash() != before


def test_history_is_read_as_it_is(tmp_path: Path) -> None:
    folder = conversation_task(tmp_path, 'kind = "open"\nhistory = "history.jsonl"\n')
    data = "".join(json.dumps(line) + "\n" for line in HISTORY).encode()
    (folder / "history.jsonl").write_bytes(data)
    task = load_task(folder)
    assert task.history is not None and task.history.data == data and task.resumes
    assert task.history.messages == (
        ("user", "The login page crashes on submit."),
        ("assistant", "I see it."),
    )


@pytest.mark.parametrize(
    ("toml", "files", "problem"),
    [
        ('kind = "open"\nturns = "next"\n', {}, "task.toml: key 'turns' must be [[turns]] tables"),
        ('kind = "open"\n[[turns]]\nsay = "x"\n', {}, "[[turns]] #1 (turn 2): unknown key(s) say"),
        ('kind = "open"\n[[turns]]\nprompt = ""\n', {}, "key 'prompt' must be a non-empty string"),
        (
            'kind = "open"\n[[turns]]\nprompt = "a"\nprompt_file = "b.md"\n',
            {},
            "give one of 'prompt' (the message) or 'prompt_file'",
        ),
        (
            'kind = "open"\n[[turns]]\nprompt_file = "../x.md"\n',
            {},
            "key 'prompt_file' must name a file of the task",
        ),
        (
            'kind = "open"\n[[turns]]\nprompt = "a"\nmax_plays = 2\n',
            {},
            "key 'max_plays' caps the plays of a turn",
        ),
        (
            'kind = "open"\n[[turns]]\nprompt = "a"\nuntil = "g"\nmax_plays = 11\n',
            {},
            "key 'max_plays' must be a whole number from 1 to 10, not 11",
        ),
        (
            'kind = "open"\n[[turns]]\nprompt = "a"\nuntil = "nope"\n',
            {},
            "key 'until': 'nope' is not a grader",
        ),
        (
            'kind = "open"\n[[turns]]\nprompt = "a"\nuntil = "j"\n'
            '[[graders]]\nname = "j"\ntype = "llm"\ncriteria = "c"\n',
            {},
            "'j' is a judge (llm); a turn plays again until a deterministic grader passes",
        ),
        (
            'kind = "open"\n[[graders]]\nname = "g"\ntype = "regex"\npattern = "x"\nturn = 2\n',
            {},
            "key 'turn' must be a turn of the conversation, 1",
        ),
        (
            'kind = "open"\n[[turns]]\nprompt = "a"\n'
            '[[graders]]\nname = "g"\ntype = "regex"\npattern = "x"\nturn = 3\n',
            {},
            "key 'turn' must be a turn of the conversation, 1 to 2 (prompt.md is 1), not 3",
        ),
        ('kind = "open"\nhistory = "gone.jsonl"\n', {}, "key 'history' must name a file of the task folder"),
        ('kind = "open"\nhistory = "h.jsonl"\n', {"h.jsonl": "not json\n"}, "h.jsonl: line 1 is not JSON"),
        (
            'kind = "open"\nhistory = "h.jsonl"\n',
            {"h.jsonl": '{"type": "summary"}\n'},
            "h.jsonl: holds no user or assistant message to continue",
        ),
        (
            'kind = "open"\n',
            {"good/ref.toml": '[[turns]]\nreply = "x"\n'},
            "good/ref.toml: key 'turns' declares 1 later turn(s); the task has 0",
        ),
        (
            'kind = "open"\n[[turns]]\nprompt = "a"\n',
            {"good/ref.toml": '[[turns]]\nsaid = "x"\n'},
            "good/ref.toml: [[turns]] #1 (turn 2): unknown key(s) said",
        ),
    ],
)
def test_a_bad_conversation_is_one_problem_naming_its_key(
    tmp_path: Path, toml: str, files: dict[str, str], problem: str
) -> None:
    folder = conversation_task(tmp_path, toml)
    for rel, text in files.items():
        write(folder / rel, text)
    found = problems_of(folder)
    assert any(problem in p for p in found), found
