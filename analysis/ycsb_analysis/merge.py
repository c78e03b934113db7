"""Merge the clients of one phase into one set of figures, field by field.

Several YCSB processes running one phase (``insertstart``/``insertcount`` splits, or the
seed's four HBase clients) each print their own report. Adding them up correctly is
different per field; :data:`MERGE_RULES` is that table, and the README prints it.
Percentiles are never averaged: they come from the merged HdrHistograms of the clients'
``.hdr`` logs, or are reported as unavailable.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from .hdr_logs import merge_histograms, percentiles
from .model import Run
from .readers.final_report import float_or_nan, percentile_columns
from .timeseries import seconds

# analysis/README.md ("Merge rules") prints this table; a test checks the two are equal
# (the README may add `code` marks).
MERGE_RULES: dict[str, str] = {
    "operations, Return= counts": "sum over clients",
    "throughput (ops/s), records/s": "sum over clients (each client's count / its own run time)",
    "run time": "maximum over clients",
    "average latency": "mean weighted by each client's operations",
    "minimum / maximum latency": "minimum of minimums / maximum of maximums",
    "latency variance (histogram type)": "pooled variance (within-client + spread of the means)",
    "percentiles": "recomputed from the merged .hdr logs of the clients; unavailable (–, NaN) "
    "when a client has no log — never averaged",
}

PERCENTILES_REPORTED = "reported"  # one client: YCSB's own figure
PERCENTILES_MERGED = "merged .hdr logs"
PERCENTILES_UNAVAILABLE = "unavailable"


@dataclass
class MergedRun:
    """A phase's figures after merging its clients."""

    run: Run
    operations: pl.DataFrame  # one row per latency metric (see merge_operations)
    returns: pl.DataFrame  # operation, intended, status, count
    overall: dict[str, float]  # runtime_ms, throughput_ops_per_s, clients


# A merged operation's figures, in the order the tables show them.
FIGURE_COLUMNS = ["clients", "operations", "throughput_ops_per_s", "average_latency_us",
                  "min_latency_us", "max_latency_us"]


def merge_operations(run: Run) -> pl.DataFrame:
    """One row per metric with merged operations, latencies, percentiles and throughput."""
    frames = [c.output.summary.with_columns(client=pl.lit(c.index),
                                            runtime_s=c.output.overall["runtime_ms"] / 1000.0)
              for c in run.clients if c.output.summary.height]
    if not frames:
        return pl.DataFrame()
    allc = pl.concat(frames, how="diagonal_relaxed")
    pcols = percentile_columns(allc)
    rows = []
    for (metric,), g in allc.group_by("metric", maintain_order=True):
        w = g["operations"].fill_null(0).to_numpy()
        row = {k: g[k][0] for k in ("metric", "operation", "failed", "intended", "structure")}
        row |= {"clients": g.height, "operations": float(w.sum()),
                "min_latency_us": float_or_nan(g["min_latency_us"].min()),
                "max_latency_us": float_or_nan(g["max_latency_us"].max())}
        avg = g["average_latency_us"].to_numpy().astype(float)
        var = g["latency_variance_us"].to_numpy().astype(float)
        ok = (w > 0) & ~np.isnan(avg)
        mu = row["average_latency_us"] = (
            float(np.average(avg[ok], weights=w[ok])) if ok.any() else np.nan)
        row["latency_variance_us"] = (  # within-client + spread of the means
            float(np.sum(w[ok] * (var[ok] + (avg[ok] - mu) ** 2)) / w[ok].sum())
            if ok.any() and not np.isnan(var[ok]).any() else np.nan)
        rt = g["runtime_s"].to_numpy().astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            per_client = np.where(rt > 0, w / rt, np.nan)
        row["throughput_ops_per_s"] = (
            float(np.nansum(per_client)) if not np.isnan(per_client).all() else np.nan)
        row |= _percentiles(run, metric, g, pcols)
        rows.append(row)
    out = pl.DataFrame(rows, infer_schema_length=None).fill_nan(None)
    order = ["metric", "operation", "failed", "intended", "structure", *FIGURE_COLUMNS,
             "latency_variance_us"]
    return out.select(order + percentile_columns(out) + ["percentiles_source"])


def _percentiles(run: Run, metric: str, g: pl.DataFrame, pcols: list[str]) -> dict:
    """A metric's percentiles over the clients (``g``: their summary rows): YCSB's own of a
    single client, else from the clients' merged .hdr logs, else unavailable (NaN)."""
    if g.height == 1 and len(run.clients) == 1:
        reported = {p: float_or_nan(g[p][0]) for p in pcols}
        return reported | {"percentiles_source": PERCENTILES_REPORTED}
    having = set(g["client"])
    logs = [c.hdr_logs.get(metric) for c in run.clients if c.index in having]
    if logs and all(log is not None for log in logs):
        points = [float(p[1:]) for p in pcols] or [50.0, 95.0, 99.0]
        figures = percentiles(merge_histograms([log.total() for log in logs]), points)
        return ({p: figures.get(p, np.nan) for p in pcols or [f"p{x:g}" for x in points]}
                | {"percentiles_source": PERCENTILES_MERGED})
    have = sum(log is not None for log in logs)
    return {p: np.nan for p in pcols} | {"percentiles_source": (
        f"{PERCENTILES_UNAVAILABLE}: {g.height} clients, {have} with .hdr logs")}


def merge_returns(run: Run) -> pl.DataFrame:
    """``Return=`` counts summed over clients: operation, intended, status, count."""
    frames = [c.output.returns for c in run.clients if c.output.returns.height]
    if not frames:
        return pl.DataFrame(schema={"operation": pl.String, "intended": pl.Boolean,
                                    "status": pl.String, "count": pl.Int64})
    return (pl.concat(frames).group_by(["operation", "intended", "status"], maintain_order=True)
            .agg(pl.col("count").sum()))


def merge_overall(run: Run) -> dict[str, float]:
    """``runtime_ms`` (max), ``throughput_ops_per_s`` (sum), ``clients``."""
    o = [c.output.overall for c in run.clients]
    runtimes = [x["runtime_ms"] for x in o if not np.isnan(x["runtime_ms"])]
    thr = [x["throughput_ops_per_s"] for x in o if not np.isnan(x["throughput_ops_per_s"])]
    return {
        "runtime_ms": max(runtimes) if runtimes else np.nan,
        "throughput_ops_per_s": float(sum(thr)) if thr else np.nan,
        "clients": len(run.clients),
    }


def _clock_shift_s(run: Run) -> dict[int, float]:
    """Seconds to add to client i's status-line times to put them on one clock: a fleet
    client's lines carry its loader's local time, so its zone and its clock offset from the
    coordinator (metadata ``fleet.clients``) are taken off; local clients share one clock."""
    shift = {}
    for c in (run.metadata.get("fleet") or {}).get("clients") or []:
        if c.get("utc_offset_s") is not None and c.get("clock_offset_s") is not None:
            shift[int(c["client"])] = -float(c["utc_offset_s"]) - float(c["clock_offset_s"])
    return shift


def all_running_throughput(run: Run) -> dict[str, float]:
    """Merged throughput over the window in which every client ran (several clients only).

    Each client's operations completed in the window [latest start, earliest end] are
    interpolated from its status lines' cumulative counts (start = first line's time minus its
    elapsed seconds, end = its last line), summed, and divided by the window's length: clients
    that start or end at different times do not add their lonely seconds to the figure.
    ``{"window_s", "throughput_ops_per_s"}``, NaN when a client has no status lines.
    """
    nan = {"window_s": np.nan, "throughput_ops_per_s": np.nan}
    if len(run.clients) < 2:
        return nan
    shift = _clock_shift_s(run)
    curves = []
    for c in run.clients:
        e = c.output.status_entries.drop_nulls("operations").sort("time", maintain_order=True)
        if e.is_empty():
            return nan
        t = seconds(e["time"].dt.epoch("ms").to_numpy()) + shift.get(c.index, 0.0)
        start = t[0] - float(e["elapsed_s"][0])
        curves.append((np.concatenate([[start], t]),
                       np.concatenate([[0.0], e["operations"].to_numpy()])))
    w0 = max(x[0] for x, _ in curves)
    w1 = min(x[-1] for x, _ in curves)
    if w1 <= w0:
        return nan
    done = sum(np.interp(w1, x, y) - np.interp(w0, x, y) for x, y in curves)
    return {"window_s": float(w1 - w0), "throughput_ops_per_s": float(done / (w1 - w0))}


def merge_clients(run: Run) -> MergedRun:
    """Merge every client of ``run`` per :data:`MERGE_RULES`."""
    window = all_running_throughput(run)
    overall = merge_overall(run) | {
        "all_running_window_s": window["window_s"],
        "all_running_throughput_ops_per_s": window["throughput_ops_per_s"]}
    return MergedRun(run, merge_operations(run), merge_returns(run), overall)
