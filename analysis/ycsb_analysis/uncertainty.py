"""95% confidence intervals of a figure within one run, and of a ratio.

Within one run the samples are the per-interval values of the steady window (throughput of
each status interval, say). Neighbouring intervals are correlated (a compaction or a GC pause
spans several), so the naive standard error s/sqrt(n) is too small. The effective sample size
n_eff = n (1 - r1) / (1 + r1), with r1 the lag-1 autocorrelation (Wilks; clipped to [0, 1):
negative correlation is not credited), corrects it: se = s / sqrt(n_eff), degrees of freedom
n_eff - 1. latte compares runs the same way (Welch's t on effective sample sizes). Across
repeats: trials.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import t as student_t


def t95(df: float) -> float:
    """Two-sided 95% quantile of Student's t with `df` (possibly fractional) degrees of freedom;
    df below 1 or unknown counts as 1 (the widest interval this module draws)."""
    if not df or math.isnan(df) or df < 1:
        df = 1.0
    # exact for fractional df: Welch-Satterthwaite and n_eff - 1 give fractional df near 1-4,
    # where interpolating a table of integer df made the interval up to 41% too wide
    return float(student_t.ppf(0.975, df))


@dataclass
class Estimate:
    """A figure with its standard error and degrees of freedom (nan when unknown)."""

    value: float
    se: float = math.nan
    df: float = math.nan

    @property
    def low(self) -> float:
        # every figure here (ops/s, records/s, latency) is positive: a bound below 0 says 0
        return max(0.0, self.value - t95(self.df) * self.se) if self.known else math.nan

    @property
    def high(self) -> float:
        return self.value + t95(self.df) * self.se if self.known else math.nan

    @property
    def known(self) -> bool:
        return not (math.isnan(self.se) or math.isnan(self.df)) and self.value == self.value


def lag1_autocorrelation(x) -> float:
    x = np.asarray(x, dtype=float)
    if len(x) < 3:
        return 0.0
    d = x - x.mean()
    denom = float(np.dot(d, d))
    return float(np.dot(d[:-1], d[1:]) / denom) if denom > 0 else 0.0


def effective_n(x) -> float:
    """n (1 - r1) / (1 + r1), r1 clipped to [0, 0.99]."""
    r1 = min(max(lag1_autocorrelation(x), 0.0), 0.99)
    return len(x) * (1 - r1) / (1 + r1)


def within_run(samples, value: float | None = None) -> Estimate:
    """The mean of autocorrelated per-interval samples, or `value` (a figure computed another
    way over them, e.g. a percentile of merged histograms) with their relative standard error."""
    x = np.asarray([v for v in samples if v == v], dtype=float)
    if len(x) < 3:
        return Estimate(float(value) if value is not None
                        else float(x.mean()) if len(x) else math.nan)
    mean = float(x.mean())
    n_eff = max(effective_n(x), 2.0)
    se = float(x.std(ddof=1)) / math.sqrt(n_eff)
    if value is None or mean == 0:
        return Estimate(mean, se, n_eff - 1)
    return Estimate(float(value), se / abs(mean) * abs(value), n_eff - 1)


@dataclass
class Ratio:
    """A / B with its 95% interval (nan: none); a difference only when it excludes 1."""

    ratio: float
    low: float = math.nan
    high: float = math.nan

    @property
    def known(self) -> bool:
        return self.low == self.low

    @property
    def significant(self) -> bool:
        return self.known and (self.low > 1 or self.high < 1)


def ratio(a: Estimate, b: Estimate) -> Ratio:
    """A / B with its 95% interval on the log scale: se(log A/B)^2 = (se_A/A)^2 + (se_B/B)^2,
    Welch-Satterthwaite degrees of freedom, interval exp(log(A/B) +- t se)."""
    if not (a.value > 0 and b.value > 0):
        return Ratio(math.nan)
    r = a.value / b.value
    if not (a.known and b.known):
        return Ratio(r)
    va, vb = (a.se / a.value) ** 2, (b.se / b.value) ** 2
    se = math.sqrt(va + vb)
    if se == 0:
        return Ratio(r, r, r)
    df = (va + vb) ** 2 / ((va**2 / a.df if a.df > 0 else 0)
                           + (vb**2 / b.df if b.df > 0 else 0) or 1e-12)
    h = t95(df) * se
    return Ratio(r, r * math.exp(-h), r * math.exp(h))
