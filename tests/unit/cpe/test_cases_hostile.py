"""`ponybench import-cpe` on a suite someone else wrote: links that would carry a file of this
machine into the tasks, and YAML made to hang, exhaust memory or blow the stack. Each is one
clear error (exit 2) naming the file, before anything is written; a bomb is refused at once.
Real files through the real CLI entry point."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from pytest_ponybench import cli
from pytest_ponybench.cpe.cases import MAX_YAML_DEPTH, CaseError, load_yaml

CASE = (
    'schema_version: "1.0"\nname: c\nexecution:\n  prompt: Do it.\n'
    "graders:\n  - {type: regex, name: g, pattern: x}\n"
)
SECRET = "the host's secret: never in a task\n"
# About 1 KB: nine levels of nine aliases each, 9**9 (387 million) strings once expanded.
LAUGHS = 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n' + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
)


def suite(root: Path, files: dict[str, str]) -> Path:
    """A plugin with an eval suite of these files (relative to evals/)."""
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "careful"}))
    for rel, text in files.items():
        path = root / "evals" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "evals"


def refused(capsys: pytest.CaptureFixture[str], evals: Path, out_dir: Path) -> str:
    """import-cpe must exit 2 with one error, print nothing and write nothing."""
    code = cli.main(["import-cpe", str(evals), "-o", str(out_dir)])
    out, err = capsys.readouterr()
    assert code == cli.USAGE and not out, out + err
    assert err.count("ponybench: error:") == 1 and "Traceback" not in err, err
    assert err.startswith("ponybench: error: the suite is not imported:"), err
    assert not out_dir.exists()
    return err


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    outside = tmp_path / "home"
    outside.mkdir()
    (outside / "secret.md").write_text(SECRET)
    (outside / "case.yaml").write_text(CASE)
    return outside


@pytest.mark.parametrize(
    ("link", "target", "files"),
    [
        ("c/case.yaml", "case.yaml", {}),
        ("c/prompt.md", "secret.md", {"c/case.yaml": CASE}),
        ("c/graders/leak.md", "secret.md", {"c/case.yaml": CASE}),
        ("c/graders", ".", {"c/case.yaml": CASE}),
    ],
)
def test_a_suite_file_linked_out_of_the_suite_is_refused_naming_it(
    tmp_path: Path,
    secret: Path,
    capsys: pytest.CaptureFixture[str],
    link: str,
    target: str,
    files: dict[str, str],
) -> None:
    evals = suite(tmp_path / "plug", files)
    where = evals / link
    where.parent.mkdir(parents=True, exist_ok=True)
    where.symlink_to(secret / target, target_is_directory=target == ".")
    err = refused(capsys, evals, tmp_path / "tasks")
    named = link if target != "." else "c/graders/"
    assert f"evals/{named}" in err and f"a link to {secret.resolve()}" in err, err
    assert "outside the suite" in err and SECRET.strip() not in err


def test_a_baseline_file_linked_out_of_the_suite_is_refused(
    tmp_path: Path, secret: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASE.replace(
        "{type: regex, name: g, pattern: x}",
        "{type: baseline, name: g, baseline_file: run.jsonl, criteria: x}",
    )
    evals = suite(tmp_path / "plug", {"c/case.yaml": case})
    (evals / "c" / "run.jsonl").symlink_to(secret / "secret.md")
    err = refused(capsys, evals, tmp_path / "tasks")
    assert "key 'baseline_file' must be a relative path inside the suite, not 'run.jsonl'" in err, err


def test_a_link_that_stays_in_the_suite_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    evals = suite(tmp_path / "plug", {"shared/common.md": "Do the shared thing.\n", "c/case.yaml": CASE})
    (evals / "c" / "prompt.md").symlink_to(evals / "shared" / "common.md")
    code = cli.main(["import-cpe", str(evals), "-o", str(tmp_path / "tasks")])
    assert code == cli.OK, capsys.readouterr().err
    assert (tmp_path / "tasks" / "c" / "prompt.md").read_text() == "Do the shared thing.\n"


BOMBS = {
    "billion_laughs": (LAUGHS, "expands to more than 100000 values"),
    "deep_lists": ("x: " + "[" * 5000 + "]" * 5000 + "\n", f"nests deeper than {MAX_YAML_DEPTH} levels"),
    "deep_maps": (
        "x: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n",
        f"nests deeper than {MAX_YAML_DEPTH} levels",
    ),
    "deep_block": ("x:\n" + "".join("  " * i + "- \n" for i in range(1, 400)), "nests deeper than"),
    "self_alias": ("x: &x [1, *x]\n", "holds an alias to itself"),
    "long_integer": ("x: " + "9" * 5000 + "\n", "not valid YAML"),
}


@pytest.mark.parametrize("bomb", sorted(BOMBS))
@pytest.mark.parametrize("place", ["case.yaml", "prompt.md", "graders/g.md"])
def test_a_yaml_bomb_is_one_clear_error_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bomb: str, place: str
) -> None:
    text, said = BOMBS[bomb]
    if place == "case.yaml":
        files = {"c/case.yaml": CASE + text}
    elif place == "prompt.md":
        files = {"c/prompt.md": f"---\n{text}---\nDo it.\n"}
    else:
        files = {"c/case.yaml": CASE, "c/graders/g.md": f"---\ntype: regex\n{text}---\nx\n"}
    evals = suite(tmp_path / "plug", files)
    # CPU, not wall time: a document built before it is refused costs seconds of this process's
    # CPU whatever else the machine runs, and a busy machine stretches only the wall clock.
    started = time.process_time()
    err = refused(capsys, evals, tmp_path / "tasks")
    assert time.process_time() - started < 1.0  # refused before it is built, not after
    assert f"evals/c/{place}" in err and said in err, err
    assert len(err) < 1000, err  # the message quotes no expansion of the document


def test_the_laughs_are_about_a_kilobyte_and_an_alias_of_a_small_thing_is_read() -> None:
    assert 300 < len(LAUGHS.encode()) <= 1100
    started = time.process_time()
    with pytest.raises(CaseError, match="refused: the YAML expands to more than"):
        load_yaml(LAUGHS, "c.yaml")
    assert time.process_time() - started < 0.5
    # An anchor a real suite uses (one grader given twice) still reads.
    shared = "graders:\n  - &g {type: regex, pattern: x}\n  - *g\n"
    assert load_yaml(shared, "c.yaml")["graders"] == [{"type": "regex", "pattern": "x"}] * 2


def test_a_huge_bad_value_is_quoted_as_a_short_excerpt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = "[" + ", ".join(["xxxxxxxxxx"] * 5_000) + "]"  # its repr: 70 KB
    evals = suite(tmp_path / "plug", {"c/case.yaml": CASE + f"description: {huge}\n"})
    err = refused(capsys, evals, tmp_path / "tasks")
    assert "key 'description' must be a string, not ['xxxxxxxxxx', " in err and "..." in err, err
    assert len(err) < 400, err


def test_long_case_and_grader_names_become_names_of_64(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A 300-character name was a folder (and a baseline reference file) too long to write.
    case = CASE.replace("name: c", "name: " + "c" * 300).replace(
        "{type: regex, name: g, pattern: x}",
        "{type: baseline, name: " + "g" * 300 + ", baseline_file: run.jsonl, criteria: x}",
    )
    evals = suite(tmp_path / "plug", {"c/case.yaml": case})
    (evals / "c" / "run.jsonl").write_text(json.dumps({"type": "result", "result": "Done well."}) + "\n")
    code = cli.main(["import-cpe", str(evals), "-o", str(tmp_path / "tasks")])
    assert code == cli.OK, capsys.readouterr().err
    (folder,) = (tmp_path / "tasks").iterdir()
    assert folder.name == "c" * 64
    assert (folder / "references" / ("g" * 64 + ".md")).read_text() == "Done well."


DEEP_JSON = "[" * 5000 + "]" * 5000


def test_a_manifest_nested_past_the_stack_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evals = suite(tmp_path / "plug", {"c/case.yaml": CASE})
    (tmp_path / "plug" / ".claude-plugin" / "plugin.json").write_text(DEEP_JSON)
    err = refused(capsys, tmp_path / "plug", tmp_path / "tasks")
    assert "plugin.json: not a readable plugin manifest: it nests too deep" in err, err
    assert evals.is_dir()


def test_an_aggregate_result_nested_past_the_stack_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "aggregate-result.json"
    path.write_text(DEEP_JSON)
    assert cli.main(["compare", str(path)]) == cli.USAGE
    err = capsys.readouterr().err
    assert f"{path}: nests too deep to read" in err and "Traceback" not in err, err
