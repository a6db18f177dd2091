"""The multiple-testing procedure: weighted Holm, the weights of a block and of a family, and the
step-down on other levels (a sequential look's)."""

from __future__ import annotations

import random

import pytest

from pytest_ponybench.analysis import procedure, stats


def test_weighted_holm_by_hand() -> None:
    # p / w = 0.02, 0.16, 0.12: the first at 0.02 * 1.0; then H3 at 0.12 * (0.25 + 0.25); then
    # H2 at 0.16 * 0.25 = 0.04, kept monotone at 0.06.
    assert procedure.weighted_holm([0.01, 0.04, 0.03], [0.5, 0.25, 0.25]) == pytest.approx([0.02, 0.06, 0.06])
    assert procedure.weighted_holm([], []) == []


def test_weighted_holm_with_equal_weights_is_holm() -> None:
    rng = random.Random(3)
    for _ in range(200):
        ps = [rng.random() ** 3 for _ in range(rng.randint(1, 10))]
        assert procedure.weighted_holm(ps, [1.0] * len(ps)) == pytest.approx(stats.holm(ps))


def test_a_zero_weight_never_rejects_and_bad_weights_are_refused() -> None:
    assert procedure.weighted_holm([1e-9, 0.01], [0.0, 1.0]) == pytest.approx([1.0, 0.01])
    with pytest.raises(ValueError, match="2 p-values but 1 weights"):
        procedure.weighted_holm([0.1, 0.2], [1.0])
    with pytest.raises(ValueError, match="negative weight"):
        procedure.weighted_holm([0.1], [-1.0])


def test_the_primary_gets_most_of_its_block() -> None:
    w = procedure.block_weights(["pass", "total_loc", "cost_usd", "tokens", "duration_ms"], "pass")
    assert w["pass"] == pytest.approx(0.9)
    assert [w[m] for m in ("total_loc", "cost_usd", "tokens", "duration_ms")] == pytest.approx([0.025] * 4)
    assert sum(w.values()) == pytest.approx(1.0)
    # A primary without data leaves its block to the rest; a lone primary takes it all.
    assert procedure.block_weights(["cost_usd", "tokens"], "pass") == {"cost_usd": 0.5, "tokens": 0.5}
    assert procedure.block_weights(["pass"], "pass") == {"pass": 1.0}
    family = procedure.family_weights([["pass", "cost_usd"], [], ["pass"]], "pass")
    assert family == [pytest.approx({"pass": 0.45, "cost_usd": 0.05}), {}, {"pass": 0.5}]


def test_pass_alone_decides_what_holm_over_five_did_not() -> None:
    """The offline A/B of docs/verdicts.md before this procedure: pass p 0.0127 beside four
    metrics that do not move; Holm over five gave 0.063, pass first gives 0.0127 / 0.9 * (its
    weight and the four left) = 0.0141."""
    ps = [0.0127, 0.8, 0.9, 0.7, 0.95]
    holm = stats.holm(ps)
    assert holm[0] == pytest.approx(0.0635)
    weights = [0.9, 0.025, 0.025, 0.025, 0.025]
    assert procedure.weighted_holm(ps, weights)[0] == pytest.approx(0.0127 / 0.9)


def test_a_decided_primary_hands_its_level_to_the_rest() -> None:
    # pass decided first; cost then stands alone against the four secondaries' weight: Holm at
    # the full level among them (0.011 * 0.1 / 0.025 = 0.044).
    ps = [0.001, 0.011, 0.5, 0.5, 0.5]
    adjusted = procedure.weighted_holm(ps, [0.9, 0.025, 0.025, 0.025, 0.025])
    assert adjusted[1] == pytest.approx(0.044)
    assert adjusted[1] < 0.05


def test_step_down_on_the_identity_levels_decides_as_weighted_holm() -> None:
    rng = random.Random(11)
    for _ in range(300):
        m = rng.randint(1, 8)
        ps = [rng.random() ** 4 for _ in range(m)]
        ws = [rng.random() + 0.01 for _ in range(m)]
        total = sum(ws)
        ws = [w / total for w in ws]
        holm = procedure.weighted_holm(ps, ws)
        down = procedure.step_down(ps, ws, lambda share: 0.05 * share, 0.05)
        assert [h <= 0.05 for h in holm] == [d <= 0.05 for d in down], (ps, ws)


def test_step_down_on_stricter_levels_decides_less() -> None:
    ps, ws = [0.004, 0.02], [0.5, 0.5]
    assert procedure.step_down(ps, ws, lambda share: 0.05 * share) == pytest.approx([0.008, 0.02])
    # A look's boundary at a fifth of every level: the first is decided (0.004 <= 0.005), and
    # hands its weight on, but the second misses its 0.01.
    strict = procedure.step_down(ps, ws, lambda share: 0.01 * share)
    assert strict == pytest.approx([0.04, 0.1])


def test_the_family_says_itself() -> None:
    family = procedure.Family("run", "every arm and model of the run", 3, 15)
    assert family.describe() == (
        "family: every arm and model of the run (3 comparisons, 15 tests), familywise error <= 5%"
    )
