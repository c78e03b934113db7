"""Each client's own figures of a run, beside the merged ones: what a reviewer checks first
when one client of four was slower, stalled in GC or saw errors."""

from __future__ import annotations

import numpy as np
import polars as pl

from .model import Run, workload_operations
from .readers.final_report import float_or_nan, percentile_columns

CLIENT_COLUMNS = ["client", "source", "runtime_ms", "throughput_ops_per_s", "operations", "returns",
                  "gc_count", "gc_time_ms", "gc_time_percent"]


def _one(report: pl.DataFrame, metric: str, measurement: str) -> float:
    v = report.filter((pl.col("metric") == metric) & (pl.col("measurement") == measurement))
    return float_or_nan(v["value"][-1]) if v.height else np.nan


def client_figures(run: Run) -> pl.DataFrame:
    """One row per client: run time, throughput, operations, ``Return=`` counts and GC.

    ``operations`` sums the ``Operations`` of the workload's own metrics (OK and ``-FAILED``,
    no ``Intended-`` copies); ``returns`` lists the statuses as YCSB printed them (``OK 3994,
    NOT_FOUND 383``). GC figures are YCSB's totals.
    """
    rows = []
    for c in run.clients:
        o = c.output
        s = o.summary
        ops = float(s.filter(~pl.col("intended") & pl.col("structure").is_in(["", "hdrhistogram"])
                             & workload_operations(pl.col("operation")))["operations"].sum()
                    ) if s.height else np.nan
        statuses = (o.returns.filter(~pl.col("intended"))
                    .group_by("status", maintain_order=True).agg(pl.col("count").sum()))
        rows.append({
            "client": c.index,
            # file names only: the run's directory is named above the table (figures.csv
            # keeps paths)
            "source": o.file_names,
            **o.overall,
            "operations": ops,
            "returns": ", ".join(f"{s} {int(n)}" for s, n in statuses.rows()),
            "gc_count": _one(o.report, "TOTAL_GCs", "Count"),
            "gc_time_ms": _one(o.report, "TOTAL_GC_TIME", "Time(ms)"),
            "gc_time_percent": _one(o.report, "TOTAL_GC_TIME_%", "Time(%)"),
        })
    return pl.DataFrame(rows, schema={c: pl.Float64 for c in CLIENT_COLUMNS} | {
        "client": pl.Int64, "source": pl.String, "returns": pl.String}).fill_nan(None)


def client_latencies(run: Run) -> pl.DataFrame:
    """Every client's own latency summary (YCSB's figures, unmerged): client, metric, operations,
    average/min/max and the percentiles it printed."""
    frames = [c.output.summary.with_columns(client=pl.lit(c.index, pl.Int64))
              for c in run.clients if c.output.summary.height]
    if not frames:
        return pl.DataFrame(schema={"client": pl.Int64, "metric": pl.String})
    df = pl.concat(frames, how="diagonal_relaxed")
    return df.select("client", "metric", "operations", "average_latency_us", "min_latency_us",
                     "max_latency_us", *percentile_columns(df))
