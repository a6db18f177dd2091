"""The plan of this pytest run, as pytest's config asks for it: whether the run only lists (its
cells, markers or fixtures), and the arms other plugins add (`pytest_ponybench_arms`); the plan
itself is resolved from the settings and frozen by plan/plan.py, in pytest_configure.
"""

from __future__ import annotations

import pytest

from pytest_ponybench.errors import PonybenchError
from pytest_ponybench.plan import plan as plan_mod
from pytest_ponybench.plan.options import Mode, Settings
from pytest_ponybench.plan.plan import Plan

__all__ = ["resolve"]


def _hook_arms(config: pytest.Config) -> list[tuple[str, str]]:
    """Arm specs from pytest_ponybench_arms implementations, each with where it came from."""
    hook = config.hook.pytest_ponybench_arms
    out: list[tuple[str, str]] = []
    for impl in hook.get_hookimpls():
        specs = impl.function(config=config)
        source = f"pytest_ponybench_arms in {impl.plugin_name}"
        if specs is None:
            continue
        if not isinstance(specs, list | tuple) or not all(isinstance(s, str) for s in specs):
            raise PonybenchError(f"{source}: must return a list of arm specs (strings), not {specs!r}")
        out += [(s, source) for s in specs]
    return out


def resolve(config: pytest.Config, mode: Mode, settings: Settings) -> Plan:
    """The frozen plan of this pytest run; every problem is a usage error before collection."""
    # Runs that show something and run nothing: no run dir, no claude started.
    opts = config.option
    collect_only = any(
        bool(getattr(opts, name, False))
        for name in ("collectonly", "markers", "showfixtures", "show_fixtures_per_test")
    )
    # Only a new run takes arms from the hook: a resume or a rescore takes its run's.
    added = _hook_arms(config) if mode is Mode.RUN else []
    return plan_mod.resolve(mode, settings, collect_only=collect_only, added=added)
