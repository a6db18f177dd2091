"""Claude Code's `claude plugin eval` (CPE): its results read as records, its suites imported.

- `read_aggregate(path)`: an `aggregate-result.json` as ponybench records (cases as tasks, with
  and without the plugin as arms, runs as runs), so `ponybench compare` puts intervals, p values
  and the gate on results people already have;
- `import_suite(evals_dir, tasks_dir)`: a CPE suite (`case.yaml`, or `prompt.md` with front
  matter and `graders/<name>.md`) as ponybench task folders, with a checklist of what has no
  equivalent here.
"""

from __future__ import annotations

from pytest_ponybench.cpe.aggregate import AGGREGATE_FILE, Aggregate, AggregateError, describe, read_aggregate
from pytest_ponybench.cpe.names import arm_name, tag_name, task_id

__all__ = [
    "AGGREGATE_FILE",
    "Aggregate",
    "AggregateError",
    "arm_name",
    "describe",
    "read_aggregate",
    "tag_name",
    "task_id",
]
