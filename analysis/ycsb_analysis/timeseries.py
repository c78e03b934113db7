"""Per-interval figures of a run, from its clients' status lines and .hdr logs.

Status entries carry, per metric, the number of operations measured in that interval
(``[READ: Count=14, ...]``) — so a metric's throughput over time is Count / interval
length. Clients of one run are put on one time axis (seconds since the run's first status
entry, less its elapsed time) and summed per interval for throughput; latency percentiles
are drawn per client, because per-interval percentiles of different clients cannot be
added.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .loader import Run

NOT_PLOTTED_OPERATIONS = {"CLEANUP"}


def _client_frames(run: Run) -> list[tuple[int, pd.DataFrame, pd.DataFrame]]:
    return [(c.index, c.output.status_entries, c.output.status_measurements) for c in run.clients
            if not c.output.status_entries.empty]


def _run_start(run: Run) -> pd.Timestamp | None:
    starts = []
    for _, entries, _ in _client_frames(run):
        t0 = entries["time"].min() - pd.to_timedelta(entries.loc[entries["time"].idxmin(), "elapsed_s"], unit="s")
        starts.append(t0)
    return min(starts) if starts else None


def _interval_lengths(entries: pd.DataFrame) -> pd.Series:
    """Seconds covered by each entry: time since the previous entry (first: its elapsed)."""
    t = entries["time"]
    dt = t.diff().dt.total_seconds()
    typical = float(dt[dt > 0].median()) if (dt > 0).any() else 1.0
    first = float(entries["elapsed_s"].iloc[0]) if len(entries) else typical
    dt.iloc[0] = first if first > 0 else typical
    return dt.where(dt > 0, np.nan)


def operation_throughput(run: Run) -> pd.DataFrame:
    """``t_s, metric, operation, failed, ops_per_s``: per-metric throughput, clients summed.

    Only metrics whose status format reports a count (hdrhistogram, raw) can be placed;
    ``histogram``/``timeseries`` status lines only print an average.
    """
    start = _run_start(run)
    frames = []
    for _, entries, meas in _client_frames(run):
        if meas.empty or "count" not in meas:
            continue
        e = entries.copy()
        e["interval_s"] = _interval_lengths(e).to_numpy()
        e["t_s"] = (e["time"] - start).dt.total_seconds()
        m = meas[meas["count"].notna() & ~meas["intended"].astype(bool)]
        m = m[m["structure"].isin(["", "hdrhistogram", "raw"])]
        m = m.merge(e[["entry", "interval_s", "t_s"]], on="entry")
        m["ops_per_s"] = m["count"] / m["interval_s"]
        frames.append(m[["t_s", "metric", "operation", "failed", "ops_per_s", "interval_s"]])
    if not frames:
        return pd.DataFrame(columns=["t_s", "metric", "operation", "failed", "ops_per_s"]).astype({"failed": bool})
    allm = pd.concat(frames, ignore_index=True)
    step = float(allm["interval_s"].median()) or 1.0
    allm["t_s"] = (allm["t_s"] / step).round() * step   # align clients on the status grid
    out = allm.groupby(["t_s", "metric", "operation", "failed"], as_index=False)["ops_per_s"].sum()
    return out[~out["operation"].isin(NOT_PLOTTED_OPERATIONS)].sort_values(["metric", "t_s"])


def total_throughput(run: Run) -> pd.DataFrame:
    """``t_s, ops_per_s``: YCSB's own ``current ops/sec``, summed over clients."""
    start = _run_start(run)
    frames = []
    for _, entries, _ in _client_frames(run):
        e = entries[["time", "current_ops_per_s"]].copy()
        e["t_s"] = (e["time"] - start).dt.total_seconds()
        e["interval_s"] = _interval_lengths(entries).to_numpy()
        frames.append(e)
    if not frames:
        return pd.DataFrame(columns=["t_s", "ops_per_s"])
    allm = pd.concat(frames, ignore_index=True)
    allm = allm[np.isfinite(allm["current_ops_per_s"])]
    step = float(allm["interval_s"].median()) or 1.0
    allm["t_s"] = (allm["t_s"] / step).round() * step
    return allm.groupby("t_s", as_index=False)["current_ops_per_s"].sum().rename(
        columns={"current_ops_per_s": "ops_per_s"})


def latency_over_time(run: Run) -> pd.DataFrame:
    """``client, t_s, metric, operation, average_latency_us, p…`` per status entry."""
    start = _run_start(run)
    frames = []
    for idx, entries, meas in _client_frames(run):
        if meas.empty:
            continue
        m = meas[~meas["operation"].isin(NOT_PLOTTED_OPERATIONS) & ~meas["intended"].astype(bool)].copy()
        m = m[(m["count"].isna()) | (m["count"] > 0)]
        m["t_s"] = (m["time"] - start).dt.total_seconds()
        m["client"] = idx
        frames.append(m)
    if not frames:
        return pd.DataFrame(columns=["client", "t_s", "metric", "operation", "failed", "average_latency_us"])
    return pd.concat(frames, ignore_index=True)


def errors_over_time(run: Run) -> pd.DataFrame:
    """``t_s, metric, operation, status, errors_per_s``: failed operations per interval.

    Status lines carry failures as their own metrics: ``READ-FAILED`` by default, or
    ``READ-NOT_FOUND`` etc. with ``reportlatencyforerror=true`` / ``latencytrackederrors``.
    """
    thr = operation_throughput(run)
    if thr.empty:
        return pd.DataFrame(columns=["t_s", "metric", "operation", "status", "errors_per_s"])
    known_ops = set(thr.loc[~thr["failed"], "operation"])
    is_error = thr["failed"].astype(bool)
    # `READ-NOT_FOUND`: an op name seen elsewhere, a dash, and an upper-case status name.
    split = thr["metric"].str.extract(r"^(?P<op>.+)-(?P<status>[A-Z_]+)$")
    status_named = split["op"].isin(known_ops) & ~thr["metric"].str.endswith("-RECORDS")
    err = thr[is_error | status_named].copy()
    err["status"] = np.where(err["failed"], "FAILED", split.loc[err.index, "status"])
    err["operation"] = np.where(err["failed"], err["operation"], split.loc[err.index, "op"])
    return err.rename(columns={"ops_per_s": "errors_per_s"})[["t_s", "metric", "operation", "status",
                                                               "errors_per_s"]]
