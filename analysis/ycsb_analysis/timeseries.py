"""Per-interval figures of a run, from its clients' status lines and .hdr logs.

Status entries carry, per metric, the number of operations measured in that interval
(``[READ: Count=14, ...]``) — so a metric's throughput over time is Count / interval
length. Clients of one run are put on one time axis (seconds since the run's first status
entry, less its elapsed time) and summed per interval for throughput; latency percentiles
are drawn per client, because per-interval percentiles of different clients cannot be
added — unless the clients wrote .hdr interval logs: then the intervals' histograms are
merged across clients (:func:`merged_latency_over_time`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .batched import RECORDS_SUFFIX, records_table
from .hdr_logs import merge_histograms, percentiles
from .loader import Run
from .report_parser import split_metric

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


def record_throughput(run: Run) -> pd.DataFrame:
    """``t_s, operation, records_per_s, records_per_batch``: records/s of batch operations
    over time, clients summed.

    Status lines count batches per interval, not records (the ``<OP>-RECORDS`` block holds
    only statuses, its interval ``Count`` stays 0), so each interval's batches/s is scaled by
    the phase's records per batch from the final report (OK records / batches; ``batchsize``
    when there is no ``-RECORDS`` block).
    """
    rec = records_table(run)
    thr = operation_throughput(run)
    if rec.empty or thr.empty:
        return pd.DataFrame(columns=["t_s", "operation", "records_per_s", "records_per_batch"])
    per_batch = (rec["records_ok"] / rec["batches"]).set_axis(rec["operation"])
    out = thr[~thr["failed"] & thr["operation"].isin(per_batch.index) & (thr["metric"] == thr["operation"])].copy()
    out["records_per_batch"] = out["operation"].map(per_batch).to_numpy(dtype=float)
    out["records_per_s"] = out["ops_per_s"] * out["records_per_batch"]
    return out[["t_s", "operation", "records_per_s", "records_per_batch"]].reset_index(drop=True)


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


def merged_latency_over_time(run: Run, points=(50.0, 99.0, 99.9)) -> pd.DataFrame:
    """``t_s, metric, operation, failed, count, clients, p50, p99, p99.9``: per-interval latency
    of all clients together, from their ``.hdr`` interval logs.

    Each client logs one histogram per status tick; the k-th intervals of the clients are
    merged (the clients of a phase start together, so their k-th ticks fall within one
    interval of each other — rounding times to a grid would instead fold a run's short last
    interval into the one before) and read: percentiles are never averaged. ``t_s`` is the
    median end of those intervals since the earliest log start. A metric is left out unless
    every client has a log of it.
    """
    columns = ["t_s", "metric", "operation", "failed", "count", "clients"] + [f"p{p:g}" for p in points]
    logs_by_metric: dict[str, list] = {}
    for c in run.clients:
        for metric, log in c.hdr_logs.items():
            logs_by_metric.setdefault(metric, []).append(log)
    logs_by_metric = {m: logs for m, logs in logs_by_metric.items()
                      if len(logs) == len(run.clients) and not m.startswith("Intended-")
                      and not m.endswith(RECORDS_SUFFIX) and split_metric(m).operation not in NOT_PLOTTED_OPERATIONS}
    all_logs = [log for logs in logs_by_metric.values() for log in logs if not log.intervals.empty]
    if not all_logs:
        return pd.DataFrame(columns=columns)
    t0 = min(float(log.intervals["start_s"].min()) for log in all_logs)
    rows = []
    for metric, logs in logs_by_metric.items():
        name = split_metric(metric)
        for k in range(max(len(log.histograms) for log in logs)):  # one per status tick: small
            ticks = [(log.intervals.iloc[k], log.histograms[k]) for log in logs if k < len(log.histograms)]
            merged = merge_histograms([h for _, h in ticks])
            if merged.total_count == 0:
                continue
            ends = [iv["start_s"] + iv["length_s"] - t0 for iv, _ in ticks]
            rows.append({"t_s": float(np.median(ends)), "metric": metric, "operation": name.operation,
                         "failed": name.failed, "count": merged.total_count, "clients": len(ticks),
                         **percentiles(merged, points)})
    return pd.DataFrame(rows, columns=columns)


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
