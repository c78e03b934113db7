"""The t quantile behind every 95% interval (uncertainty.t95): exact for fractional degrees of
freedom, which Welch-Satterthwaite and effective sample sizes produce."""

from __future__ import annotations

import math

import pytest
from scipy.stats import t as student_t
from ycsb_analysis.uncertainty import t95


@pytest.mark.parametrize("df", [1.5, 2.5, 7.3])
def test_fractional_degrees_of_freedom_are_exact(df):
    assert t95(df) == pytest.approx(student_t.ppf(0.975, df), rel=1e-9)


def test_known_integer_values():
    # the printed tables' two-sided 95% values
    for df, value in [(1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (10, 2.228), (30, 2.042)]:
        assert t95(df) == pytest.approx(value, abs=5e-4)


def test_fewer_than_one_or_unknown_degrees_of_freedom_count_as_one():
    for df in (0, 0.5, -3, math.nan, None):
        assert t95(df) == pytest.approx(12.706, abs=5e-4)


def test_the_old_table_interpolation_was_too_wide_near_one_and_a_half():
    # the linear interpolation between df 1 and 2 gave 8.50 at 1.5, 41% wider than exact
    assert t95(1.5) == pytest.approx(6.017, abs=1e-3)
