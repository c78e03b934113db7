"""Figures no correct run can produce, flagged (never silently shown as if fine).

A latency below zero (a clock that went backwards, an int overflow of µs in a custom
measurement), a minimum above the maximum, percentiles that fall as the percentile rises,
an average outside [min, max], a latency of more than a day, a run time of zero with
operations: each is named with the client and the figure; the figures stay in the tables.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .model import Run
from .readers.final_report import percentile_columns

ABSURD_LATENCY_US = 86_400 * 1_000_000   # a day: no single YCSB operation takes that long


def implausible_figures(run: Run) -> list[str]:
    """One sentence per implausible figure of the run's clients (empty when all look sane)."""
    flags: list[str] = []
    for c in run.clients:
        o = c.output
        who = f"client {c.index}"
        s = o.summary
        pcols = percentile_columns(s)
        lat_cols = ["average_latency_us", "min_latency_us", "max_latency_us"] + pcols
        for r in s.iter_rows(named=True):
            vals = {k: float(r[k]) for k in lat_cols if r.get(k) is not None}
            where = f"{who} [{r['metric']}]"
            neg = [k for k, v in vals.items() if v < 0]
            if neg:
                flags.append(f"{where}: negative latency "
                             f"({', '.join(f'{k} = {vals[k]:g}' for k in neg)})")
            huge = [k for k, v in vals.items() if v > ABSURD_LATENCY_US]
            if huge:
                flags.append(f"{where}: latency above a day "
                             f"({', '.join(f'{k} = {vals[k]:g} µs' for k in huge)})")
            lo, hi = vals.get("min_latency_us"), vals.get("max_latency_us")
            avg = vals.get("average_latency_us")
            if None not in (lo, hi) and lo > hi:
                flags.append(f"{where}: minimum {lo:g} µs above maximum {hi:g} µs")
            elif None not in (lo, hi, avg) and not lo - 1 <= avg <= hi + 1:
                flags.append(f"{where}: average {avg:g} µs outside [min {lo:g}, max {hi:g}]")
            pv = [vals[p] for p in pcols if p in vals]
            if any(b < a for a, b in zip(pv, pv[1:])):
                flags.append(f"{where}: percentiles fall as the percentile rises "
                             f"({', '.join(f'{p} = {vals[p]:g}' for p in pcols if p in vals)})")
        runtime = o.overall["runtime_ms"]
        if o.has_report and runtime <= 0 and s["operations"].fill_null(0).sum() > 0:
            flags.append(f"{who}: run time {runtime:g} ms with operations done")
        if o.raw_negative and o.raw_datapoints.is_empty():   # rows let go: from the summary
            flags.append(f"{who}: {o.raw_negative} raw datapoints with a negative latency "
                         f"(lowest {o.raw_summary['min_latency_us'].min():g} µs)")
        for name, df, col in (("raw datapoints", o.raw_datapoints, "latency_us"),
                              ("timeseries rows", o.timeseries, "average_latency_us")):
            if df.height and col in df.columns:
                v = df[col].cast(pl.Float64).to_numpy()
                n_neg = int((v < 0).sum())
                if n_neg:
                    flags.append(f"{who}: {n_neg} {name} with a negative latency "
                                 f"(lowest {np.nanmin(v):g} µs)")
    return flags
