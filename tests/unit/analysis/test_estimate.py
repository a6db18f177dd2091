"""The price before paying, as pure arithmetic: profiles in, lines out (no claude; the offline
measurement itself is tests/integration/test_dry_run.py)."""

from __future__ import annotations

import pytest

from pytest_ponybench.analysis import estimate
from pytest_ponybench.analysis.estimate import Profile
from pytest_ponybench.core.records import loaded


def offline(model: str) -> bool:
    return model.startswith("offline-")


# 10k input, 1k output, 2k cache writes, 20k cache reads; $0.05 as the CLI priced it offline.
PROFILE = Profile(10_000, 1_000, 2_000, 20_000, 0.05)


def test_list_prices_follow_the_model_family() -> None:
    assert estimate.list_price("claude-sonnet-4-5") == (3.0, 15.0, 3.75, 0.30)
    assert estimate.list_price("opus") == (5.0, 25.0, 6.25, 0.50)
    assert estimate.list_price("claude-opus-4-1-20250805")[0] == 15.0  # type: ignore[index]
    assert estimate.list_price("some-other-model") is None


def test_a_live_model_is_priced_from_the_offline_tokens_with_a_range() -> None:
    (line,) = estimate.estimate([("t", "baseline", "sonnet")], {("t", "baseline"): PROFILE}, {}, offline)
    one = (10_000 * 3.0 + 1_000 * 15.0 + 2_000 * 3.75 + 20_000 * 0.30) / 1e6
    assert line.low == pytest.approx(one) and line.high == pytest.approx(one * estimate.LIVE_FACTOR)
    assert line.source == "offline measurement" and line.priced


def test_an_offline_model_costs_what_the_cli_reported() -> None:
    (line,) = estimate.estimate([("t", "a", "offline-coin")], {("t", "a"): PROFILE}, {}, offline)
    assert line.low == line.high == pytest.approx(0.05)


def test_earlier_runs_of_the_same_cell_win_over_the_measurement() -> None:
    seen = [Profile(1, 1, 1, 1, c) for c in (0.10, 0.20, 0.30)]
    (line,) = estimate.estimate(
        [("t", "a", "sonnet")], {("t", "a"): PROFILE}, {("t", "a", "sonnet"): seen}, offline
    )
    assert (line.low, line.high, line.source) == (0.10, 0.30, "earlier runs")


def test_an_unknown_model_is_not_priced() -> None:
    (line,) = estimate.estimate([("t", "a", "mystery")], {("t", "a"): PROFILE}, {}, offline)
    assert not line.priced
    assert estimate.totals([line]) == (0.0, 0.0)


def test_a_live_judge_is_a_line_of_its_own_on_the_judged_tasks_only() -> None:
    judged = Profile(10_000, 1_000, 2_000, 20_000, 0.05, judge_input_tokens=4_000, judge_output_tokens=200)
    cells = [("j", "baseline", "sonnet"), ("j", "mine", "sonnet"), ("plain", "baseline", "sonnet")]
    measured = {("j", "baseline"): judged, ("j", "mine"): judged, ("plain", "baseline"): PROFILE}
    lines = estimate.estimate(cells, measured, {}, offline, judge="sonnet", judged=frozenset({"j"}))
    judge = lines[-1]
    assert judge.model == "sonnet (judge)" and judge.cells == 2
    per_cell = (4_000 * 3.0 + 200 * 15.0) / 1e6
    assert judge.low == pytest.approx(2 * per_cell)
    assert judge.high == pytest.approx(2 * per_cell * estimate.JUDGE_FACTOR)
    # An offline judge costs nothing: no line.
    assert (
        len(estimate.estimate(cells, measured, {}, offline, judge="offline-judge", judged=frozenset({"j"})))
        == 1
    )


def test_a_profile_reads_the_judge_tokens_of_a_record() -> None:
    rec = loaded(
        {
            "input_tokens": 5,
            "output_tokens": 6,
            "cache_write_tokens": 7,
            "cache_read_tokens": 8,
            "cost_usd": 0.01,
            "judge_input_tokens": 900,
            "judge_output_tokens": 40,
        }
    )
    profile = Profile.of(rec)
    assert profile is not None and (profile.judge_input_tokens, profile.judge_output_tokens) == (900, 40)
    assert Profile.of(loaded({"input_tokens": 5})) is None  # tokens missing: no profile
