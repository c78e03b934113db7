"""How precise the headline ratios of a results directory are so far: what the runner's
``--precision`` reads after each round of trials (:func:`headlines`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import polars as pl

from . import capacity
from .loader import load
from .model import WINDOW_KIND, WindowKind
from .sides import known_sides
from .summary import runs_summary
from .trials import log_sd, mean_interval, pairs_needed, stein_pairs
from .verdicts import PRIMARY, aggregate, between_databases, capacity_step


@dataclass(frozen=True)
class Headline:
    """One headline figure of the trials so far."""

    phase: str
    what: str  # "cassandra/hbase throughput" (two sides), "cassandra throughput" (one database)
    ratio: float  # the ratio of the sides; with one database, the trials' mean (its unit)
    precision: float | None  # half the 95% interval's width relative to it; None: no interval
    trials: str  # the trials it rests on: "3/3" of the sides, "3" of one database
    verdict: str
    more_trials: int | None  # more trials of each side the target needs; None: no target/spread
    resolves: float | None = None  # A/A: the difference these trials resolve, as a precision
    detectable: float | None = None  # A/A: the difference they detect with 80% power


@dataclass
class Precision:
    """The headlines of a results directory, and why a run was not steady (one line each)."""

    headlines: list[Headline] = field(default_factory=list)
    unsteady: list[str] = field(default_factory=list)
    # (side, trial) of each trial not steady: what the runner may run again
    unsteady_trials: list[tuple[str, int]] = field(default_factory=list)

    def worst(self) -> Headline | None:
        """The least precise headline that has an interval (None when none has)."""
        known = [h for h in self.headlines if h.precision is not None]
        return max(known, key=lambda h: h.precision) if known else None


def headlines(results: str, target: float = math.nan, first: int | None = None) -> Precision:
    """The primary figure (verdicts.py) of every measured run phase (not a load: a finite job
    has a verdict too, but does not decide when to stop): with two sides, the ratio of the
    first to the second (sides.py) with its interval from paired trials; with one database,
    the t-interval of its trials' mean. With a ``target`` precision (0.05 for +-5%), how many
    more trials of each side the spread so far needs to reach it: with a first stage n0
    (``first``, a two-stage run), Stein's total from the first n0 pairs' spread less the pairs
    run; without one, the pairs an ordinary interval at that spread would need. A capacity
    search (--slo) is a headline of its own: its capacity across trials, not its steps (each
    ran at its own target)."""
    out = Precision()
    raw = load([results], skipped=[])
    summary = aggregate(runs_summary(raw))
    # not loads (finite jobs), nor a capacity search's steps
    runs = [r for r in summary
            if r[WINDOW_KIND] != WindowKind.WHOLE_JOB and not capacity_step(r)]
    out.unsteady = [f"{r['database']} {r['phase']}: {r['unsteady']}"
                    for r in runs if not r["steady"]]
    steps = capacity.steps_table(raw)
    found = capacity.capacities(steps) if steps.height else pl.DataFrame()
    out.unsteady += [f"{r['database']} capacity of {r['search']} trial {r['repeat'] or 1}: the "
                     "steps that set it were NOT steady"
                     for r in found.iter_rows(named=True) if r["steady"] is False]
    out.unsteady_trials = sorted(
        {(r["database"], t) for r in runs if not r["steady"] for t in r["unsteady_trials"]}
        | {(r["database"], r["repeat"] or 1)
           for r in found.iter_rows(named=True) if r["steady"] is False})
    if len({r["database"] for r in [*runs, *found.iter_rows(named=True)]}) >= 2:
        compared = [between_databases(runs)]
        if found.height:
            compared.append(capacity.capacity_verdicts(found, known_sides(summary)))
        for frame in compared:
            for r in frame.iter_rows(named=True):
                if r["primary"]:
                    out.headlines.append(_compared(r, target, first))
        return out
    for search, g in (found.partition_by("search", as_dict=True).items() if found.height else ()):
        values = dict(zip(g["repeat"].to_list(), g["capacity_ops_per_s"].to_list()))
        out.headlines.append(_one_side(search[0], f"{g['database'][0]} capacity", "ops/s",
                                       values, target, first))
    for r in runs:
        # the primary figure as between databases: records/s of a batched phase, else ops/s
        figure = next((f for f in PRIMARY if r.get(f"{f}_trials")), "throughput_ops_per_s")
        values = r.get(f"{figure}_trials") or {}
        words, unit = (("records/s", "records/s") if figure == "records_per_s"
                       else ("throughput", "ops/s"))
        out.headlines.append(_one_side(r["phase"], f"{r['database']} {words}", unit, values,
                                       target, first))
    return out


def _compared(r: dict, target: float, first: int | None) -> Headline:
    """The headline of a comparison's primary row (verdicts.compare)."""
    aa = bool(r["aa"])
    return Headline(
        phase=r["phase"], what=f"{r['side_a']}/{r['side_b']} {r['figure']}",
        ratio=float(r["ratio"]), precision=_num(r["precision"]), trials=str(r["trials"]),
        verdict=r["verdict"], more_trials=_more(r["sd_log"], target, int(r["pairs"]), first),
        resolves=_num(r["resolves_percent"] / 100) if aa else None,
        detectable=_num(r["detectable_80_percent"] / 100) if aa else None)


def _one_side(phase: str, what: str, unit: str, values: dict, target: float,
              first: int | None) -> Headline:
    """The headline of one database's trials: their mean and its t-interval."""
    mean, low, high = mean_interval(values, first)
    return Headline(
        phase=phase, what=what, ratio=float(mean),
        precision=_num((high - low) / (2 * mean)) if mean else None,
        trials=str(len(values)), verdict=f"{mean:,.0f} {unit}",
        more_trials=_more(log_sd(values, first), target, len(values), first))


def _more(sd_log: float, target: float, done: int, first: int | None = None) -> int | None:
    if target != target or sd_log != sd_log:
        return None
    k = stein_pairs(sd_log, first, target) if first else pairs_needed(sd_log, target)
    return None if k is None else max(0, k - done)


def _num(v) -> float | None:
    return None if v is None or v != v else float(v)
