"""[[graders]], expect_fire and the references' declarations in task folders: what loads, and
one clear error per problem naming the folder, the file, the grader and the key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pytest_ponybench.core.graders.deterministic import RegexGrader, ToolOrderGrader, ToolUsedGrader
from pytest_ponybench.core.graders.model_graded import LlmGrader, LlmReferenceGrader
from pytest_ponybench.core.tasks import TaskError, load_task
from pytest_ponybench.core.transcript import Transcript
from pytest_ponybench.gateway.routes import Routes
from pytest_ponybench.gateway.server import Gateway
from pytest_ponybench.scoring.workspace import lay
from pytest_ponybench.session.judge import Judging

BASE = """\
kind = "surgical"
file = "mod.py"
axis = "correct"
"""


def task(tmp_path: Path, graders: str = "", *, head: str = BASE, name: str = "t") -> Path:
    folder = tmp_path / name
    for sub in ("good", "bad", "checks", "seed"):
        (folder / sub).mkdir(parents=True)
    (folder / "task.toml").write_text(head + graders, encoding="utf-8")
    (folder / "prompt.md").write_text("Write add(a, b).\n")
    (folder / "seed" / "README.md").write_text("seed\n")
    (folder / "good" / "mod.py").write_text("def add(a, b):\n    return a + b\n")
    (folder / "bad" / "mod.py").write_text("def add(a, b):\n    return a - b\n")
    (folder / "checks" / "test_correct.py").write_text("def test_x():\n    pass\n")
    return folder


def problems(folder: Path) -> list[str]:
    with pytest.raises(TaskError) as info:
        load_task(folder)
    return info.value.problems


def the_problem(folder: Path, *words: str) -> str:
    found = problems(folder)
    hits = [p for p in found if all(w in p for w in words)]
    assert hits, f"no problem names {words}: {found}"
    assert hits[0].startswith(f"{folder}: "), hits[0]
    return hits[0]


GRADED_REGEX = '[[graders]]\nname = "says_done"\ntype = "regex"\npattern = "done"\n'

GOOD_GRADERS = """
[[graders]]
name = "says_done"
type = "regex"
pattern = "(?i)done"

[[graders]]
name = "words"
type = "regex"
target = "transcript"
pattern = "\\\\S+"
mode = "count"
max = 300
flags = "ims"
weight = 0.5

[[graders]]
name = "reads-first"
type = "tool_order"
axis = "correct"
steps = [
  { tool = "Read", input = { path = "file_path", regex = "mod\\\\.py$" } },
  { tool = ["Write", "Edit"] },
]

[[graders]]
name = "skill"
type = "tool_used"
arm = "arms-only"
tool = "Skill"
min = 1
max = 2

[[graders]]
name = "no_bash"
type = "tool_absent"
axis = "safe"
tool = "Bash"

[[graders]]
name = "has_tests"
type = "file_exists"
path = "test_*.py"

[[graders]]
name = "no_env"
type = "file_absent"
path = "**/.env"

[[graders]]
name = "explains"
type = "llm"
criteria_file = "criteria.md"
rubric = ["wrong", "partly right", "right"]
pass_level = 2

[[graders]]
name = "vs_ref"
type = "llm_reference"
reference = "reference.md"
criteria = "Which explains it better?"
on = "files"
files = ["*.py"]
pass_if = "better"
"""


def test_every_grader_type_loads(tmp_path: Path) -> None:
    folder = task(tmp_path, GOOD_GRADERS)
    (folder / "criteria.md").write_text("It is right.\n")
    (folder / "reference.md").write_text("The answer.\n")
    t = load_task(folder)
    assert [g.name for g in t.graders] == [
        "says_done",
        "words",
        "reads-first",
        "skill",
        "no_bash",
        "has_tests",
        "no_env",
        "explains",
        "vs_ref",
    ]
    assert [g.type for g in t.graders] == [
        "regex",
        "regex",
        "tool_order",
        "tool_used",
        "tool_absent",
        "file_exists",
        "file_absent",
        "llm",
        "llm_reference",
    ]
    words = t.graders[1]
    assert (
        isinstance(words, RegexGrader)
        and words.pattern.flags & re.I
        and words.max == 300
        and words.weight == 0.5
    )
    order = t.graders[2]
    assert (
        isinstance(order, ToolOrderGrader)
        and order.axis == "correct"
        and order.steps[1].tools == ("Write", "Edit")
    )
    skill = t.graders[3]
    assert isinstance(skill, ToolUsedGrader) and (skill.arm, skill.min, skill.max) == ("arms-only", 1, 2)
    explains = t.graders[7]
    assert (
        isinstance(explains, LlmGrader) and explains.criteria == "It is right.\n" and explains.pass_level == 2
    )
    ref = t.graders[8]
    assert isinstance(ref, LlmReferenceGrader) and ref.reference == "The answer.\n" and ref.files == ("*.py",)
    assert t.scored and t.graded_axes == ("correct", "safe")


def test_graders_change_the_task_hash_and_a_task_without_them_keeps_its_own(tmp_path: Path) -> None:
    plain = load_task(task(tmp_path, name="plain"))
    with_grader = load_task(
        task(tmp_path, '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\n', name="g1")
    )
    other = load_task(task(tmp_path, '[[graders]]\nname = "a"\ntype = "regex"\npattern = "y"\n', name="g2"))
    assert len({plain.content_hash(), with_grader.content_hash(), other.content_hash()}) == 3
    # a good/ref.toml is a declaration, never laid into the workspace, whatever the task declares
    folder = task(tmp_path, name="meta")
    (folder / "good" / "ref.toml").write_text('note = "plain"\n')
    assert load_task(folder).content_hash() == load_task(task(tmp_path, name="meta2")).content_hash()


@pytest.mark.parametrize(
    "graders, words",
    [
        ('[[graders]]\ntype = "regex"\npattern = "x"\n', ("[[graders]] #1", "key 'name'", "letters, digits")),
        (
            '[[graders]]\nname = "a\\n"\ntype = "regex"\npattern = "x"\n',
            ("[[graders]] #1", "key 'name'", "letters, digits"),
        ),
        (
            '[[graders]]\nname = "a b"\ntype = "regex"\npattern = "x"\n',
            ("[[graders]] #1 'a b'", "key 'name'"),
        ),
        ('[[graders]]\nname = "a"\ntype = "grep"\n', ("'a'", "key 'type'", "'grep'", "tool_order")),
        ('[[graders]]\nname = "a"\n', ("'a'", "key 'type'", "None")),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\naxis = "fast"\n',
            ("'a'", "key 'axis'", "correct, safe, score"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\narm = "some"\n',
            ("'a'", "key 'arm'", "all, arms-only"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\nweight = 0\n',
            ("'a'", "key 'weight'", "> 0"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\nweight = nan\n',
            ("'a'", "key 'weight'", "finite"),
        ),
        ('[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\nweight = true\n', ("'a'", "key 'weight'")),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\narm = "arms-only"\naxis = "correct"\n',
            ("'a'", "key 'axis'", "arms-only"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\npath = "y"\n',
            ("'a'", "key 'path'", "not a key of a regex grader"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "(unclosed"\n',
            ("'a'", "key 'pattern'", "not a valid regular expression"),
        ),
        ('[[graders]]\nname = "a"\ntype = "regex"\n', ("'a'", "key 'pattern'", "non-empty")),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\nflags = "iq"\n',
            ("'a'", "key 'flags'", "i, m, s, x"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\ntarget = "stdout"\n',
            ("'a'", "key 'target'", "reply, transcript, files"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\nmode = "count"\n',
            ("'a'", "key 'mode'", "needs 'min'"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\nmode = "count"\nmin = 3\nmax = 1\n',
            ("'a'", "key 'min'", "greater than 'max'"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\nmode = "count"\nmin = -1\n',
            ("'a'", "key 'min'", ">= 0"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\nmin = 1\n',
            ("'a'", "key 'min'", "only for mode = 'count'"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\nglob = "*.py"\n',
            ("'a'", "key 'glob'", "only for target = 'files'"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\ntarget = "files"\nglob = "/etc/*"\n',
            ("'a'", "key 'glob'", "inside the workspace"),
        ),
        ('[[graders]]\nname = "a"\ntype = "tool_used"\n', ("'a'", "key 'tool'", "tool name or glob")),
        ('[[graders]]\nname = "a"\ntype = "tool_used"\ntool = []\n', ("'a'", "key 'tool'")),
        (
            '[[graders]]\nname = "a"\ntype = "tool_used"\ntool = "Read"\ninput = { regex = "x" }\n',
            ("'a'", "key 'input'", "dotted JSON path"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "tool_used"\n'
            'tool = "Read"\ninput = { path = "file_path", regex = "[" }\n',
            ("'a'", "key 'input.regex'", "not a valid regular expression"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "tool_used"\n'
            'tool = "Read"\ninput = { path = "a..b", regex = "x" }\n',
            ("'a'", "key 'input'", "dotted JSON path"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "tool_used"\ntool = "Read"\n'
            'input = { path = "p", regex = "x", flags = "i" }\n',
            ("'a'", "key 'input'", "unknown key(s) flags"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "tool_used"\ntool = "Read"\ninput = "file_path"\n',
            ("'a'", "key 'input'", "must be a table"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "tool_used"\ntool = "Read"\nmin = 2.5\n',
            ("'a'", "key 'min'", "whole number"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "tool_order"\nsteps = [{ tool = "Read" }]\n',
            ("'a'", "key 'steps'", "two or more"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "tool_order"\nsteps = [{ tool = "Read" }, { name = "Edit" }]\n',
            ("'a'", "key 'steps.2'", "unknown key(s) name"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "tool_order"\nsteps = [{ tool = "Read" }, { tool = 3 }]\n',
            ("'a'", "key 'steps.2.tool'"),
        ),
        ('[[graders]]\nname = "a"\ntype = "file_exists"\npath = "../x"\n', ("'a'", "key 'path'", "no '..'")),
        ('[[graders]]\nname = "a"\ntype = "file_absent"\n', ("'a'", "key 'path'", "non-empty glob")),
        ('[[graders]]\nname = "a"\ntype = "llm"\n', ("'a'", "key 'criteria'", "one of them")),
        (
            '[[graders]]\nname = "a"\ntype = "llm"\ncriteria = "x"\ncriteria_file = "c.md"\n',
            ("'a'", "key 'criteria'", "both given"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "llm"\ncriteria_file = "missing.md"\n',
            ("'a'", "key 'criteria_file'", "does not exist"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "llm"\ncriteria_file = "../../etc/passwd"\n',
            ("'a'", "key 'criteria_file'", "inside the task folder"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "llm"\ncriteria = "x"\nrubric = ["only"]\n',
            ("'a'", "key 'rubric'", "two or more"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "llm"\ncriteria = "x"\nrubric = ["a", "b"]\npass_level = 2\n',
            ("'a'", "key 'pass_level'", "0 to 1"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "llm"\ncriteria = "x"\nrubric = ["a", "b"]\n',
            ("'a'", "key 'pass_level'", "None"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "llm"\ncriteria = "x"\npass_level = 1\n',
            ("'a'", "key 'pass_level'", "only for a grader with a 'rubric'"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "llm"\ncriteria = "x"\non = "files"\n',
            ("'a'", "key 'files'", 'required with on = "files"'),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "llm"\ncriteria = "x"\nfiles = ["*.py"]\n',
            ("'a'", "key 'files'", 'only for on = "files"'),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "llm"\ncriteria = "x"\non = "stdout"\n',
            ("'a'", "key 'on'", "reply, diff, files"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "llm_reference"\ncriteria = "x"\n',
            ("'a'", "key 'reference'", "inside the task folder"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "llm_reference"\n'
            'criteria = "x"\nreference = "reference.md"\npass_if = "same"\n',
            ("'a'", "key 'pass_if'", "not_worse, better"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\n'
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "y"\n',
            ("[[graders]] #2 'a'", "used by an earlier grader"),
        ),
        ('graders = "all"\n', ("task.toml", "key 'graders'", "[[graders]] tables")),
        (
            '[[graders]]\nname = "a"\ntype = "tool_used"\ntool = "Skill"\ncount = "tries"\n',
            ("'a'", "key 'count'", "succeeded, attempts"),
        ),
        (
            '[[graders]]\nname = "a"\ntype = "regex"\npattern = "x"\ncount = "attempts"\n',
            ("'a'", "count"),
        ),
    ],
)
def test_a_bad_grader_is_one_error_naming_the_folder_file_grader_and_key(
    tmp_path: Path, graders: str, words: tuple[str, ...]
) -> None:
    folder = task(tmp_path, graders)
    (folder / "reference.md").write_text("ref\n")
    (folder / "c.md").write_text("criteria\n")
    message = the_problem(folder, "task.toml: ", *words)
    assert message.count(str(folder)) == 1


def test_grader_problems_are_listed_with_the_task_s_other_problems(tmp_path: Path) -> None:
    folder = task(
        tmp_path,
        '[[graders]]\nname = "a"\ntype = "regex"\npattern = "("\n'
        '[[graders]]\nname = "b"\ntype = "tool_used"\n',
        head='kind = "surgicle"\nfile = "mod.py"\naxis = "correct"\n',
    )
    found = problems(folder)
    assert any("key 'kind'" in p for p in found)
    assert any("'a'" in p and "key 'pattern'" in p for p in found)
    assert any("'b'" in p and "key 'tool'" in p for p in found)


@pytest.mark.parametrize(
    "value, words",
    [
        ('"yes"', ("key 'expect_fire'", "true, false or a table")),
        ("{ plugin = 1 }", ("key 'expect_fire'", "'plugin' must be true or false")),
        ("{ baseline = true }", ("key 'expect_fire'", "'baseline' has nothing")),
        ('{ "my arm" = true }', ("key 'expect_fire'", "neither an arm kind")),
        ("{}", ("key 'expect_fire'", "true, false or a table")),
    ],
)
def test_bad_expect_fire(tmp_path: Path, value: str, words: tuple[str, ...]) -> None:
    the_problem(task(tmp_path, head=BASE + f"expect_fire = {value}\n"), "task.toml", *words)


def test_expect_fire_by_kind_and_by_name(tmp_path: Path) -> None:
    t = load_task(task(tmp_path, head=BASE + 'expect_fire = { plugin = true, "terse.v2" = false }\n'))
    assert t.expect_fire is not None
    assert t.expect_fire.for_arm("mine", "plugin") is True
    assert t.expect_fire.for_arm("terse.v2", "prompt") is False
    assert t.expect_fire.for_arm("other", "settings") is None
    assert t.expect_fire.for_arm("baseline", "baseline") is None
    everywhere = load_task(task(tmp_path, head=BASE + "expect_fire = false\n", name="t2")).expect_fire
    assert everywhere is not None and everywhere.for_arm("mine", "plugin") is False


JUDGED = '[[graders]]\nname = "explains"\ntype = "llm"\ncriteria = "It explains."\n'


def test_a_task_s_own_judge_runs_wins_over_the_run_s(tmp_path: Path) -> None:
    """A suite written for a judge that votes (claude plugin eval asks 3 times) keeps its vote
    count: the task's judge_runs is what its cells ask, the run's --judge-runs where it says
    nothing; either way it is part of what the task is (its hash)."""
    own = load_task(task(tmp_path, JUDGED, head=BASE + "judge_runs = 3\n", name="own"))
    plain = load_task(task(tmp_path, JUDGED, name="plain"))
    assert (own.judge_runs, plain.judge_runs) == (3, None)
    assert own.content_hash() != plain.content_hash()
    judging = Judging(claude="claude", model="offline-judge", routes=Routes(Gateway()), runs=5)
    assert judging.grading(own, Transcript(), tmp_path / "j").judge_runs == 3
    assert judging.grading(plain, Transcript(), tmp_path / "j").judge_runs == 5


@pytest.mark.parametrize(
    "value, graders, words",
    [
        ("0", JUDGED, ("key 'judge_runs'", "from 1 to 9, not 0")),
        ("10", JUDGED, ("key 'judge_runs'", "from 1 to 9, not 10")),
        ("true", JUDGED, ("key 'judge_runs'", "not True")),
        ('"3"', JUDGED, ("key 'judge_runs'", "not '3'")),
        ("3", GRADED_REGEX, ("key 'judge_runs'", "no judge grader (llm, llm_reference) to ask 3 times")),
    ],
)
def test_bad_judge_runs(tmp_path: Path, value: str, graders: str, words: tuple[str, ...]) -> None:
    the_problem(task(tmp_path, graders, head=BASE + f"judge_runs = {value}\n"), "task.toml", *words)


# ---------------------------------------------------------------- references


GRADED = '[[graders]]\nname = "says_done"\ntype = "regex"\npattern = "done"\n'


def add_ref(folder: Path, where: str, toml: str, files: dict[str, str] | None = None) -> Path:
    ref = folder / where
    ref.mkdir(parents=True, exist_ok=True)
    (ref / "ref.toml").write_text(toml, encoding="utf-8")
    for name, text in (files or {}).items():
        (ref / name).write_text(text)
    return ref


def test_references_carry_reply_tool_calls_and_grader_outcomes_that_are_never_laid(tmp_path: Path) -> None:
    folder = task(tmp_path, GRADED)
    add_ref(
        folder,
        "good",
        'reply_file = "reply.md"\ngraders = { says_done = true }\n'
        'tool_calls = [{ tool = "Read", input = { file_path = "README.md" } },\n'
        '  { tool = "mcp__notes__list" }]\n',
        {"reply.md": "All done, naïvely.\n"},
    )
    add_ref(folder, "bad", 'reply = "nope"\ngraders = { says_done = false }\n')
    add_ref(
        folder,
        "refs/short",
        'expect = "correct, safe"\nreply = "done"\n',
        {"mod.py": "def add(a, b): return a+b\n"},
    )
    t = load_task(folder)
    good, bad, short = t.references
    assert good.meta.reply == "All done, naïvely.\n" and good.meta.graders == {"says_done": True}
    assert [(c.tool, dict(c.input)) for c in good.meta.tool_calls] == [
        ("Read", {"file_path": "README.md"}),
        ("mcp__notes__list", {}),
    ]
    assert set(good.files) == {"mod.py"} and set(bad.files) == {"mod.py"}  # no ref.toml, no reply.md
    assert short.meta.reply == "done" and set(short.files) == {"mod.py"}
    ws = tmp_path / "ws"
    lay(t, ws, reference="good")
    assert sorted(p.name for p in ws.iterdir()) == ["README.md", "mod.py"]


@pytest.mark.parametrize(
    "where, toml, words",
    [
        (
            "good",
            "graders = { nope = true }\n",
            ("good/ref.toml", "key 'graders'", "'nope' is not a grader", "says_done"),
        ),
        ("good", 'graders = { says_done = "yes" }\n', ("good/ref.toml", "key 'graders'", "true or false")),
        ("good", 'expect = "correct, safe"\n', ("good/ref.toml", "key 'expect' is not for good/")),
        ("bad", "colour = 1\n", ("bad/ref.toml", "unknown key(s) colour")),
        ("bad", "reply = 3\n", ("bad/ref.toml", "key 'reply'", "must be a string")),
        (
            "bad",
            'reply = "a"\nreply_file = "r.md"\n',
            ("bad/ref.toml", "'reply' and 'reply_file' are both given"),
        ),
        ("bad", 'reply_file = "missing.md"\n', ("bad/ref.toml", "key 'reply_file'", "'missing.md'")),
        ("bad", 'reply_file = "../../task.toml"\n', ("bad/ref.toml", "key 'reply_file'")),
        (
            "good",
            'tool_calls = [{ tool = "Edit", input = { file_path = "x.py" } }]\n',
            ("good/ref.toml", "'tool_calls' #1", "'Edit' cannot be declared"),
        ),
        (
            "good",
            'tool_calls = [{ tool = "Write", input = { file_path = "x.py" } }]\n',
            ("good/ref.toml", "'tool_calls' #1", "a declared Write takes exactly", "content"),
        ),
        (
            "good",
            'tool_calls = [{ tool = "Write", input = { file_path = "x.py", content = 3 } }]\n',
            ("good/ref.toml", "'tool_calls' #1", "a declared Write takes exactly"),
        ),
        (
            "good",
            'tool_calls = [{ tool = "Write", input = { file_path = "../x.py", content = "" } }]\n',
            ("good/ref.toml", "'tool_calls' #1", "input 'file_path'", "inside the workspace"),
        ),
        (
            "good",
            'tool_calls = [{ tool = "Bash", input = { command = "ls" } }]\n',
            ("good/ref.toml", "'tool_calls' #1", "'Bash' cannot be declared"),
        ),
        (
            "good",
            'tool_calls = [{ tool = "Agent" }]\n',
            ("good/ref.toml", "'Agent' cannot be declared", "subagent"),
        ),
        (
            "good",
            'tool_calls = [{ tool = "Read", input = { file_path = "/etc/passwd" } }]\n',
            ("good/ref.toml", "'tool_calls' #1", "input 'file_path'", "inside the workspace"),
        ),
        (
            "good",
            'tool_calls = [{ tool = "Glob", input = { pattern = "../**" } }]\n',
            ("good/ref.toml", "input 'pattern'", "no '..'"),
        ),
        (
            "good",
            'tool_calls = [{ tool = "Read" }, { tool = "Grep", input = { path = "../x" } }]\n',
            ("good/ref.toml", "'tool_calls' #2", "input 'path'"),
        ),
        (
            "good",
            'tool_calls = [{ tool = "Read", args = {} }]\n',
            ("good/ref.toml", "'tool_calls' #1", "must be a table like"),
        ),
        ("good", 'tool_calls = { tool = "Read" }\n', ("good/ref.toml", "key 'tool_calls' must be a list")),
        ("refs/r1", 'reply = "x"\n', ("refs/r1/ref.toml", "key 'expect' is missing")),
        (
            "refs/r1",
            'expect = "correct, safe"\ngraders = { other = false }\n',
            ("refs/r1/ref.toml", "'other' is not a grader"),
        ),
    ],
)
def test_a_bad_reference_declaration_names_the_file_and_key(
    tmp_path: Path, where: str, toml: str, words: tuple[str, ...]
) -> None:
    folder = task(tmp_path, GRADED)
    add_ref(folder, where, toml, {"r.md": "reply\n"} if "reply_file" in toml else {"mod.py": "x = 1\n"})
    the_problem(folder, *words)


def test_a_reference_with_only_a_reply_proves_graders_without_files(tmp_path: Path) -> None:
    folder = task(tmp_path, GRADED)
    add_ref(
        folder, "refs/said_it", 'expect = "incorrect, safe"\nreply = "done"\ngraders = { says_done = true }\n'
    )
    (ref,) = [r for r in load_task(folder).refs if r.name == "said_it"]
    assert ref.files == {} and ref.meta.reply == "done"
    # without a reply or tool calls, a reference of a task with checks still needs files
    add_ref(folder, "refs/empty", 'expect = "incorrect, safe"\n')
    the_problem(folder, "refs/empty/", "has no files besides ref.toml")


def test_every_grader_needs_a_reference_each_way(tmp_path: Path) -> None:
    folder = task(tmp_path, GRADED)
    add_ref(folder, "good", "graders = { says_done = true }\n")
    assert load_task(folder).shortfalls()[-1] == "grader says_done: no reference declares it failing"
    add_ref(folder, "bad", "graders = { says_done = false }\n")
    assert not any("grader" in s for s in load_task(folder).shortfalls())


OPEN = 'kind = "open"\naxis = "correct"\n'
OPEN_GRADER = '[[graders]]\nname = "right"\ntype = "llm"\naxis = "correct"\ncriteria = "It is right."\n'


def open_task(tmp_path: Path, graders: str = OPEN_GRADER, head: str = OPEN) -> Path:
    folder = tmp_path / "o"
    folder.mkdir()
    (folder / "task.toml").write_text(head + graders)
    (folder / "prompt.md").write_text("Explain X.\n")
    return folder


def test_an_open_task_with_graders_has_references_and_is_scored(tmp_path: Path) -> None:
    folder = open_task(tmp_path)
    add_ref(folder, "good", 'reply = "X. ponybench-judge: pass"\ngraders = { right = true }\n')
    add_ref(folder, "bad", 'reply = "Y."\ngraders = { right = false }\n')
    add_ref(folder, "refs/also_right", 'reply = "X!"\ngraders = { right = true }\n')
    t = load_task(folder)
    assert t.scored and t.has_references and t.shortfalls() == []
    assert [(r.name, r.expect.text()) for r in t.references] == [
        ("good", "correct, safe"),
        ("bad", "incorrect, safe"),
        ("also_right", ""),  # an open task's ref may declare only its grader outcomes
    ]
    assert t.references[2].expect.kind == "graded"


def test_an_open_task_with_graders_needs_good_and_bad(tmp_path: Path) -> None:
    folder = open_task(tmp_path)
    the_problem(folder, "good/: missing", "graders")
    the_problem(folder, "bad/: missing")


def test_an_open_task_s_axis_must_be_one_a_grader_decides(tmp_path: Path) -> None:
    folder = open_task(tmp_path, head='kind = "open"\naxis = "safe"\n')
    add_ref(folder, "good", "")
    add_ref(folder, "bad", "")
    the_problem(folder, "task.toml: axis = 'safe' but no grader decides it")


def test_an_open_task_without_graders_still_refuses_references(tmp_path: Path) -> None:
    folder = open_task(tmp_path, graders="", head='kind = "open"\n')
    add_ref(folder, "refs/r", 'expect = "correct, safe"\n', {"a.py": ""})
    the_problem(folder, "refs/: an open task without graders")


def test_an_open_task_graded_on_the_score_only_declares_outcomes_only(tmp_path: Path) -> None:
    folder = open_task(
        tmp_path,
        '[[graders]]\nname = "short"\ntype = "regex"\npattern = "^.{0,80}$"\n',
        head='kind = "open"\n',
    )
    add_ref(folder, "good", 'reply = "ok"\ngraders = { short = true }\n')
    add_ref(folder, "bad", f'reply = "{"x" * 100}"\ngraders = {{ short = false }}\n')
    t = load_task(folder)
    assert not t.scored and [r.expect.kind for r in t.references] == ["graded", "graded"]


def test_tool_graders_count_successful_calls_unless_told_attempts(tmp_path: Path) -> None:
    folder = task(
        tmp_path,
        '[[graders]]\nname = "u"\ntype = "tool_used"\ntool = "Skill"\n'
        '[[graders]]\nname = "a"\ntype = "tool_used"\ntool = "Skill"\ncount = "attempts"\n'
        '[[graders]]\nname = "o"\ntype = "tool_order"\ncount = "attempts"\n'
        'steps = [{ tool = "Read" }, { tool = "Edit" }]\n',
    )
    used, attempts, order = load_task(folder).graders
    assert isinstance(used, ToolUsedGrader) and used.count == "succeeded"
    assert isinstance(attempts, ToolUsedGrader) and attempts.count == "attempts"
    assert isinstance(order, ToolOrderGrader) and order.count == "attempts"
