"""The multiple-testing procedure behind the verdicts: the family, the weights, weighted Holm.

Pure functions, standard library only. A *block* is one arm against the baseline for one model;
its tested metrics are one primary (pass unless declared otherwise) and the secondaries (loc,
cost, tokens, time, and score where graders give one). A *family* is the set of blocks whose
familywise error is held at `alpha` together: every arm of one model (`"model"`, the default)
or every arm and model of the run (`"run"`).

The procedure is the weighted Holm procedure (Holm 1979, with weights; the graphical procedure
of Bretz et al. 2009 with proportional hand-on), with the primary's weight at PRIMARY_SHARE of
its block:

- pass is tested first at 0.9 of the block's level (p < 0.045 for one arm); the secondaries
  share the remaining 0.1 (p < 0.00125 each for four), so cost can be decided when pass is not;
- a decided hypothesis hands its level on to the undecided ones, in proportion to their
  weights: once pass is decided the secondaries are tested at the whole level (Holm at 0.05),
  and a decided secondary raises pass's level a little.

Why this and not serial gatekeeping (pass first at the full level, the rest only once pass is
decided): the gate would leave cost untested whenever pass is not decided, and "what does it
cost" is worth answering then too. Why not plain Holm over the five (the release before): its
first step puts pass at p < 0.01, which cost a third of the power at +25 points over 20 tasks
x 3 runs (52 % against 77 % for the t-test alone). Weighted Holm holds the familywise error at
`alpha` under any dependence between the tests (the metrics share tasks, and cost follows
tokens), with one adjusted p per hypothesis, which is what the table shows. The share 0.9 is
the trade measured by `scripts/simulate_verdicts.py`: pass keeps 98 % of the power it would
have alone at p < 0.05 (75.6 % against 77.1 %), while a secondary's threshold stays within
reach (the t critical value at 19 degrees of freedom is 3.8 at p < 0.00125). A share of 0.95
(4.1 at p < 0.000625) bought pass 0.8 points of power and put the A/A rate over 5 % (5.4 %
against 4.75 % at 0.9; the simulator's main world, 4,000 replications each).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "ALPHA",
    "BETTER_SHARE",
    "DIRECTIONS",
    "FAMILIES",
    "Family",
    "PRIMARY_SHARE",
    "TWIN",
    "block_weights",
    "family_weights",
    "levels",
    "step_down",
    "weighted_holm",
]

ALPHA = 0.05
PRIMARY_SHARE = 0.9
FAMILIES = ("model", "run")
# How the primary is tested: both ways alike (the default), or a pre-declared direction. With
# "better" the primary's level is split one-sidedly: better gets BETTER_SHARE of it (p < 0.04
# for one arm, where the two-sided test has 0.0225 a side) and worse keeps the rest (p < 0.005),
# so a worse arm is still called worse, on stronger evidence. Under no effect the two together
# reject at the primary's level, as the two-sided test does; measured by
# `scripts/simulate_verdicts.py` (docs/verdicts.md).
DIRECTIONS = ("two-sided", "better")
BETTER_SHARE = 8.0 / 9.0
TWIN = "twin"  # an A/A twin's block is a family of its own: a check, not a claim about an arm


@dataclass(frozen=True)
class Family:
    """What one block's familywise error is held over, in words and numbers."""

    mode: str  # "model", "run" or "twin"
    label: str  # "every arm of sonnet", "every arm and model of the run", "this A/A twin alone"
    blocks: int  # blocks in the family
    tests: int  # hypotheses in the family
    alpha: float = ALPHA

    def describe(self) -> str:
        blocks = "1 comparison" if self.blocks == 1 else f"{self.blocks} comparisons"
        return (
            f"family: {self.label} ({blocks}, {self.tests} tests), familywise error <= {100 * self.alpha:g}%"
        )


def weighted_holm(pvalues: Sequence[float], weights: Sequence[float]) -> list[float]:
    """Adjusted p-values of the weighted Holm procedure, in the input order.

    Hypothesis i is rejected at level alpha when its adjusted p is <= alpha. Step by step: the
    smallest p_i / w_i is tested at alpha * w_i / (the weights not yet rejected); a rejection
    hands its weight on. With equal weights this is Holm's procedure. A weight of 0 never
    rejects (adjusted p 1.0). Weights need not sum to 1: they are taken relative to their sum.
    """
    if len(pvalues) != len(weights):
        raise ValueError(f"{len(pvalues)} p-values but {len(weights)} weights")
    if any(w < 0 for w in weights):
        raise ValueError(f"negative weight in {list(weights)}")
    m = len(pvalues)
    adjusted = [1.0] * m
    live = [i for i in range(m) if weights[i] > 0]
    order = sorted(live, key=lambda i: pvalues[i] / weights[i])
    remaining = sum(weights[i] for i in live)
    running = 0.0
    for i in order:
        running = max(running, min(1.0, pvalues[i] / weights[i] * remaining))
        adjusted[i] = running
        remaining -= weights[i]
    return adjusted


def block_weights(metrics: Sequence[str], primary: str, share: float = PRIMARY_SHARE) -> dict[str, float]:
    """Weights of one block's tested metrics (those with data), summing to 1: the primary gets
    `share`, the secondaries split the rest; a block without a primary (no data for it) gives
    everything to the secondaries, a block without secondaries everything to the primary."""
    secondaries = [m for m in metrics if m != primary]
    if primary not in metrics:
        return {m: 1.0 / len(secondaries) for m in secondaries} if secondaries else {}
    if not secondaries:
        return {primary: 1.0}
    rest = (1.0 - share) / len(secondaries)
    return {primary: share, **{m: rest for m in secondaries}}


def family_weights(
    blocks: Sequence[Sequence[str]], primary: str, share: float = PRIMARY_SHARE
) -> list[dict[str, float]]:
    """Per block, the weights of its tested metrics within the family: every block with a
    tested metric gets an equal part of the family's level, split as `block_weights` says."""
    present = [b for b in blocks if b]
    n = len(present)
    return [{m: w / n for m, w in block_weights(b, primary, share).items()} if b else {} for b in blocks]


def levels(weights: Mapping[str, float], alpha: float = ALPHA) -> dict[str, float]:
    """The first-step level of each hypothesis: alpha times its weight in the family."""
    return {m: alpha * w for m, w in weights.items()}


def step_down(
    pvalues: Sequence[float],
    weights: Sequence[float],
    level_of: Callable[[float], float],
    alpha: float = ALPHA,
) -> list[float]:
    """The weighted step-down of `weighted_holm` with any increasing map from a weight share to
    a test level (`level_of(w / remaining)`; plain weighted Holm is alpha * share): at each step
    the hypothesis with the smallest p / level is tested; if p <= level it is decided and its
    weight handed on. Returns p-values adjusted to be read against alpha: p * alpha / level at
    the step a hypothesis was tested, kept monotone along the steps; those not reached get the
    same scaling at the last level they were compared with, and never less than the last one
    decided."""
    if len(pvalues) != len(weights):
        raise ValueError(f"{len(pvalues)} p-values but {len(weights)} weights")
    m = len(pvalues)
    adjusted = [1.0] * m
    live = [i for i in range(m) if weights[i] > 0]
    running = 0.0
    while live:
        remaining = sum(weights[i] for i in live)
        levels_now = {i: level_of(weights[i] / remaining) for i in live}
        i = min(live, key=lambda k: pvalues[k] / levels_now[k] if levels_now[k] > 0 else math.inf)
        scaled = pvalues[i] * alpha / levels_now[i] if levels_now[i] > 0 else 1.0
        running = max(running, min(1.0, scaled))
        adjusted[i] = running
        live.remove(i)
        if pvalues[i] > levels_now[i]:
            # Not decided: nothing is handed on, so the rest are compared at today's levels.
            for k in live:
                scaled_k = pvalues[k] * alpha / levels_now[k] if levels_now[k] > 0 else 1.0
                adjusted[k] = max(running, min(1.0, scaled_k))
            break
    return adjusted
