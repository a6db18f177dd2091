"""Metrics on small hand-computed inputs: every expected number here was counted by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_ponybench._util import gitcmd
from pytest_ponybench._util.gitcmd import GitError
from pytest_ponybench.core.records import Record
from pytest_ponybench.scoring.metrics import (
    CODE_SUFFIXES,
    CodeStats,
    chat_code_lines,
    code_stats,
    count_lines,
    delivered_stats,
    diff_stats,
    file_sha256,
    gz_size,
    is_generated_or_lock,
    is_test_path,
    split_selfcheck,
    workspace_files,
)

# --- count_lines -------------------------------------------------------------------------------

SAMPLE = (
    "#!/usr/bin/env python\n"  # comment
    "# a comment\n"  # comment
    "import os\n"  # code
    "\n"  # blank
    "   \t\n"  # blank
    "def f(\n"  # code
    "    *,\n"  # code: keyword-only marker, not a block comment
    "    key: int,\n"  # code
    ") -> int:\n"  # code
    '    """Docstring."""\n'  # code: docstrings are not recognised
    "    return key  # trailing\n"  # code
    "// js comment\n"  # comment
    "/* block\n"  # comment
    " * middle\n"  # comment
    " */\n"  # comment
    "#main { color: red; }\n"  # code: CSS id selector
    "#include <stdio.h>\n"  # code
    "<!-- html -->\n"  # comment
    "-- sql comment\n"  # comment
    "--i;\n"  # code
    "*\n"  # comment
)


def test_count_lines_sample() -> None:
    assert count_lines(SAMPLE, comments=True) == 19
    assert count_lines(SAMPLE, comments=False) == 10


@pytest.mark.parametrize(
    ("line", "is_comment"),
    [
        ("# note", True),
        ("#", True),
        ("## heading", True),
        ("#!/bin/sh", True),
        ("#: attribute doc", True),
        ("// note", True),
        ("/* a */", True),
        ("/** jsdoc", True),
        ("*/", True),
        ("* @param x", True),
        ("*", True),
        ("<!-- x -->", True),
        ("-->", True),
        ("-- note", True),
        ("--", True),
        ("x = 1  # trailing", False),
        ("#count = 0;", False),
        ("#header {", False),
        ("#define N 3", False),
        ("*args,", False),
        ("**kwargs,", False),
        ("*,", False),
        ("--i;", False),
        ('"""doc"""', False),
        ("a // b", False),
    ],
)
def test_comment_classification(line: str, is_comment: bool) -> None:
    assert count_lines(line, comments=True) == 1
    assert count_lines("    " + line, comments=False) == (0 if is_comment else 1)


def test_count_lines_edges() -> None:
    assert count_lines("", comments=True) == 0
    assert count_lines("\n\n  \n", comments=True) == 0
    assert count_lines("a\r\n\r\nb\r\n", comments=True) == 2
    assert count_lines("no newline at end", comments=False) == 1


# --- is_test_path / is_generated_or_lock --------------------------------------------------------


@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("test_app.py", True),
        ("app_test.py", True),
        ("my_test.py", True),
        ("conftest.py", True),
        ("pkg/conftest.py", True),
        ("tests/helpers.py", True),
        ("test/x.js", True),
        ("pkg/tests/unit/util.py", True),
        ("src/__tests__/a.js", True),
        ("Tests/Foo.java", True),
        ("app.test.ts", True),
        ("Button.spec.tsx", True),
        ("lib/util.test.mjs", True),
        ("server/x_test.go", True),
        ("Test_Upper.py", True),
        ("app.py", False),
        ("testing.py", False),
        ("latest.py", False),
        ("contest.py", False),
        ("attestation.py", False),
        ("test.py", False),
        ("spec.ts", False),
        ("src/testutils/x.py", False),
        ("src/contest/x.py", False),
        ("app.tests.ts", False),
        ("tests.py", False),
        ("conftest.js", False),
    ],
)
def test_is_test_path(rel: str, expected: bool) -> None:
    assert is_test_path(rel) is expected


@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("package-lock.json", True),
        ("web/yarn.lock", True),
        ("poetry.lock", True),
        ("Cargo.lock", True),
        ("Gemfile.lock", True),
        ("go.sum", True),
        ("pnpm-lock.yaml", True),
        ("uv.lock", True),
        ("static/app.min.js", True),
        ("src/routeTree.gen.ts", True),
        ("api/v1/service.pb.go", True),
        ("proto/msg_pb2.py", True),
        ("pkg/__pycache__/m.cpython-311.pyc", True),
        ("node_modules/x/index.js", True),
        ("client.generated.ts", True),
        ("app.js.map", True),
        ("app.py", False),
        ("lockfile.py", False),
        ("src/lock.py", False),
        ("clock.ts", False),
        ("min.js", False),
        ("gen.ts", False),
        ("generator.py", False),
        ("package.json", False),
    ],
)
def test_is_generated_or_lock(rel: str, expected: bool) -> None:
    assert is_generated_or_lock(rel) is expected


def test_code_suffixes() -> None:
    assert {".py", ".js", ".ts", ".tsx", ".html", ".css", ".go", ".rs", ".sql"} <= CODE_SUFFIXES
    assert not {".md", ".json", ".txt", ".toml", ".yaml", ".png"} & CODE_SUFFIXES


# --- split_selfcheck ----------------------------------------------------------------------------

SOLUTION_SRC = "# solve it\ndef add(a, b):\n    return a + b\n\n"
SOLUTION_CHECK = 'if __name__ == "__main__":\n    assert add(1, 2) == 3\n    print("ok")\n'
SOLUTION = SOLUTION_SRC + SOLUTION_CHECK


def test_split_at_main_guard() -> None:
    assert split_selfcheck(SOLUTION) == (SOLUTION_SRC, SOLUTION_CHECK)


def test_split_without_marker_keeps_everything() -> None:
    assert split_selfcheck(SOLUTION_SRC) == (SOLUTION_SRC, "")
    assert split_selfcheck("") == ("", "")


@pytest.mark.parametrize(
    "text",
    [
        'def run():\n    if __name__ == "__main__":\n        pass\n',  # indented: not top level
        "class A:\n    def demo(self):\n        pass\n",  # a method, not a top-level demo
        "def demonstrate():\n    pass\n",
        "def _check(x):\n    return x\n",  # a common helper name: never a marker
        "def main():\n    pass\n",
        "x = 'if __name__ == 1'\n",
    ],
)
def test_no_split(text: str) -> None:
    assert split_selfcheck(text) == (text, "")


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("x = 1\ndef demo():\n    assert x == 1\n", 6),
        ("x = 1\n\nasync def smoke():\n    pass\n", 7),
        ("x = 1\ndef _selfcheck ():\n    pass\n", 6),
        ("x = 1\nif __name__=='__main__':\n    pass\n", 6),
        # the first marker wins, even when a main guard follows
        ("def f():\n    pass\ndef main_check():\n    f()\nif __name__ == '__main__':\n", 18),
        ("a = 1\r\nif __name__ == '__main__':\r\n    pass\r\n", 7),
    ],
)
def test_split_points(text: str, at: int) -> None:
    src, check = split_selfcheck(text)
    assert (src, check) == (text[:at], text[at:])
    assert src + check == text


# --- gz_size ------------------------------------------------------------------------------------


def test_gz_size_literals() -> None:
    # One fixed-Huffman block is the smallest encoding of a short text with no repeats:
    # 3 header bits + 8 bits per byte below 0x90 + 7-bit end-of-block. "hello world":
    # 3 + 11*8 + 7 = 98 bits -> 13 bytes.
    assert gz_size("hello world") == 13
    # "é" is UTF-8 C3 A9, both >= 0x90 so 9-bit codes: 3 + 2*9 + 7 = 28 bits -> 4 bytes.
    assert gz_size("é") == 4
    assert gz_size("") == 0


def test_gz_size_properties() -> None:
    one = "def add(a, b):\n    return a + b\n\nclass Point:\n    x: int\n    y: int\n"
    assert gz_size(one * 10) < 2 * gz_size(one)
    assert gz_size("x" * 10_000) < 100
    assert gz_size(one) < len(one.encode())


# --- chat_code_lines ----------------------------------------------------------------------------

CHAT = """Here is the fix:

```python
# helper
def f():
    return 1
```

And a check:

```js
// check
console.log(f());

```

Output:

```text
1
```
```not a fence```
Done."""


def test_chat_code_lines_two_fences_and_output() -> None:
    # python: 3 lines, 1 comment; js: 2 lines, 1 comment; the text block is output.
    assert chat_code_lines(CHAT) == (5, 3)


def test_chat_code_lines_edges() -> None:
    assert chat_code_lines("no code here") == (0, 0)
    assert chat_code_lines("") == (0, 0)
    assert chat_code_lines("```\nx = 1\n```\n") == (1, 1)  # untagged counts
    assert chat_code_lines("~~~ruby\nputs 1\n# c\n~~~\n") == (2, 1)
    # A shorter fence inside a longer one is content, not a close.
    assert chat_code_lines("````md\n```py\nx = 1\n```\n````\n") == (3, 3)
    # An unclosed fence runs to the end of the reply.
    assert chat_code_lines("```py\na = 1\nb = 2") == (2, 2)
    assert chat_code_lines("  ```bash\n  ls\n  ```\n") == (1, 1)


# --- code_stats ---------------------------------------------------------------------------------

FILES = {
    "solution.py": SOLUTION,
    "tests/test_solution.py": "from solution import add\n\ndef test_add():\n    assert add(1, 2)\n",
    "web/app.js": "// entry\nexport const x = 1;\n",
}


def test_code_stats_with_selfcheck_as_test() -> None:
    stats = code_stats(FILES, selfcheck_as_test=True)
    assert stats == CodeStats(
        files=3,
        src_files=2,
        test_files=1,
        total_loc=5,
        src_loc=3,
        test_loc=6,
        gz_code=gz_size(SOLUTION_SRC + "\n" + FILES["web/app.js"]),
    )


def test_code_stats_selfcheck_stays_source_otherwise() -> None:
    stats = code_stats(FILES, selfcheck_as_test=False)
    assert stats == CodeStats(
        files=3,
        src_files=2,
        test_files=1,
        total_loc=8,
        src_loc=6,
        test_loc=3,
        gz_code=gz_size(SOLUTION + "\n" + FILES["web/app.js"]),
    )


def test_code_stats_selfcheck_only_in_python() -> None:
    js = "const a = 1;\nif __name__ == 1\n"
    assert code_stats({"a.js": js}, selfcheck_as_test=True).total_loc == 2


def test_code_stats_empty_and_as_record() -> None:
    assert code_stats({}, selfcheck_as_test=True) == CodeStats()
    stats = CodeStats(files=1, src_files=2, test_files=3, total_loc=4, src_loc=5, test_loc=6, gz_code=7)
    assert stats.as_record() == {
        "files": 1,
        "src_files": 2,
        "test_files": 3,
        "total_loc": 4,
        "src_loc": 5,
        "test_loc": 6,
        "gz_code": 7,
    }
    # the record takes the dataclass's fields as they are: each must be a record field
    assert set(stats.as_record()) <= set(Record.__annotations__)


# --- workspace files and delivered stats --------------------------------------------------------


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_file_sha256(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"abc")
    assert file_sha256(tmp_path / "f") == (  # the FIPS 180-2 test vector
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )


def test_workspace_files_skips_what_is_not_delivered(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "main.py": "x = 1\n",
            "pkg/mod.py": "y = 2\n",
            "web/index.html": "<p>hi</p>\n",
            "tests/test_main.py": "def test(): pass\n",
            "seed.py": "seeded\n",
            "README.md": "# readme\n",
            "data.json": "{}\n",
            ".eslintrc.js": "module.exports={}\n",
            ".github/x.py": "a\n",
            ".git/hooks/x.py": "a\n",
            ".venv/lib/x.py": "a\n",
            "node_modules/lib/index.js": "a\n",
            "pkg/__pycache__/mod.py": "a\n",
            "venv/lib/site.py": "a\n",
            "env2/pyvenv.cfg": "home = /usr\n",
            "env2/lib/x.py": "a\n",
            "_ponybench_probe.py": "a\n",
            "yarn.lock": "a\n",
            "dist/app.min.js": "a\n",
        },
    )
    assert workspace_files(tmp_path, exclude=["seed.py"]) == [
        "main.py",
        "pkg/mod.py",
        "tests/test_main.py",
        "web/index.html",
    ]


def test_workspace_files_never_follows_symlinks(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, {"big.py": "x = 1\n" * 1000})
    ws = tmp_path / "ws"
    write(ws, {"real.py": "x = 1\n"})
    (ws / "linked").symlink_to(outside, target_is_directory=True)
    (ws / "alias.py").symlink_to(outside / "big.py")
    (ws / "dangling.py").symlink_to(tmp_path / "missing.py")
    assert workspace_files(ws) == ["real.py"]
    stats = delivered_stats(ws, seeded={}, selfcheck_as_test=False)
    assert (stats.files, stats.total_loc) == (1, 1)


SEED = {"a.py": "A = 1\n", "b.py": "B = 1\n", "README.md": "hello\n"}


def test_delivered_stats_counts_only_touched_seeded_files(tmp_path: Path) -> None:
    write(tmp_path, SEED)
    seeded = {rel: file_sha256(tmp_path / rel) for rel in SEED}
    b_new = "B = 2\n# changed\nC = 3\n"
    c_new = "def c():\n    return 3\n"
    write(
        tmp_path,
        {
            "b.py": b_new,
            "c.py": c_new,
            "tests/test_c.py": "def test_c():\n    assert True\n",
            "_ponybench_probe.py": "import sys\n",
        },
    )
    stats = delivered_stats(tmp_path, seeded=seeded, selfcheck_as_test=False)
    assert stats == CodeStats(
        files=3,
        src_files=2,
        test_files=1,
        total_loc=5,
        src_loc=4,
        test_loc=2,
        gz_code=gz_size(b_new + "\n" + c_new),
    )


def test_delivered_stats_nothing_touched(tmp_path: Path) -> None:
    write(tmp_path, SEED)
    seeded = {rel: file_sha256(tmp_path / rel) for rel in SEED}
    assert delivered_stats(tmp_path, seeded=seeded, selfcheck_as_test=True) == CodeStats()


def test_delivered_stats_selfcheck_in_modified_seed(tmp_path: Path) -> None:
    write(tmp_path, {"solution.py": "def add(a, b):\n    raise NotImplementedError\n"})
    seeded = {"solution.py": file_sha256(tmp_path / "solution.py")}
    write(tmp_path, {"solution.py": SOLUTION})
    stats = delivered_stats(tmp_path, seeded=seeded, selfcheck_as_test=True)
    assert (stats.src_files, stats.total_loc, stats.src_loc, stats.test_loc) == (1, 3, 2, 3)


# --- diff_stats in a real git repository --------------------------------------------------------


def git(ws: Path, *args: str) -> None:
    gitcmd.check(ws, *args)


def seed_repo(ws: Path, files: dict[str, str]) -> None:
    write(ws, files)
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "--allow-empty", "--no-verify", "-m", "seeded base")


APP = "import os\n\n\ndef main():\n    return os.getcwd()\n"


def test_diff_stats_counts_added_code_lines(tmp_path: Path) -> None:
    seed_repo(tmp_path, {"app.py": APP, "util.py": "X = 1\n"})
    write(
        tmp_path,
        {
            "app.py": APP + "\n# new helper\ndef helper():\n    return 2\n",  # +4, 3 non-blank
            "src/new.py": "# module\n\nVALUE = 42\nprint(VALUE)\n",  # 3 non-blank, 1 comment
            "tests/test_new.py": "from src.new import VALUE\n\n\ndef test_value():\n"
            "    assert VALUE == 42\n",  # 3 non-blank
            "package-lock.json": '{\n  "lockfileVersion": 3\n}\n' * 50,
            "static/vendor.min.js": "var a=1;\n" * 5,
            "notes.md": "# notes\n",
        },
    )
    (tmp_path / "blob.py").write_bytes(b"\x00\x01\x02binary")
    stats = diff_stats(tmp_path)
    added_src = [
        "",
        "# new helper",
        "def helper():",
        "    return 2",
        "# module",
        "",
        "VALUE = 42",
        "print(VALUE)",
    ]
    assert stats == CodeStats(
        files=3,
        src_files=2,
        test_files=1,
        total_loc=6,
        src_loc=4,
        test_loc=3,
        gz_code=gz_size("\n".join(added_src)),
    )
    assert diff_stats(tmp_path) == stats  # staging again changes nothing


def test_diff_stats_nothing_changed(tmp_path: Path) -> None:
    seed_repo(tmp_path, {"app.py": APP})
    assert diff_stats(tmp_path) == CodeStats()


def test_diff_stats_empty_seed(tmp_path: Path) -> None:
    seed_repo(tmp_path, {})
    assert diff_stats(tmp_path) == CodeStats()
    write(tmp_path, {"a.py": "x = 1\n"})
    assert diff_stats(tmp_path).total_loc == 1


def test_diff_stats_without_any_commit_counts_everything(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    write(tmp_path, {"a.py": "x = 1\ny = 2\n"})
    assert diff_stats(tmp_path).total_loc == 2


def test_diff_stats_ignores_symlinks_and_removals(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, {"big.py": "x = 1\n" * 100})
    ws = tmp_path / "ws"
    seed_repo(ws, {"gone.py": "a = 1\n"})
    (ws / "gone.py").unlink()
    (ws / "alias.py").symlink_to(outside / "big.py")
    (ws / "linked").symlink_to(outside, target_is_directory=True)
    assert diff_stats(ws) == CodeStats()


def test_diff_stats_ignores_inherited_git_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed_repo(tmp_path, {"app.py": APP})
    write(tmp_path, {"b.py": "b = 1\n"})
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "nowhere"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(tmp_path / "nowhere-index"))
    assert diff_stats(tmp_path).total_loc == 1


def test_diff_stats_requires_own_repository(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "x = 1\n"})
    with pytest.raises(GitError, match="no .git directory"):
        diff_stats(tmp_path)


def test_diff_stats_refuses_filter_planted_by_agent(tmp_path: Path) -> None:
    seed_repo(tmp_path, {"app.py": APP})
    marker = tmp_path.parent / f"{tmp_path.name}-pwned"
    write(tmp_path, {".gitattributes": "*.py filter=evil\n", "b.py": "b = 1\n"})
    with (tmp_path / ".git" / "config").open("a", encoding="utf-8") as fh:
        fh.write(f'[filter "evil"]\n\tclean = touch {marker}\n')
    with pytest.raises(GitError, match="filter.evil.clean"):
        diff_stats(tmp_path)
    assert not marker.exists()
