"""Is the arm exercised: the summary's skill column and the warning for a skill never used, from
the record fields skills_available / skills_used (the integration test fills them from the
real CLI's stream: tests/integration/test_offline_ab.py)."""

from __future__ import annotations

from pytest_ponybench.analysis import report, stats
from pytest_ponybench.core.records import Record, loaded


def cell(task: str, arm: str, available: list[str], used: list[str]) -> Record:
    return loaded(
        {
            "task": task,
            "arm": arm,
            "model": "sonnet",
            "run": 0,
            "valid": True,
            "correct": True,
            "safe": True,
            "total_loc": 10,
            "skills_available": available,
            "skills_used": used,
        }
    )


SKILL = ["mine:review"]


def test_the_skill_column_is_the_share_of_cells_that_used_what_their_plugin_registered() -> None:
    records = [cell(f"t{i}", "baseline", [], []) for i in range(4)]
    records += [cell(f"t{i}", "mine", SKILL, SKILL if i < 3 else []) for i in range(4)]
    table = report.render_table(records)
    header = next(line for line in table.splitlines() if line.strip().startswith("arm"))
    assert header.rstrip().endswith("skill")
    rows = {line.split()[0]: line.split() for line in table.splitlines()[-3:] if line.strip()}
    assert rows["mine"][-1] == "75%" and rows["baseline"][-1] == "-"
    # A skill used under another name (a built-in skill) is not the arm's.
    other = [cell("t0", "mine", SKILL, ["simplify"])]
    assert report.summarize(other)["skill_used"] == 0.0


def test_no_column_where_no_plugin_registered_anything() -> None:
    table = report.render_table([cell("t0", "baseline", [], []), cell("t0", "terse", [], [])])
    assert "skill" not in table


def test_a_skill_available_and_never_used_is_warned_about() -> None:
    records = [cell(f"t{i}", "baseline", [], []) for i in range(3)]
    records += [cell(f"t{i}", "mine", SKILL, []) for i in range(3)]
    (row,) = stats.verdicts(records)
    assert (
        "warning: mine's plugin registered mine:review in 3 cells and no session used it: the arm was "
        "loaded but not exercised"
    ) in row["notes"]
    used = records[:3] + [cell(f"t{i}", "mine", SKILL, SKILL if i == 0 else []) for i in range(3)]
    (row,) = stats.verdicts(used)
    assert not any("not exercised" in n for n in row["notes"])
