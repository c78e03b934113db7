"""When is a throughput series steady? The one rule shared by the runner and the analysis.

The runner's live warm-up judge (scripts/lib/ycsbpack/runner/warmup.py) stops a warm-up when
the last intervals are stable; the analysis (steady_state.py) drops the leading intervals of an
output that had no separate warm-up. Both apply the functions below, so "steady" means one thing.
This module uses the standard library only: the runner is stdlib-only Python (the system
python3, without the analysis package's dependencies) and imports it as
`ycsb_analysis.stability` with analysis/ on its sys.path (scripts/lib/ycsbpack/__init__.py),
so the rule is defined once.

The rule (method: a linear fit of the per-interval throughput, as in the Measuring doc):
  trend   the change the least-squares line predicts across the window, relative to the mean
          (a climb from 2,000 to 4,000 ops/s over the window is +0.67);
  spread  the coefficient of variation of the window (standard deviation / mean).
A window is stable when |trend| <= TREND and spread <= SPREAD. A live warm-up judges the last
`window` seconds and, since noise can hide a slow climb inside one window, also asks that their
mean is within TREND of the window before (is_warm); a recorded run's steady window starts at
the first interval after which the rest of the run has |trend| <= TREND (spread is not
required there: a run may be steady and noisy, and its interval then says so). The measured
window after a warm-up is checked again: it still trends when its fitted change exceeds TREND
and twice its standard error.
"""
from __future__ import annotations

import math

TREND = 0.10    # |fitted change across the window| / mean
SPREAD = 0.25   # standard deviation / mean of the window (2-s intervals on a busy 2-core
                # machine spread 10-30% even when the level holds)
MIN_SAMPLES = 4  # fewer intervals cannot show a trend


def _positive_mean(values) -> float | None:
    """The mean of two or more values when it is positive (a ratio to it means something)."""
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    return mean if mean > 0 else None


def trend(values) -> float:
    """Least-squares change across the samples, relative to their mean (nan if undefined)."""
    n = len(values)
    mean = _positive_mean(values)
    if mean is None:
        return math.nan
    xm = (n - 1) / 2.0
    sxx = sum((i - xm) ** 2 for i in range(n))
    slope = sum((i - xm) * (v - mean) for i, v in enumerate(values)) / sxx
    return slope * (n - 1) / mean


def spread(values) -> float:
    """Coefficient of variation (sample standard deviation / mean; nan if undefined)."""
    n = len(values)
    mean = _positive_mean(values)
    if mean is None:
        return math.nan
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return math.sqrt(var) / mean


def trend_se(values) -> float:
    """Standard error of :func:`trend` from the residuals of the fit (nan if undefined)."""
    n = len(values)
    mean = _positive_mean(values)
    if mean is None or n < 3:
        return math.nan
    xm = (n - 1) / 2.0
    sxx = sum((i - xm) ** 2 for i in range(n))
    slope = sum((i - xm) * (v - mean) for i, v in enumerate(values)) / sxx
    ssr = sum((v - mean - slope * (i - xm)) ** 2 for i, v in enumerate(values))
    return math.sqrt(ssr / (n - 2) / sxx) * (n - 1) / mean


def still_trends(values, max_trend: float = TREND) -> bool:
    """Whether a measured window trends: its fitted change exceeds max_trend AND is more than
    twice its standard error (a noisy flat window is not a trend; a clear climb is)."""
    if len(values) < MIN_SAMPLES:
        return False
    t, se = trend(values), trend_se(values)
    return not math.isnan(t) and abs(t) > max_trend and not abs(t) <= 2 * se


def is_stable(values, max_trend: float = TREND, max_spread: float = SPREAD) -> bool:
    """Whether a window of per-interval throughputs has no trend and a low spread."""
    if len(values) < MIN_SAMPLES:
        return False
    t, s = trend(values), spread(values)
    return not math.isnan(t) and abs(t) <= max_trend and s <= max_spread


def is_warm(values, samples: int, max_trend: float = TREND, max_spread: float = SPREAD) -> bool:
    """The live warm-up's rule: the last `samples` values are stable (:func:`is_stable`) AND
    their mean is within max_trend of the mean of the `samples` before them. A window alone can
    look flat in the middle of a slow climb when its noise hides the slope (a fresh Cassandra:
    600 ops/s "steady" for 20 s, then 3,000 ops/s 20 s later); a level that has stopped moving
    between two windows has not."""
    if samples < MIN_SAMPLES or len(values) < 2 * samples:
        return False
    last, before = values[-samples:], values[-2 * samples:-samples]
    if not is_stable(last, max_trend, max_spread):
        return False
    m_last, m_before = sum(last) / samples, sum(before) / samples
    return m_last > 0 and abs(m_last - m_before) / m_last <= max_trend


def steady_start(values, max_trend: float = TREND, min_samples: int = MIN_SAMPLES):
    """Index of the first sample of the steady window: the first k after which values[k:] has
    |trend| <= max_trend and at least min_samples samples; None when there is none."""
    for k in range(0, len(values) - min_samples + 1):
        t = trend(values[k:])
        if not math.isnan(t) and abs(t) <= max_trend:
            return k
    return None
