"""The run dir: identical summaries with and without xdist, interrupt and resume, rescore,
missing cells, torn records, one session per run dir (sessions started together, two resumes
at once, a resume after SIGKILL). Nothing is lost."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import records, run_dirs, tagged_processes

pytestmark = pytest.mark.needs_claude

QUICK_MODELS = "offline-reference,offline-flawed"


def _without_times(summary: dict[str, object]) -> dict[str, object]:
    def clean(rows: object) -> object:
        assert isinstance(rows, list)
        return [{k: v for k, v in r.items() if not k.startswith("time_")} for r in rows]

    return {k: clean(v) if k in ("rows", "models") else v for k, v in summary.items()}


def test_summary_is_identical_at_n0_and_n2(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup", "merge_intervals", "cart_bogo", "explain_fixture_scopes"])
    summaries = []
    for workers in ("0", "2"):
        result = pytester.runpytest_subprocess("benchmarks", "-n", workers, "--models", QUICK_MODELS)
        result.assert_outcomes(passed=5, xfailed=3)  # flawed cells: strict xfail
        newest = run_dirs(root)[-1]
        summaries.append(json.loads((newest / "summary.json").read_text()))
        time.sleep(1.1)  # run dirs are named by the second
    assert _without_times(summaries[0]) == _without_times(summaries[1])
    assert summaries[0]["rows"] and summaries[0]["missing"] == []


def _as_from_a_terminal() -> None:
    """Ctrl-C as a terminal's shell starts a command: a background job of a shell without job
    control (`cmd &` in a script, say) ignores SIGINT, and the ignoring is inherited."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(root: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", *args],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        preexec_fn=_as_from_a_terminal,
    )


def _wait_for_records(root: Path, n: int, proc: subprocess.Popen[bytes]) -> Path:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        dirs = run_dirs(root) if (root / "runs").exists() else []
        if dirs and (dirs[0] / "results.jsonl").exists() and len(records(dirs[0])) >= n:
            return dirs[0]
        assert proc.poll() is None, "the run ended before it could be interrupted"
        time.sleep(0.1)
    raise AssertionError("no records appeared")


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_interrupt_keeps_finished_cells_and_resume_completes_the_grid(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], process_tag: str, how: str
) -> None:
    root = bench_project()
    proc = _start(root, "benchmarks", "-n", "2", "--models", QUICK_MODELS)
    run_dir = _wait_for_records(root, 4, proc)
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole group
    else:
        proc.send_signal(signal.SIGTERM)  # a CI runner cancelling: the controller only
    out, _ = proc.communicate(timeout=120)
    text = out.decode(errors="replace")
    assert proc.returncode != 0
    deadline = time.monotonic() + 10
    while tagged_processes(process_tag) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert tagged_processes(process_tag) == [], "a claude or scorer process survived"
    assert f"--resume {run_dir}" in text, text[-2000:]
    run_json = json.loads((run_dir / "run.json").read_text())
    grid = run_json["grid"]
    # The judge that would grade is recorded with the grid (an all-offline run's is offline).
    assert (run_json["options"]["judge_model"], run_json["options"]["judge_runs"]) == ("offline-judge", 1)
    first = records(run_dir)
    finished = {r["cell_id"] for r in first if r.get("valid")}
    assert 4 <= len(finished) < len(grid)
    for cell_id in finished:  # every finished cell kept its workspace
        assert (run_dir / "cells" / cell_id / "workspace").is_dir()

    result = pytester.runpytest_subprocess("benchmarks", "-n", "2", "--resume", str(run_dir))
    outcomes = result.parseoutcomes()
    # Only the cells without a valid record ran (xdist workers deselect the rest silently).
    ran = sum(outcomes.get(k, 0) for k in ("passed", "failed", "xfailed"))
    assert ran == len(grid) - len(finished)
    recs = records(run_dir)
    valid = Counter(r["cell_id"] for r in recs if r.get("valid"))
    assert set(valid) == set(grid)
    assert all(n == 1 for n in valid.values()), valid
    assert len(run_dirs(root)) == 1  # appended to the same run dir


def _path_without_claude(tmp: Path) -> str:
    """A PATH holding the tools the checks and the diff need, and no claude."""
    bin_dir = tmp / "bin-without-claude"
    bin_dir.mkdir()
    for tool in ("git", "wc", "unshare", "setpriv", "pgrep"):
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    return str(bin_dir)


def test_rescore_after_editing_one_check_changes_only_that_task(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = bench_project(tasks=["sql_lookup", "merge_intervals", "cart_bogo"])
    pytester.runpytest_subprocess("benchmarks", "-n", "2", "--models", QUICK_MODELS)
    run_dir = run_dirs(root)[0]
    before = {r["cell_id"]: r for r in records(run_dir)}
    check = root / "benchmarks" / "tasks" / "merge_intervals" / "checks" / "test_correct_extra.py"
    check.write_text("def test_always_fails():\n    assert False, 'edited check'\n")
    # Torn last line from a crash: must be skipped, not merged.
    with open(run_dir / "results.jsonl", "a") as fh:
        fh.write('{"cell_id": "half')
    monkeypatch.setenv("PATH", _path_without_claude(pytester.path))
    result = pytester.runpytest_subprocess("benchmarks", "--rescore", str(run_dir))
    # The edited check fails the reference cell; the flawed cells still fail as intended.
    result.assert_outcomes(passed=2, failed=1, xfailed=3)
    rescored = [p for p in run_dir.iterdir() if p.name.startswith("rescore-")]
    assert len(rescored) == 1
    after = {r["cell_id"]: r for r in records(rescored[0])}
    assert set(after) == set(before)
    for cell_id, rec in after.items():
        old = before[cell_id]
        if rec["task"] == "merge_intervals":
            assert rec["correct"] is False, cell_id
            checks = {c["nodeid"].split("::")[-1]: c["outcome"] for c in rec["checks"]}
            assert checks["test_always_fails"] == "failed", checks
            if rec["model"] == "offline-reference":  # its only failing check is the new one
                assert "edited check" in rec["reason"] and old["correct"] is True
        else:
            assert (rec["correct"], rec["safe"], rec["total_loc"]) == (
                old["correct"],
                old["safe"],
                old["total_loc"],
            ), cell_id
        assert rec["cost_usd"] == old["cost_usd"] and rec["rescored_from"] == str(run_dir)
    assert json.loads((rescored[0] / "summary.json").read_text())["rows"]
    rescore_run = json.loads((rescored[0] / "run.json").read_text())
    assert rescore_run["rescore_of"] == str(run_dir) and sorted(rescore_run["grid"]) == sorted(after)
    # The source run is untouched apart from the torn line we wrote.
    assert {r["cell_id"]: r for r in records_tolerant(run_dir)} == before


def test_a_rescore_grades_the_sessions_tool_calls_again(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tool graders read the kept session on a rescore, as in the cell: an unchanged task gives
    every cell the same grader outcomes, score and axes (they once read the reply alone, and a
    `tool_used` grader failed on a cell that had made the call)."""
    # Tasks whose graders read the tool path and no judge (a rescore asks none).
    root = bench_project(tasks=["graded_skill_parse_port", "graded_workflow_slug_tests"])
    pytester.runpytest_subprocess("benchmarks", "-n", "2", "--models", QUICK_MODELS)
    run_dir = run_dirs(root)[0]
    before = {r["cell_id"]: r for r in records(run_dir)}
    monkeypatch.setenv("PATH", _path_without_claude(pytester.path))
    pytester.runpytest_subprocess("benchmarks", "--rescore", str(run_dir))
    (rescored,) = [p for p in run_dir.iterdir() if p.name.startswith("rescore-")]
    after = {r["cell_id"]: r for r in records(rescored)}
    assert set(after) == set(before) and len(after) == 4
    tool_graded = 0
    for cell_id, rec in after.items():
        old = before[cell_id]
        outcomes = {g["name"]: g["passed"] for g in rec["graders"]}
        assert outcomes == {g["name"]: g["passed"] for g in old["graders"]}, cell_id
        assert (rec["correct"], rec["safe"], rec["score"]) == (old["correct"], old["safe"], old["score"]), (
            cell_id
        )
        tool_graded += any(g["type"].startswith("tool_") and g["passed"] for g in rec["graders"])
    assert tool_graded >= 2  # a tool grader passed on rescored cells: the calls were read


def records_tolerant(run_dir: Path) -> list[dict[str, object]]:
    out = []
    for line in (run_dir / "results.jsonl").read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def test_resume_tolerates_a_torn_last_line(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup", "merge_intervals"])
    pytester.runpytest_subprocess("benchmarks", "--models", "offline-reference", "-k", "sql")
    run_dir = run_dirs(root)[0]
    with open(run_dir / "results.jsonl", "a") as fh:
        fh.write('{"cell_id": "merge_intervals-baseline-offline-reference-r0", "task": "mer')
    result = pytester.runpytest_subprocess("benchmarks", "--resume", str(run_dir))
    result.assert_outcomes(passed=1, deselected=1)
    recs = records_tolerant(run_dir)
    assert sorted(str(r["cell_id"]) for r in recs) == [
        "merge_intervals-baseline-offline-reference-r0",
        "sql_lookup-baseline-offline-reference-r0",
    ]


def test_a_crashed_worker_leaves_missing_cells_named(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup", "merge_intervals", "line_count"])
    (root / "benchmarks" / "conftest.py").write_text(
        "import os\n\n"
        "def pytest_runtest_setup(item):\n"
        "    if 'merge_intervals' in item.nodeid:\n"
        "        os._exit(1)  # a worker dying mid-run\n"
    )
    result = pytester.runpytest_subprocess(
        "benchmarks", "-n", "2", "--max-worker-restart", "0", "--models", "offline-reference"
    )
    assert result.ret != 0
    run_dir = run_dirs(root)[0]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert "merge_intervals-baseline-offline-reference-r0" in summary["missing"]
    result.stdout.fnmatch_lines(
        ["*cell(s) left no record:*", "  missing: merge_intervals-baseline-offline-reference-r0"]
    )
    result.stdout.fnmatch_lines([f"resume with: pytest benchmarks -n 2 --resume {run_dir}"])


# A root conftest that holds every session it is loaded in (at import, before any plugin's
# pytest_configure: before the controller takes a run dir) until the go file exists: sessions
# started together then reach their run dir within milliseconds, not a start-up apart.
_STARTING_GATE = """
import time
from pathlib import Path

go = Path(__file__).with_name("go")
while not go.exists():
    time.sleep(0.001)
"""


def _release_at_a_second_start(go: Path) -> None:
    """Open the gate just after a second begins: sessions a few ms apart share the stamp."""
    time.sleep(1.0 - time.time() % 1.0 + 0.01)
    go.touch()


def _gated(root: Path, *sessions: tuple[str, ...]) -> list[tuple[int, int, str]]:
    """Start the sessions, let them through the gate together; (pid, exit code, output) each."""
    (root / "conftest.py").write_text(_STARTING_GATE)
    procs = [_start(root, *args) for args in sessions]
    time.sleep(3.0)  # every session resolved its plan and is waiting at the gate
    _release_at_a_second_start(root / "go")
    done = []
    for proc in procs:
        out, _ = proc.communicate(timeout=300)
        done.append((proc.pid, proc.returncode, out.decode(errors="replace")))
    (root / "conftest.py").unlink()  # later sessions in this project pass freely
    (root / "go").unlink()
    return done


def _run_dir_said(out: str) -> Path:
    """The run dir a session's summary names."""
    line = next(ln for ln in out.splitlines() if ln.startswith("run dir: "))
    return Path(line.removeprefix("run dir: ").strip())


def test_three_sessions_started_together_never_share_a_run_dir(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    args = ("benchmarks", "-n", "0", "--models", "offline-reference", "-p", "no:cacheprovider")
    done = _gated(root, *[(*args, f"--junitxml=session-{i}.xml") for i in range(3)])
    dirs = []
    for i, (_, code, out) in enumerate(done):
        assert code == 0, out[-3000:]
        run_dir = _run_dir_said(out)
        dirs.append(run_dir)
        # Its own dir: its run.json is this session's, and it holds this session's one record.
        assert f"--junitxml=session-{i}.xml" in json.loads((run_dir / "run.json").read_text())["argv"]
        (rec,) = records(run_dir)
        assert rec["cell_id"] == "sql_lookup-baseline-offline-reference-r0"
        assert (rec["valid"], rec["correct"], rec["safe"], rec["attempt"]) == (True, True, True, 1), rec
        assert json.loads((run_dir / "summary.json").read_text())["missing"] == []
    assert len(set(dirs)) == 3 and sorted(dirs) == run_dirs(root), dirs
    print("run dirs:", ", ".join(d.name for d in dirs))


def test_two_resumes_at_once_run_the_missing_cells_once(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    first = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-reference", "--runs", "3", "-k", "r0"
    )
    first.assert_outcomes(passed=1, deselected=2)
    (run_dir,) = run_dirs(root)
    resume = ("benchmarks", "-n", "0", "--resume", str(run_dir), "-p", "no:cacheprovider")
    done = _gated(root, resume, resume)
    refused = [(pid, out) for pid, code, out in done if code == pytest.ExitCode.USAGE_ERROR]
    ran = [(pid, out) for pid, code, out in done if code == pytest.ExitCode.OK]
    assert len(refused) == 1 and len(ran) == 1, [(code, out[-1500:]) for _, code, out in done]
    said = refused[0][1]
    assert f"--resume: the run dir {run_dir} is in use by another ponybench process" in said, said
    assert f"(pid {ran[0][0]}, writing it)" in said, said  # the winner's pid
    assert "test_cell[" not in said  # refused before any cell
    assert "2 passed" in ran[0][1], ran[0][1][-2000:]
    recs = records(run_dir)
    # Every cell of the grid once, each a first attempt: the missing two ran exactly once.
    assert sorted((r["cell_id"], r["attempt"]) for r in recs) == [
        (f"sql_lookup-baseline-offline-reference-r{n}", 1) for n in range(3)
    ]
    assert all(r["valid"] and r["correct"] for r in recs)


RUNS = "4"

# A root conftest that keeps the session after its first cell while the hold file exists: the
# test sees a live session for as long as it needs, whatever the machine's load.
_HOLD_AFTER_A_CELL = """
import time
from pathlib import Path

def pytest_runtest_teardown(item):
    hold = Path(__file__).with_name("hold")
    while hold.exists():
        time.sleep(0.05)
"""


def test_a_sigkilled_session_s_run_dir_can_be_resumed(
    pytester: pytest.Pytester, bench_project: Callable[..., Path], process_tag: str
) -> None:
    root = bench_project(tasks=["sql_lookup"])
    (root / "conftest.py").write_text(_HOLD_AFTER_A_CELL)
    (root / "hold").touch()
    proc = _start(root, "benchmarks", "-n", "0", "--models", "offline-reference", "--runs", RUNS)
    run_dir = _wait_for_records(root, 1, proc)
    # While it runs, nothing else writes its dir: a rescore of it, a merge of it, a report into it.
    cli = [sys.executable, "-m", "pytest_ponybench.cli"]
    usage = pytest.ExitCode.USAGE_ERROR
    for args, who, code in (
        ([sys.executable, "-m", "pytest", "benchmarks", "--rescore", str(run_dir)], "--rescore", usage),
        ([*cli, "merge", "-o", str(root / "merged"), str(run_dir)], "ponybench merge", 2),
        ([*cli, "report", str(run_dir)], "ponybench report", 2),
    ):
        done = subprocess.run(args, cwd=root, capture_output=True, text=True, timeout=120)
        said = done.stdout + done.stderr
        assert done.returncode == code and "Traceback" not in said, said[-2000:]
        assert f"{who}: the run dir {run_dir} is in use by another ponybench process" in said, said
        assert f"(pid {proc.pid}, writing it)" in said, said
    assert proc.poll() is None
    assert not (root / "merged").exists() and not (run_dir / "report.html").exists()
    assert not [p for p in run_dir.iterdir() if p.name.startswith("rescore-")]
    (root / "hold").unlink()
    time.sleep(0.5)  # into the second cell: killed with its claude or scorer running
    os.killpg(proc.pid, signal.SIGKILL)  # no handler, no finally: only the kernel lets go
    proc.communicate(timeout=60)
    deadline = time.monotonic() + 20
    while tagged_processes(process_tag) and time.monotonic() < deadline:
        time.sleep(0.2)  # the cell's claude and scorer end with their parent
    assert tagged_processes(process_tag) == [], "a claude or scorer process outlived its session"
    finished = {r["cell_id"] for r in records(run_dir) if r.get("valid")}
    assert 1 <= len(finished) < int(RUNS)
    result = pytester.runpytest_subprocess("benchmarks", "--resume", str(run_dir), "-p", "no:cacheprovider")
    result.assert_outcomes(passed=int(RUNS) - len(finished), deselected=len(finished))
    valid = Counter(r["cell_id"] for r in records(run_dir) if r.get("valid"))
    assert sorted(valid) == [f"sql_lookup-baseline-offline-reference-r{n}" for n in range(int(RUNS))]
    assert set(valid.values()) == {1}


def test_a_run_in_a_clean_checkout_is_recorded_clean(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    """The run dir's lock file comes after the provenance: a new run dir is no change of the
    project (runs/ not ignored, as in a repository ponybench was just added to)."""
    root = bench_project(tasks=["sql_lookup"])
    # pytester's files, and its HOME (the project root) with the harness's caches: not the run's
    (root / ".gitignore").write_text("stdout\nstderr\nrunpytest-*\n.cache/\n")
    ident = ["-c", "user.name=ponybench", "-c", "user.email=ponybench@localhost"]
    for args in (["init", "-q"], ["add", "-A"], [*ident, "commit", "-q", "-m", "project"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    result = pytester.runpytest_subprocess(
        "benchmarks", "--models", "offline-reference", "-p", "no:cacheprovider"
    )
    result.assert_outcomes(passed=1)
    (run_dir,) = run_dirs(root)
    project = json.loads((run_dir / "run.json").read_text())["project"]
    assert project["git_sha"] and project["git_dirty"] is False, project
