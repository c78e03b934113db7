"""Each client's own figures of a run, beside the merged ones: what a reviewer checks first
when one client of four was slower, stalled in GC or saw errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .model import Run, workload_operations
from .readers.final_report import percentile_columns

CLIENT_COLUMNS = ["client", "source", "runtime_ms", "throughput_ops_per_s", "operations", "returns",
                  "gc_count", "gc_time_ms", "gc_time_percent"]


def _one(report: pd.DataFrame, metric: str, measurement: str) -> float:
    if report.empty:
        return np.nan
    v = report.loc[(report["metric"] == metric) & (report["measurement"] == measurement), "value"]
    return float(v.iloc[-1]) if len(v) else np.nan


def client_figures(run: Run) -> pd.DataFrame:
    """One row per client: run time, throughput, operations, ``Return=`` counts and GC.

    ``operations`` sums the ``Operations`` of the workload's own metrics (OK and ``-FAILED``
    latencies of model.is_workload_operation, no ``Intended-`` copies);
    ``returns`` lists the statuses as YCSB printed them (``OK 3994, NOT_FOUND 383``).
    GC figures are YCSB's totals (``[TOTAL_GCs], Count`` and ``[TOTAL_GC_TIME], Time(ms)``).
    """
    rows = []
    for c in run.clients:
        o = c.output
        rep = o.report
        ops = np.nan
        s = o.summary
        if not s.empty:
            ops = float(s.loc[~s["intended"] & s["structure"].isin(["", "hdrhistogram"])
                              & workload_operations(s["operation"]), "operations"].sum())
        ret = o.returns
        ret = ret[~ret["intended"].astype(bool)] if not ret.empty else ret
        statuses = (ret.groupby("status", sort=False)["count"].sum() if not ret.empty
                    else pd.Series(dtype="int64"))
        rows.append(
            {
                "client": c.index,
                # file names only: the run's directory is named above the table
                # (figures.csv keeps paths)
                "source": " + ".join(Path(part).name for part in o.source.split(" + ")),
                "runtime_ms": o.overall["runtime_ms"],
                "throughput_ops_per_s": o.overall["throughput_ops_per_s"],
                "operations": ops,
                "returns": ", ".join(f"{s} {int(n)}" for s, n in statuses.items()),
                "gc_count": _one(rep, "TOTAL_GCs", "Count"),
                "gc_time_ms": _one(rep, "TOTAL_GC_TIME", "Time(ms)"),
                "gc_time_percent": _one(rep, "TOTAL_GC_TIME_%", "Time(%)"),
            }
        )
    return pd.DataFrame(rows, columns=CLIENT_COLUMNS)


def client_latencies(run: Run) -> pd.DataFrame:
    """Every client's own latency summary (YCSB's figures, unmerged): client, metric, operations,
    average/min/max and the percentiles it printed."""
    frames = [
        c.output.summary.assign(client=c.index) for c in run.clients if not c.output.summary.empty
    ]
    if not frames:
        return pd.DataFrame(columns=["client", "metric"])
    df = pd.concat(frames, ignore_index=True)
    return df[["client", "metric", "operations", "average_latency_us", "min_latency_us",
               "max_latency_us", *percentile_columns(df)]]
