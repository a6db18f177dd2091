"""The statistics package's public face: every name importers used when `analysis/stats` was one
module is still there, each defined once, and the package's modules keep their own privates.

The statistics themselves are tested in files named for their modules, in stats/:
test_distributions, test_sample, test_power, test_effects, test_rows, test_gate, test_cells,
test_missing, test_metrics.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from pytest_ponybench.analysis import stats

# The one module's __all__ before it became a package: a name dropped here breaks an importer
# outside the wing (roles, cli, htmlreport, scripts, tests).
EXPORTED = {
    *("ALPHA", "ArmVerdict", "BETTER", "BOUNDED", "BREAKDOWN", "Bound", "Effect", "FAIL", "FAMILY"),
    *("GateRule", "INVALID_GAP", "Interval", "LIMITS", "MAX_HINT_RUNS", "MAX_HINT_TASKS"),
    *("METRIC_ALIASES", "MIN_SIGN_TASKS", "MISSING_WHY", "NEGLIGIBLE", "PASS", "POWER", "PRIMARY"),
    *("RATE_METRICS", "RATE_RESOLVE", "RATIO_METRICS", "RATIO_RESOLVE", "SCORE", "SHORT_NAMES"),
    *("Spread", "TWO_SIDED", "UNDECIDED", "UNTESTED", "WORSE", "Z_975", "adjust", "bad_number", "betainc"),
    *("bound", "bounded", "canonical_metric", "clustered_mean_se", "compare_gate", "decide"),
    *("directed_p", "finite_mean", "gate_outcome", "has_scores", "holm", "is_negligible"),
    *("judge_number", "metric_value", "needed_runs", "needed_tasks", "newcombe", "paired_log_ratio"),
    *("paired_rate_diff", "paired_t_p", "parse_gate", "pass_value", "primary_of", "sign_tasks"),
    *("sign_test_p", "t_interval", "t_power", "t_quantile", "t_two_sided_p", "task_means", "task_rate"),
    *("tested_metrics", "verdicts", "wilson", "with_p_adj"),
}
PACKAGE = Path(stats.__file__).parent
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")


def test_the_package_exports_what_the_one_module_did() -> None:
    assert set(stats.__all__) == EXPORTED
    assert [n for n in sorted(EXPORTED) if not hasattr(stats, n)] == []


def test_every_exported_name_has_one_home_module() -> None:
    homes: dict[str, list[str]] = {}
    for name in MODULES:
        module = importlib.import_module(f"{stats.__name__}.{name}")
        for exported in module.__all__:
            assert hasattr(module, exported), f"{name}.{exported}"
            homes.setdefault(exported, []).append(name)
    assert {n: m for n, m in homes.items() if len(m) > 1} == {}
    for name in EXPORTED:
        (home,) = homes[name]
        assert getattr(stats, name) is getattr(importlib.import_module(f"{stats.__name__}.{home}"), name)


def test_no_module_imports_a_private_name() -> None:
    # A helper two modules share is public within the package (or moves to its one user).
    private = []
    for path in sorted(PACKAGE.parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pytest_ponybench"):
                private += [f"{path.name}: {a.name}" for a in node.names if a.name.startswith("_")]
    assert private == []
