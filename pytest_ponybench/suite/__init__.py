"""The built-in suite, runnable from any folder: `pytest --pyargs pytest_ponybench.suite`.

This package holds the suite's cell module (`test_cells`); an installed wheel also holds the
suite's task folders (`tasks/`) and fixture repositories (`fixtures/`), which `setup.py` copies
in from the source tree's `benchmarks/tasks` and `fixtures`. When the command line points here,
the plugin takes its tasks and fixtures from there (`_util/paths.SUITE_TASKS`) whatever the
project's `[tool.ponybench]` says; every other setting is the project's.
"""
