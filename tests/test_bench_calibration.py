"""The calibration figures of bench/unseen_calibration.py, on forecasts worked out by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from unseen_calibration import brier, brier_of_base_rate, reliability

FORECASTS = [(0.05, False), (0.15, False), (0.12, True), (0.95, True), (1.0, True)]


def test_the_brier_score_is_the_mean_squared_gap() -> None:
    # (0.05^2 + 0.15^2 + 0.88^2 + 0.05^2 + 0) / 5
    assert brier(FORECASTS) == pytest.approx((0.0025 + 0.0225 + 0.7744 + 0.0025) / 5)
    # The share offside is 3/5: (2 * 0.6^2 + 3 * 0.4^2) / 5
    assert brier_of_base_rate(FORECASTS) == pytest.approx((2 * 0.36 + 3 * 0.16) / 5)


def test_each_forecast_is_in_one_bin_and_1_in_the_last() -> None:
    rows = reliability(FORECASTS)
    assert [(r["low"], r["count"]) for r in rows] == [(0.0, 1), (0.1, 2), (0.9, 2)]
    assert rows[1]["mean_p"] == pytest.approx(0.135) and rows[1]["share_offside"] == 0.5
    assert rows[2]["share_offside"] == 1.0


@given(st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=1))
def test_the_bins_hold_every_forecast_and_perfect_ones_score_0(
    forecasts: list[tuple[float, bool]],
) -> None:
    assert sum(r["count"] for r in reliability(forecasts)) == len(forecasts)
    assert brier([(float(y), y) for _, y in forecasts]) == 0.0
    assert 0.0 <= brier(forecasts) <= 1.0
