"""A plugin arm the CLI could not load would measure the baseline under the arm's name: such a
cell is invalid, with the CLI's own reason, never scored as the arm."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import make_plugin, records, run_dirs

pytestmark = pytest.mark.needs_claude

# Removes the plugin after the plan validated it and before any cell runs: the CLI then reports
# it in the init event's plugin_errors, as it does for a folder it cannot read. (Without the
# offline activation check, which would have copied it for the cells before it was removed.)
CONFTEST = """
import shutil
from pathlib import Path

def pytest_collection_finish(session):
    shutil.rmtree(Path(str(session.config.rootpath)) / "plugins" / "marker-plugin", ignore_errors=True)
"""


def test_a_plugin_the_cli_could_not_load_makes_the_cell_invalid(
    pytester: pytest.Pytester, bench_project: Callable[..., Path]
) -> None:
    root = bench_project(tasks=["merge_intervals"])
    make_plugin(root)
    pytester.makeconftest(CONFTEST)
    result = pytester.runpytest_subprocess(
        "benchmarks",
        "-p",
        "no:xdist",
        "--models",
        "offline-reference",
        "--arm",
        "marked=plugin:plugins/marker-plugin",
        "--skip-preflight",
    )
    result.assert_outcomes(passed=1, errors=1)
    recs = {r["arm"]: r for r in records(run_dirs(root)[0])}
    assert recs["baseline"]["valid"] is True
    assert recs["marked"]["valid"] is False
    assert recs["marked"]["error"].startswith("the arm's plugin was not loaded: "), recs["marked"]["error"]
    # Its health says the same, in the words every arm error has.
    (error,) = recs["marked"]["arm_errors"]
    assert error["kind"] == "plugin" and error["message"].startswith("could not be loaded: "), error
    assert "ponybench: pre-flight:" not in result.stdout.str()
