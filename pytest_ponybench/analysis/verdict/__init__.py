"""Verdict blocks (text and Markdown), the two-run comparison and the regression gate's report.

Pure functions over records: the statistics come from `stats`, this package decides how they
are read. A verdict block is one arm against the baseline for one model: the procedure and the
family it is decided in, then per metric the estimate, its 95 % interval, one word (better /
worse / undecided) and the adjusted p, then what is decided and, for the rest, why not: how
many tasks would settle it, or what is ruled out; then the missing cells' bound, reliability
(pass^k, pass@k) and the noise floor.

- `words`: one effect in numbers and words, and why it is undecided;
- `runs`: which rows a run's records get (none without a baseline; a sequential run's last look);
- `blocks`: the lines around a block's table (procedure, family, bound, reliability, floor);
- `render`: the blocks as text and as Markdown;
- `compare`: two runs relabeled into one comparison;
- `gate_report`: every (rule, arm) of `--fail-on` with its outcome, in words.

Every name importers used when this was one module is re-exported here, so
`from pytest_ponybench.analysis.verdict import X` and `verdict.X` keep working.
"""

from __future__ import annotations

from pytest_ponybench.analysis.verdict.blocks import (
    TWIN_NOTE,
    bound_line,
    family_line,
    floor_line,
    footer_lines,
    header_lines,
    procedure_line,
    reliability_lines,
)
from pytest_ponybench.analysis.verdict.compare import (
    SOURCE_ARM,
    SOURCE_MODEL,
    SOURCE_RUN,
    compare_runs,
    compare_verdicts,
    grid_notes,
)
from pytest_ponybench.analysis.verdict.gate_report import GateFailure, GateOutcome, check_gate, gate_report
from pytest_ponybench.analysis.verdict.render import (
    HEADER,
    INTRO,
    render_rows,
    render_rows_markdown,
    render_verdicts,
    render_verdicts_markdown,
)
from pytest_ponybench.analysis.verdict.runs import (
    RunVerdicts,
    arm_verdicts,
    arms_of,
    run_verdicts,
    why_no_verdict,
)
from pytest_ponybench.analysis.verdict.words import (
    METRIC_NAMES,
    decided_sentence,
    fmt_estimate,
    fmt_interval,
    fmt_p,
    is_decided,
    undecided_clauses,
    why_undecided,
    word,
)

__all__ = [
    "GateFailure",
    "GateOutcome",
    "HEADER",
    "INTRO",
    "METRIC_NAMES",
    "SOURCE_ARM",
    "SOURCE_MODEL",
    "SOURCE_RUN",
    "TWIN_NOTE",
    "arm_verdicts",
    "arms_of",
    "bound_line",
    "check_gate",
    "compare_runs",
    "compare_verdicts",
    "decided_sentence",
    "family_line",
    "floor_line",
    "fmt_estimate",
    "fmt_interval",
    "fmt_p",
    "footer_lines",
    "gate_report",
    "grid_notes",
    "header_lines",
    "is_decided",
    "procedure_line",
    "reliability_lines",
    "render_rows",
    "render_rows_markdown",
    "render_verdicts",
    "render_verdicts_markdown",
    "run_verdicts",
    "RunVerdicts",
    "undecided_clauses",
    "why_no_verdict",
    "why_undecided",
    "word",
]
