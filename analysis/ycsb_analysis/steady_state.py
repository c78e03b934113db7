"""Which part of a phase its figures describe, and those figures with their 95% intervals.

The window (:func:`window`):
  * a phase the runner warmed up (metadata "warmup" with ``end_s``): the intervals after the
    warm-up, which ran in the same clients (scripts/lib/ycsbpack/phases/warmup.py), up to the
    stop the runner gave ``measured_s`` later (the clients' shutdown after it is no sample);
  * otherwise (a load, a plain ``bin/ycsb`` output, ``--no-warmup``): the steady window of the
    shared rule (:func:`stability.steady_start`: leading intervals dropped until the rest has
    no trend);
  * a finite job (a load, S3's deletes: :func:`finite_job`): the whole job, YCSB's own figures
    (a load's records per second from start to end), without a within-run interval;
  * ``--skip SECONDS``: everything after the first SECONDS, whatever the above says.
``steady`` is false when the warm-up reached its maximum time without a steady window, when
the measured window after it still climbs (the warm-up ended too early), or when no steady
window exists: such a phase keeps its figures but gets no verdict (verdicts.py).
The figures over the window: throughput (mean per-interval ops/s), mean latency of the main
operation (count-weighted per-interval means), p95/p99 (merged .hdr histograms of the window's
intervals), records/s of batched phases; each with a within-run interval (uncertainty.py).
A run without status lines keeps YCSB's whole-run figures, without interval, and says so.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import polars as pl

from . import stability
from .hdr_logs import merge_histograms, percentiles
from .model import WINDOW_KIND, Run, WindowKind
from .timeseries import (
    client_start,
    epoch_ms,
    hdr_origin,
    merged_ticks,
    record_throughput,
    seconds,
    values,
)
from .uncertainty import Estimate, within_run

FIGURES = ["throughput_ops_per_s", "average_latency_us", "p95_latency_us", "p99_latency_us",
           "records_per_s"]


def interval_throughput(run: Run) -> pl.DataFrame:
    """``t_s, ops_per_s``: operations per status interval (all clients summed), from the
    operation counts of consecutive entries; ``t_s`` is the interval's end since the run's
    start. Intervals much shorter than the status interval, and the final one when it is cut
    short (the client's shutdown), are left out: their rate is mostly noise."""
    frames, starts = [], []
    for c in run.clients:
        e = c.output.status_entries
        if e.is_empty():
            continue
        e = e.unique("elapsed_s", keep="first", maintain_order=True).sort("time",
                                                                          maintain_order=True)
        starts.append(client_start(e))
        ms = epoch_ms(e)
        t = seconds(ms - ms[0]) + float(e["elapsed_s"][0])
        ops = values(e["operations"])
        if len(t) < 2:
            continue
        dt = np.diff(t)
        typical = float(np.median(dt))
        keep = dt > 0.5 * typical
        # the last entry is YCSB's final status line, printed when the client ends: its interval
        # is cut short and holds the shutdown (0 operations after a stop): never a sample
        keep[-1] = keep[-1] and dt[-1] >= 0.9 * typical
        rate = np.diff(ops) / np.where(dt > 0, dt, np.nan)
        frames.append((ms[1:][keep], rate[keep], np.full(int(keep.sum()), typical)))
    if not frames:
        return pl.DataFrame(schema={"t_s": pl.Float64, "ops_per_s": pl.Float64})
    ends, rates, typicals = (np.concatenate(parts) for parts in zip(*frames))
    step = float(np.median(typicals)) or 1.0
    t_s = np.round(seconds(ends - min(starts)) / step) * step   # (half to even, as pandas)
    return _summed(pl.DataFrame({"t_s": t_s, "ops_per_s": rates}), "ops_per_s")


def _summed(frame: pl.DataFrame, *columns: str) -> pl.DataFrame:
    """``columns`` summed per ``t_s`` (rising), a missing value counting nothing."""
    return (frame.fill_nan(None).group_by("t_s").agg(pl.col(c).sum() for c in columns)
            .sort("t_s"))


def finite_job(run: Run) -> bool:
    """A load, or a phase that consumes its data (S3's deletes): a job of a fixed size, judged
    over the whole job (its figure: operations or records per second, start to end)."""
    meta = run.metadata
    if meta.get("finite_job"):
        return True
    cmd = meta.get("command")  # bin/ycsb load ..., or java ... site.ycsb.Client -load ...
    return isinstance(cmd, list) and len(cmd) > 1 and (cmd[1] == "load" or "-load" in cmd)


class Window(NamedTuple):
    """The figures' window of a run: (start_s, end_s], how it was chosen (``kind``; ``how``
    says it in words), and whether the run was steady in it."""

    start_s: float
    end_s: float
    kind: WindowKind
    how: str
    steady: bool


def window(run: Run, series: pl.DataFrame, skip: float | None = None) -> Window:
    """The figures' window over ``series`` (interval_throughput); a paced one that ran above
    its target is not steady (stability.catching_up)."""
    w = _window(run, series, skip)
    if w.kind not in (WindowKind.AFTER_WARMUP, WindowKind.STEADY):
        return w
    measured = list(values(_in(series, w.start_s, w.end_s)["ops_per_s"]))
    if not stability.catching_up(measured, run.target):
        return w
    above = sum(measured) / len(measured) / run.target - 1
    return w._replace(steady=False, how=w.how + (
        f"; ABOVE ITS TARGET ({above:+.0%} over {run.target:,.0f} ops/s): the clients were "
        "catching up on a schedule they fell behind earlier"))


def _window(run: Run, series: pl.DataFrame, skip: float | None) -> Window:
    if series.is_empty():
        return Window(0.0, math.inf, WindowKind.NO_STATUS_LINES,
                      "whole run (no status lines to find a steady window in)", False)
    t = series["t_s"].to_numpy()
    end = float(t[-1])
    step = float(np.median(np.diff(t))) if len(t) > 1 else 1.0
    if skip is not None:
        return Window(float(skip), end, WindowKind.SKIP, f"after the first {skip:g} s (--skip)",
                      True)
    warm = run.metadata.get("warmup")
    if isinstance(warm, dict) and warm.get("end_s") is not None:
        start = float(warm["end_s"])
        # the runner asked the clients to stop measured_s after the warm-up (or, for a
        # capacity step it measured longer, extended.to_s): the intervals after that hold
        # their shutdown (a second or two of few or no operations)
        measured_s = (warm.get("extended") or {}).get("to_s") or warm.get("measured_s")
        if measured_s:
            end = min(end, start + float(measured_s))
        measured = list(values(_in(series, start, end)["ops_per_s"]))
        change = stability.trend(measured) if stability.still_trends(measured) else 0.0
        how = f"{warm['end_s']:g}-{end:.0f} s: after the runner's warm-up in the same run " + (
            "(steady)" if warm.get("stable") else "(NOT steady: its maximum time was reached)")
        # a climb means the warm-up ended too early: the figure would average part of it. A
        # decline after a steady warm-up is the database's own course over the window (an LSM
        # store's flushes and compactions under updates): every trial started from the same
        # saved data and ran the same window, so the spread between trials holds it; said,
        # not vetoed
        if change > 0:
            how += f"; the measured window STILL TRENDS ({change:+.0%} across it)"
        elif change < 0:
            how += (f"; throughput declines across the measured window ({change:+.0%}): the "
                    "database's own course after the warm-up, in every trial's spread")
        return Window(start, end, WindowKind.AFTER_WARMUP, how,
                      bool(warm.get("stable")) and not change > 0)
    k = stability.steady_start(list(values(series["ops_per_s"])))
    if k is None:
        return Window(float(t[0]) - step, end, WindowKind.NO_STEADY_WINDOW,
                      "whole run: NO steady window (throughput trends throughout)", False)
    start = float(t[k]) - step
    how = (f"steady window {start:.0f}-{end:.0f} s (first {start:.0f} s dropped by the trend "
           "rule)" if k else f"whole run {start:.0f}-{end:.0f} s (steady throughout)")
    return Window(start, end, WindowKind.STEADY, how, True)


def _in(df: pl.DataFrame, start: float, end: float) -> pl.DataFrame:
    """The rows of ``df`` whose ``t_s`` is in (start, end]."""
    return df.filter((pl.col("t_s") > start + 1e-9) & (pl.col("t_s") <= end + 1e-9))


def _latency_series(run: Run, metric: str) -> pl.DataFrame:
    """``t_s, count, avg``: per-interval mean latency of one metric, clients merged."""
    frames, starts = [], []
    for c in run.clients:
        e, m = c.output.status_entries, c.output.status_measurements
        if e.is_empty() or m.is_empty():
            continue
        starts.append(client_start(e))
        if "average_latency_us" not in m.columns:
            continue
        m = m.filter((pl.col("metric") == metric) & (pl.col("count") > 0)).unique(
            "elapsed_s", keep="first", maintain_order=True)
        count = values(m["count"])
        frames.append((epoch_ms(m), count, count * values(m["average_latency_us"])))
    if not frames:
        return pl.DataFrame(schema={"t_s": pl.Float64, "count": pl.Float64, "sum": pl.Float64,
                                    "avg": pl.Float64})
    ends, count, total = (np.concatenate(parts) for parts in zip(*frames))
    f = pl.DataFrame({"t_s": np.round(seconds(ends - min(starts))), "count": count,
                      "sum": total})
    return _summed(f, "count", "sum").with_columns(avg=pl.col("sum") / pl.col("count"))


def window_busy(run: Run, metrics: list[str], start: float, end: float) -> float:
    """Operations of ``metrics`` in flight on average over the window (start, end], all
    clients together: their service times summed over its seconds (Little's law, L = λW, from
    the status lines' per-interval counts and mean latencies); NaN without those."""
    series = [_in(_latency_series(run, m), start, end) for m in metrics]
    if not end > start or all(s.is_empty() for s in series):
        return math.nan
    return sum(float(s["sum"].sum()) for s in series) / 1e6 / (end - start)


def window_percentiles(run: Run, metric: str, start: float, end: float,
                       levels: tuple = (95.0, 99.0)) -> dict[str, Estimate]:
    """``{"p95": Estimate, ...}`` of ``metric`` over the window (start, end]: the clients'
    .hdr interval histograms of the window merged (the value), with the spread of the
    per-interval percentiles (the interval); {} without .hdr logs of every client."""
    logs = [c.hdr_logs.get(metric) for c in run.clients]
    if not logs or any(log is None or log.intervals.is_empty() for log in logs):
        return {}
    names = [f"p{float(p):g}" for p in levels]
    chosen, per_interval = [], {n: [] for n in names}
    for t_end, h, _ in merged_ticks(logs, hdr_origin(run, logs)):
        if start + 1e-9 < round(t_end) <= end + 1e-9 and h.total_count:
            chosen.append(h)
            p = percentiles(h, list(levels))
            for n in names:
                per_interval[n].append(p.get(n, math.nan))
    if not chosen:
        return {}
    whole = percentiles(merge_histograms(chosen), list(levels))
    return {k: within_run(per_interval[k], whole.get(k, math.nan)) for k in per_interval}


def steady_figures(
    run: Run, main_metric: str | None, skip: float | None = None, batched: bool = False
) -> dict:
    """The summary columns of one run over its window: each figure of FIGURES (where known)
    with ``<figure>_ci_low``/``_ci_high``/``_se``/``_df``, ``window`` (in words), ``steady``,
    ``window_kind`` (:class:`WindowKind`), ``window_start_s``/``_end_s``/``_intervals``."""
    if finite_job(run) and skip is None:
        # YCSB's own whole-run figures stay (summary.py): records or operations per second from
        # start to end; across trials they are judged like any other figure
        return {"window": "whole job (a load or a phase that consumes its data: its figure is "
                          "the job from start to end)", "steady": True,
                "window_start_s": 0.0, "window_end_s": math.nan, "window_intervals": 0,
                WINDOW_KIND: WindowKind.WHOLE_JOB}
    series = interval_throughput(run)
    start, end, kind, how, steady = window(run, series, skip)
    row: dict = {"window": how, "steady": steady, "window_start_s": start,
                 "window_end_s": end if end != math.inf else math.nan}
    est: dict[str, Estimate] = {}
    thr = _in(series, start, end)
    row["window_intervals"] = int(len(thr))
    if len(thr):
        est["throughput_ops_per_s"] = within_run(values(thr["ops_per_s"]))
    if main_metric:
        lat = _in(_latency_series(run, main_metric), start, end)
        if lat.height and lat["count"].sum() > 0:
            value = float(lat["sum"].sum() / lat["count"].sum())
            est["average_latency_us"] = within_run(values(lat["avg"]), value)
        est |= {f"{name}_latency_us": e
                for name, e in window_percentiles(run, main_metric, start, end).items()}
        if "p99_latency_us" not in est:
            # without .hdr interval logs percentiles cannot be recomputed for the window (and are
            # never averaged): YCSB's whole-run figures stay, without an interval
            row["window"] += "; p95/p99 over the whole run (no .hdr logs)"
    if batched:
        r = _in(_summed(record_throughput(run), "records_per_s"), start, end)
        if r.height:
            est["records_per_s"] = within_run(values(r["records_per_s"]))
    for f, e in est.items():
        row[f] = e.value
        row[f"{f}_se"], row[f"{f}_df"] = e.se, e.df
        row[f"{f}_ci_low"], row[f"{f}_ci_high"] = e.low, e.high
    row[WINDOW_KIND] = kind
    return row
