"""Names and bounds the options table shares with the modules that use them.

Here, in a module that imports nothing, so that reading the options, which every pytest run of
an environment with ponybench installed does (a project's own test suite too), imports none of
the modules that use them: the graders, the shards and, through them, the task loader and YAML.
"""

from __future__ import annotations

__all__ = ["MAX_JUDGE_RUNS", "OPT_SHARD"]

MAX_JUDGE_RUNS = 9  # answers per judge grader and cell: the run's --judge-runs and a task's own
OPT_SHARD = "--shard"
