"""When is a throughput series steady? The one rule shared by the runner and the analysis.

The runner's live warm-up judge (scripts/lib/ycsbpack/phases/warmup.py) ends a warm-up when the
last intervals are steady (:func:`is_warm`); the analysis (steady_state.py) re-checks the
measured window after a warm-up (:func:`still_trends`) and drops the leading intervals of an
output that had no separate warm-up (:func:`steady_start`). All ask one question, "does this
window trend?" (:func:`trends`), so "steady" means one thing. Standard library only: the runner
loads this for every phase, which need not wait for polars and numpy
(scripts/tests/test_scripts_warmup.py).

The rule. A window of per-interval throughputs TRENDS when the least-squares line through it
changes by more than TREND (10%) of the mean across the window AND that change is significant:
more than t(0.975, df) of its standard error. Throughput ticks swing +-15% around their level on
this 2-core machine and are autocorrelated (a GC pause, a flush or a compaction spans several
2-s intervals), so:
  * a threshold on the fitted change alone fires on that noise, and a naive standard error
    (independent residuals) is too small: at a lag-1 correlation of 0.5 the slope's variance
    is about 3 times the naive one, and the residuals understate the noise (the line absorbs
    part of a slow wander). The standard error here is the OLS slope's under AR(1) noise of
    correlation rho, exact for n samples: noise variance = SSR / E[SSR / sigma^2], slope
    variance = sigma^2 x'Rx / Sxx^2 (R_ij = rho^|i-j|), df = (n - 2)(1 - rho^2)/(1 + rho^2)
    (Bartlett's variance of a variance under AR(1));
  * rho is the residuals' lag-1 autocorrelation, but never below RHO_FLOOR = 0.5: from 10-30
    samples after a line fit that estimate is useless low (simulated with a true 0.5 it
    averages 0.03 at n = 10, 0.17 at 15, 0.33 at 30), and an understated rho understates the
    error. The floor does the work at these lengths; it is an assumption, not a measurement:
    the few recorded series here (test fixtures, 1-s and 2-s ticks, n = 10-20) gave residual
    r1 from -0.47 to 0.52, median 0.17 (so truly perhaps up to 0.7). At rho = 0.5 flat noise
    is called trending at most 5% of the time; at 0.7, 8-14%
    (analysis/tests/test_stability_simulation.py, which also gives the rule's power by noise
    and window length). rho is capped at RHO_CAP: a window more correlated is a curve.
A window is STABLE when it does not trend and its spread (sd / mean) is at most SPREAD: noise
that large leaves the test no power, so "no trend found" would mean nothing.

A paced window (YCSB's -target) is also not steady while it runs above its target by more than
CATCH_UP (:func:`catching_up`). YCSB paces each thread by a schedule counted from the thread's
start: a thread behind it (a cold client and server, a stall) runs as fast as it can until it
has caught up. Such a plateau can look flat and level for 20 s (a power check's side B held to
7,200 ops/s measured 8,805 over a window after a warm-up called steady), but its rate is the
backlog, not the load asked for. A client keeping its schedule averages its target within a
fraction of a percent (7,189-7,202 in that run's other trials); a window 5% above it started
at least a second of operations behind. The live warm-up asks more of a paced phase: its last
SCHEDULE_TICKS ticks at the target within ON_SCHEDULE (:func:`keeps_schedule`), the sign that
its clients have no backlog left; a window's mean can sit at the target while the clients are
still behind (held back by a server that is still climbing, to catch up later). A phase whose
server cannot reach its target never keeps its schedule: its warm-up runs to its maximum and it
is NOT steady, as it should be (analysis/tests/test_catch_up_simulation.py gives the rates).
"""
from __future__ import annotations

import math
from functools import lru_cache

TREND = 0.10    # |fitted change across the window| / mean below which no trend is called
SPREAD = 0.25   # standard deviation / mean of a window above which it is not called stable
                # (2-s intervals on a busy 2-core machine spread 10-30% even when the level
                # holds)
MIN_SAMPLES = 4  # fewer intervals cannot show a trend
# the warm-up asks more: a false "not yet warm" costs one more interval of warm-up, a false
# "warm" costs the figure, so a significant change of half the measured window's bound is one
WARM_TREND = TREND / 2
RHO_FLOOR = 0.5  # the least lag-1 autocorrelation assumed of the ticks' noise (see above)
RHO_CAP = 0.8    # the most: (1 + rho) / (1 - rho) = 9 times the naive slope variance
CATCH_UP = 0.05  # a paced window's mean above its target by more than this: catching up
ON_SCHEDULE, SCHEDULE_TICKS = 0.02, 3  # the live warm-up: the last 3 ticks at the target +-2%


def _positive_mean(values) -> float | None:
    """The mean of two or more values when it is positive (a ratio to it means something)."""
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    return mean if mean > 0 else None


def _sxx(n: int) -> float:
    """Sum of squares of the centred sample index 0..n-1."""
    return n * (n * n - 1) / 12.0


def _fit(values) -> tuple[float, float, list[float]]:
    """(mean, slope per sample, residuals) of the least-squares line through the values."""
    n = len(values)
    mean = sum(values) / n
    xm = (n - 1) / 2.0
    slope = sum((i - xm) * (v - mean) for i, v in enumerate(values)) / _sxx(n)
    return mean, slope, [v - mean - slope * (i - xm) for i, v in enumerate(values)]


def trend(values) -> float:
    """Least-squares change across the samples, relative to their mean (nan if undefined)."""
    mean = _positive_mean(values)
    if mean is None:
        return math.nan
    return _fit(values)[1] * (len(values) - 1) / mean


def spread(values) -> float:
    """Coefficient of variation (sample standard deviation / mean; nan if undefined)."""
    mean = _positive_mean(values)
    if mean is None:
        return math.nan
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) / mean


def _assumed_rho(residuals: list[list[float]]) -> float:
    """Residuals' lag-1 autocorrelation (pooled, never across windows) in [RHO_FLOOR, RHO_CAP]."""
    num = sum(r[i] * r[i + 1] for r in residuals for i in range(len(r) - 1))
    den = sum(x * x for r in residuals for x in r)
    return min(RHO_CAP, max(RHO_FLOOR, num / den if den > 0 else 0.0))


def _ar1_sums(n: int, rho: float) -> tuple[float, float]:
    """(1'R1, x'Rx): R the AR(1) correlation matrix of n samples (R_ij = rho^|i-j|), x the
    centred sample index. Lag h holds n - h pairs; sum over them of x_i x_(i+h) in closed form."""
    xm = (n - 1) / 2.0
    ones, xrx, p = float(n), _sxx(n), 1.0
    for h in range(1, n):
        p *= rho
        if p < 1e-12:
            break
        m = n - h
        s1 = m * (m - 1) / 2.0 - m * xm                                  # sum of (i - xm)
        s2 = (m - 1) * m * (2 * m - 1) / 6.0 - xm * m * (m - 1) + m * xm * xm  # of (i - xm)^2
        ones += 2 * p * m
        xrx += 2 * p * (s2 + h * s1)
    return ones, xrx


def _expected_ssr(n: int, rho: float) -> float:
    """E[SSR] / sigma^2 of a line fit to n samples of AR(1) noise: n - 1'R1/n - x'Rx/Sxx, less
    than the n - 2 of independent noise (the line absorbs part of a slow wander)."""
    ones, xrx = _ar1_sums(n, rho)
    return n - ones / n - xrx / _sxx(n)


def _df(n_minus_fitted: float, rho: float) -> float:
    return max(1.0, n_minus_fitted * (1 - rho * rho) / (1 + rho * rho))


def trends(values, max_trend: float = TREND) -> bool:
    """THE rule: the fitted change across the window exceeds max_trend of its mean AND is
    significant (more than t(0.975, df) of its AR(1) standard error); False below MIN_SAMPLES."""
    n = len(values)
    mean = _positive_mean(values)
    if n < MIN_SAMPLES or mean is None:
        return False
    _, slope, resid = _fit(values)
    rho = _assumed_rho([resid])
    sigma2 = sum(r * r for r in resid) / _expected_ssr(n, rho)
    scale = (n - 1) / mean
    change, se = slope * scale, math.sqrt(sigma2 * _ar1_sums(n, rho)[1]) / _sxx(n) * scale
    return abs(change) > max_trend and abs(change) > t975(_df(n - 2, rho)) * se


def still_trends(values, max_trend: float = TREND) -> bool:
    """Whether a measured window trends (:func:`trends`): such a window averages a climb, and
    its phase gets no verdict. A false flag costs a verdict: here the 5% bound matters most."""
    return trends(values, max_trend)


def is_stable(values, max_trend: float = TREND, max_spread: float = SPREAD) -> bool:
    """Whether a window of per-interval throughputs does not trend and has a low spread."""
    # (a nan spread, mean not positive, is not <= anything: not stable)
    return (len(values) >= MIN_SAMPLES and spread(values) <= max_spread
            and not trends(values, max_trend))


def level_shift(before, last, max_shift: float = TREND) -> bool:
    """Whether the mean of `last` differs from the mean of `before` (two adjacent windows of
    equal length) by more than max_shift of it AND significantly, by the AR(1) error of the
    difference of the two means (the noise from the residuals of each window's own line)."""
    n = len(last)
    if n < MIN_SAMPLES or len(before) != n:
        return False
    (m_b, _, r_b), (m_l, _, r_l) = _fit(before), _fit(last)
    if m_l <= 0:
        return False
    rho = _assumed_rho([r_b, r_l])
    sigma2 = sum(x * x for x in r_b + r_l) / (2 * _expected_ssr(n, rho))
    ones = _ar1_sums(n, rho)[0]
    # var(mean) = sigma^2 1'R1 / n^2; adjacent windows' means covary by
    # sigma^2 rho (1 - rho^n)^2 / (1 - rho)^2 / n^2
    var_diff = 2 * sigma2 * (ones - rho * (1 - rho**n) ** 2 / (1 - rho) ** 2) / (n * n)
    diff = m_l - m_b
    return (abs(diff) > max_shift * m_l
            and abs(diff) > t975(_df(2 * (n - 2), rho)) * math.sqrt(max(var_diff, 0.0)))


def is_warm(values, samples: int, max_trend: float = WARM_TREND,
            max_spread: float = SPREAD) -> bool:
    """The live warm-up's rule: the last `samples` values and the `samples` before them are
    each stable (:func:`is_stable`) AND at the same level (:func:`level_shift`, by WARM_TREND).
    A window alone can look flat in the middle of a slow climb when its noise hides the slope
    (a fresh Cassandra: 600 ops/s "steady" for 20 s, then 3,000 ops/s 20 s later). The window
    before must be stable too: one that still holds the end of a climb has residuals so large
    that no level difference would be significant against them."""
    if samples < MIN_SAMPLES or len(values) < 2 * samples:
        return False
    last, before = values[-samples:], values[-2 * samples:-samples]
    return (is_stable(last, max_trend, max_spread) and is_stable(before, max_trend, max_spread)
            and not level_shift(before, last, max_trend))


def catching_up(values, target) -> bool:
    """Whether a paced window (its clients' -target together, ops/s; None or 0 for a closed
    loop) runs above its target by more than CATCH_UP: the backlog of a schedule its clients
    fell behind, not the load asked for (module docstring)."""
    mean = _positive_mean(values)
    return bool(target) and mean is not None and mean > target * (1 + CATCH_UP)


def keeps_schedule(values, target, tick_s: float = 2.0) -> bool:
    """Whether a paced series' last SCHEDULE_TICKS ticks (of tick_s seconds) all ran at its
    target (the clients' -target together) within ON_SCHEDULE and two operations (a slow rate
    counts whole operations per tick: 42 ops/s in 1-s ticks moves by 2.4% an operation): no
    backlog left to catch up. True for a closed loop (no target)."""
    if not target:
        return True
    last, within = values[-SCHEDULE_TICKS:], ON_SCHEDULE + 2 / (target * tick_s)
    return len(last) == SCHEDULE_TICKS and all(abs(v / target - 1) <= within for v in last)


def steady_start(values, max_trend: float = TREND, min_samples: int = MIN_SAMPLES):
    """Index of the first sample of the steady window: the first k after which values[k:] has
    at least min_samples samples and a fitted change within max_trend of its mean; None when
    there is none. The point estimate, not :func:`trends`: here the costs are reversed (a start
    too early keeps part of a warm-up climb in the figure, one too late only drops some level
    intervals). Simulated (37 2-s ticks, an exponential warm-up of time constant 3-10 ticks,
    noise 5-15%), stopping at "no significant trend" left 4-12% of bias in the window's mean;
    the point estimate left 0-5%."""
    for k in range(0, len(values) - min_samples + 1):
        t = trend(values[k:])
        if not math.isnan(t) and abs(t) <= max_trend:
            return k
    return None


# --- Student's t quantile, standard library only -------------------------------------------

def _off_zero(v: float) -> float:
    return v if abs(v) > 1e-300 else 1e-300


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    c, d = 1.0, 1.0 / _off_zero(1.0 - (a + b) * x / (a + 1.0))
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                    -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 / _off_zero(1.0 + num * d)
            c = _off_zero(1.0 + num / c)
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


def _betai(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


@lru_cache(maxsize=4096)
def _t975(df: float) -> float:
    """The t whose upper tail P(T > t) = I_(df/(df+t^2))(df/2, 1/2) / 2 is 2.5%: bisection."""
    def beyond(t: float) -> bool:
        return _betai(df / 2, 0.5, df / (df + t * t)) / 2 > 0.025

    lo, hi = 0.0, 1.0
    while beyond(hi):
        hi *= 2
    while hi - lo > 1e-10 * hi:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if beyond(mid) else (lo, mid)
    return (lo + hi) / 2


def t975(df: float) -> float:
    """The 97.5% quantile of Student's t (two-sided 95%), df >= 1 (below: 1). df is rounded
    to 0.001 for the cache: the quantile moves by less than 1e-4 relative for that."""
    if not df == df or df < 1:
        df = 1.0
    return _t975(round(df, 3))
