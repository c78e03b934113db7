"""Trials, the unit of a comparison, and the interval of a ratio drawn from their spread.

A trial is one independent run of a phase: fresh servers (or, on the user's cluster, a fresh
client process after the same preparation), load, warm-up, measured window, numbered by the
runner (metadata.json "repeat"; ``run-scenario --repeat N`` or ``--precision``). Results vary
most between trials, not within one (Kalibera & Jones 2013; Georges et al. 2007): an interval
inside one trial describes one server lifetime and cannot decide whether two configurations
differ. So one trial on a side gets no interval of the comparison and no verdict; trials of A
and B run in the same results, in blocks A,B then B,A (the runner's order), are compared pair
by pair (:func:`paired_ratio`: a block's own drift, a machine slowing down over the session,
hits both members of a pair and cancels; an A,B,B,A order cancels a linear drift across
blocks); trials not run as pairs (against a --baseline made another day) by Welch's interval
(:func:`unpaired_ratio`).

The precision of a ratio is the half width of its interval relative to it,
(high - low) / (2 ratio): "+-5%" is 0.05.

Trials run until a precision (``run-scenario --precision``) follow Stein's two-stage procedure:
the first n0 pairs (trial numbers 1..n0, metadata.json "trials_design": "first_stage") fix the
total n from their sd, and the interval of all n pairs is mean d +- t(n0 - 1) s0 / sqrt(n).
Because n depends on the first stage's sd alone, it covers the true ratio 95% of the time
exactly (for normal log ratios); the ordinary interval over all n pairs would not (it covers
less: scripts/tests/test_stopping_rule.py). With n = n0 both are the same interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import t as student_t

from .uncertainty import Ratio, t95


@dataclass
class TrialRatio(Ratio):
    """A / B from trials: the ratio, its 95% interval, how it was drawn."""

    pairs: int = 0          # pairs used (paired) or 0
    trials_a: int = 0
    trials_b: int = 0
    sd_log: float = math.nan  # sd of the pairs' log ratios (paired), se of the log ratio (Welch)
    df: float = math.nan

    @property
    def precision(self) -> float:
        return (self.high - self.low) / (2 * self.ratio) if self.known else math.nan


def _logs(values: dict) -> dict:
    return {k: math.log(v) for k, v in values.items() if v == v and v is not None and v > 0}


def paired_ratio(a: dict, b: dict, first_stage: int | None = None) -> TrialRatio:
    """A / B from trials numbered alike ({trial: figure}): d_r = log(A_r / B_r) over the common
    trial numbers r, ratio exp(mean d), interval exp(mean d +- t(k - 1) sd(d) / sqrt(k)); with
    ``first_stage`` n0, Stein's: the sd of the first n0 pairs, with n0 - 1 degrees of freedom."""
    la, lb = _logs(a), _logs(b)
    common = sorted(set(la) & set(lb))
    d = np.array([la[k] - lb[k] for k in common])
    out = TrialRatio(math.nan, pairs=len(common), trials_a=len(la), trials_b=len(lb))
    if len(d) == 0:
        return out
    out.ratio = float(math.exp(d.mean()))
    if len(d) < 2:
        return out
    first = _first_stage(d, first_stage)
    out.sd_log, out.df = float(first.std(ddof=1)), len(first) - 1.0
    h = t95(out.df) * out.sd_log / math.sqrt(len(d))
    out.low, out.high = out.ratio * math.exp(-h), out.ratio * math.exp(h)
    return out


def _first_stage(x: np.ndarray, first_stage: int | None) -> np.ndarray:
    """The observations whose spread the interval uses: the first stage's if reached, else all."""
    if first_stage and 2 <= first_stage <= len(x):
        return x[:first_stage]
    return x


def stein_pairs(sd: float, first_stage: int, precision: float, most: int = 200) -> int | None:
    """Stein's second stage: the total number of pairs n >= n0 whose interval, drawn with the
    first stage's sd (``sd``, on the log scale) and t(n0 - 1), is within +-precision; None when
    more than ``most`` would be needed (or no sd)."""
    if sd != sd or first_stage < 2:
        return None
    target = math.asinh(precision)  # (high - low) / (2 ratio) = sinh(half width of the logs)
    n = max(first_stage, math.ceil((t95(first_stage - 1.0) * sd / target) ** 2 - 1e-9))
    return n if n <= most else None


def unpaired_ratio(a: dict, b: dict, session_cv: float | None = None) -> TrialRatio:
    """A / B from independent trials: Welch's interval on the logs of the figures. Trials of two
    sessions (days, machines) do not sample the spread between sessions: with ``session_cv``
    (the between-session CV the user measured, 0.2 for 20%) each side's session adds its own
    offset, log(1 + cv)^2 of variance per side."""
    la, lb = np.array(list(_logs(a).values())), np.array(list(_logs(b).values()))
    out = TrialRatio(math.nan, trials_a=len(la), trials_b=len(lb))
    if len(la) == 0 or len(lb) == 0:
        return out
    out.ratio = float(math.exp(la.mean() - lb.mean()))
    if len(la) < 2 or len(lb) < 2:
        return out
    va, vb = la.var(ddof=1) / len(la), lb.var(ddof=1) / len(lb)
    # degrees of freedom stay Welch's of the trials alone: the session term, taken as exact,
    # would add degrees of freedom it did not earn (the CV itself came from a few A/A pairs), so
    # the t quantile used is at least that of any honest count: conservative
    out.df = (va + vb) ** 2 / ((va**2 / (len(la) - 1) + vb**2 / (len(lb) - 1)) or 1e-300)
    sessions = 2 * math.log1p(session_cv) ** 2 if session_cv else 0.0
    out.sd_log = math.sqrt(va + vb + sessions)
    h = t95(out.df) * out.sd_log
    out.low, out.high = out.ratio * math.exp(-h), out.ratio * math.exp(h)
    return out


def mean_interval(values: dict, first_stage: int | None = None) -> tuple[float, float, float]:
    """(mean, low, high): the t-interval of the trials' figures (nan bounds with one trial);
    with ``first_stage`` n0, Stein's: the sd of trials 1..n0 with t(n0 - 1)."""
    x = np.array([v for _, v in sorted(values.items()) if v == v and v is not None])
    if len(x) == 0:
        return math.nan, math.nan, math.nan
    if len(x) < 2:
        return float(x[0]), math.nan, math.nan
    first = _first_stage(x, first_stage)
    h = t95(len(first) - 1.0) * float(first.std(ddof=1)) / math.sqrt(len(x))
    return float(x.mean()), max(0.0, float(x.mean()) - h), float(x.mean()) + h


def log_sd(values: dict, first_stage: int | None = None) -> float:
    """The standard deviation of the logs of the trials' figures (nan with fewer than two);
    with ``first_stage`` n0, of trials 1..n0 only."""
    logs = _first_stage(np.array([v for _, v in sorted(_logs(values).items())]), first_stage)
    return float(np.std(logs, ddof=1)) if len(logs) > 1 else math.nan


def pairs_needed(sd_log: float, precision: float, most: int = 200) -> int | None:
    """The number of trial pairs whose interval would be within +-precision, if the pair log
    ratios spread by sd_log (None when even `most` pairs would not do)."""
    if not sd_log == sd_log:
        return None
    target = math.asinh(precision)  # (high - low) / (2 ratio) = sinh(half width of the logs)
    for k in range(2, most + 1):
        if t95(k - 1.0) * sd_log / math.sqrt(k) <= target:
            return k
    return None


def detectable(sd_log: float, pairs: int, power: float = 0.8) -> float:
    """The smallest difference k pairs spread by sd_log detect with ``power`` at alpha 0.05
    (two-sided): (t_0.975 + t_power) sd_log / sqrt(k) on the log scale, given as a precision is
    (sinh: +-5% is 0.05); nan with fewer than two pairs."""
    if pairs < 2 or sd_log != sd_log:
        return math.nan
    df = pairs - 1.0
    return math.sinh((t95(df) + float(student_t.ppf(power, df))) * sd_log / math.sqrt(pairs))
