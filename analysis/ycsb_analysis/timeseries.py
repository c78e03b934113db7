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
        t0 = entries["time"].min() - pd.to_timedelta(
            entries.loc[entries["time"].idxmin(), "elapsed_s"], unit="s"
        )
        starts.append(t0)
    return min(starts) if starts else None


def _interval_lengths(entries: pd.DataFrame) -> pd.Series:
    """Seconds covered by each entry, as YCSB measured them.

    YCSB prints ``current ops/sec`` = operations since the previous entry / milliseconds
    since it (since the client's start for the first entry), so Δoperations / current ops/sec
    is the interval's real length — the first one included, which the whole-second
    ``elapsed`` cannot give (``1 sec`` may be 1.9 s; a guessed length made a false peak).
    Entries with no operation (current 0) or ``∞`` (0 ms) fall back to the time since the
    previous entry, and a first entry at ``∞`` covers no time at all.
    """
    t = entries["time"]
    dt = t.diff().dt.total_seconds()
    ops = entries["operations"].astype(float)
    d_ops = ops.diff()
    d_ops.iloc[0] = ops.iloc[0]
    cur = entries["current_ops_per_s"].astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        measured = d_ops / cur
    usable = np.isfinite(measured) & (cur > 0) & (d_ops > 0)
    out = dt.where(~usable, measured)
    if len(out):
        first_cur = float(cur.iloc[0]) if len(cur) else np.nan
        if not usable.iloc[0]:
            out.iloc[0] = (
                0.0
                if (np.isinf(first_cur) or ops.iloc[0] == 0 or entries["elapsed_s"].iloc[0] == 0)
                else float(entries["elapsed_s"].iloc[0])
            )
    return out.where(out >= 0, np.nan)


def _grid(first: float, end: float, step: float) -> np.ndarray:
    """Cell edges every ``step`` seconds from ``first``; the last cell ends at ``end``."""
    n = max(1, int(np.ceil((end - first) / step - 1e-9)))
    return np.unique(np.minimum(first + step * np.arange(n + 1), end))


def _cumulative_on_grid(
    curves: list[tuple[np.ndarray, np.ndarray]], grid: np.ndarray
) -> np.ndarray:
    """Sum of several clients' cumulative counts (piecewise linear in time) at ``grid``."""
    total = np.zeros(len(grid))
    for t, cum in curves:
        total += np.interp(grid, t, cum, left=0.0, right=cum[-1])
    return total


def operation_throughput(run: Run) -> pd.DataFrame:
    """``t_s, metric, operation, failed, ops_per_s``: per-metric throughput, clients summed.

    Each client's operations of a metric are a cumulative count over time (status entries at
    their interval ends, each interval as long as YCSB measured it); the clients' counts are
    summed and read on one grid of the status interval, so every operation is counted once
    and clients whose ticks fall at different moments add up without false peaks. ``t_s`` is
    the end of each grid cell (the last one ends with the run). Only metrics whose status
    format reports a count (hdrhistogram, raw) can be placed; ``histogram``/``timeseries``
    status lines only print an average.
    """
    columns = ["t_s", "metric", "operation", "failed", "ops_per_s"]
    start = _run_start(run)
    curves: dict[tuple, list] = {}
    steps, ends = [], []
    for _, entries, meas in _client_frames(run):
        if meas.empty or "count" not in meas:
            continue
        e = entries.sort_values("time").copy()
        e["interval_s"] = _interval_lengths(e).to_numpy()
        e["t_s"] = (e["time"] - start).dt.total_seconds()
        steps += e["interval_s"][e["interval_s"] > 0].tolist()
        ends.append(float(e["t_s"].max()))
        # Only the columns used here are filtered, merged and sorted: every step copies
        # what it is given, and a status log's frame has ~17 columns of millions of rows.
        wanted = (
            meas["count"].notna().to_numpy()
            & ~meas["intended"].astype(bool).to_numpy()
            & meas["structure"].isin(["", "hdrhistogram", "raw"]).to_numpy()
        )
        m = meas.loc[wanted, ["entry", "metric", "operation", "failed", "count"]]
        m = m.merge(e[["entry", "interval_s", "t_s"]], on="entry").sort_values("t_s")
        for (metric, operation, failed), g in m.groupby(
            ["metric", "operation", "failed"], sort=False
        ):
            t_end = g["t_s"].to_numpy(dtype=float)
            first_len = g["interval_s"].iloc[0] if np.isfinite(g["interval_s"].iloc[0]) else 0.0
            # A 0-ms first interval (``∞`` ops/sec) still starts a moment before it ends, so its
            # operations fall inside the first grid cell instead of before it.
            first_start = t_end[0] - max(first_len, 1e-3)
            t = np.concatenate([[first_start], t_end])
            cum = np.concatenate([[0.0], np.cumsum(g["count"].to_numpy(dtype=float))])
            curves.setdefault((metric, operation, bool(failed)), []).append((t, cum))
    if not curves:
        return pd.DataFrame(columns=columns).astype({"failed": bool})
    step = float(np.median(steps)) if steps else 1.0
    end = max(ends)
    first = min(float(t[0]) for cs in curves.values() for t, _ in cs)
    edges = _grid(first, end, step)
    widths = np.diff(edges)
    rows = []
    for (metric, operation, failed), cs in curves.items():
        cum = _cumulative_on_grid(cs, edges)
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = np.diff(cum) / widths
        ok = widths > step * 0.05   # a sliver at the very end says nothing about a rate
        rows.append(pd.DataFrame({"t_s": edges[1:][ok], "metric": metric, "operation": operation,
                                  "failed": failed, "ops_per_s": rate[ok]}))
    out = pd.concat(rows, ignore_index=True)
    return out[~out["operation"].isin(NOT_PLOTTED_OPERATIONS)].sort_values(["metric", "t_s"])[
        columns
    ]


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
    out = thr[
        ~thr["failed"]
        & thr["operation"].isin(per_batch.index)
        & (thr["metric"] == thr["operation"])
    ].copy()
    out["records_per_batch"] = out["operation"].map(per_batch).to_numpy(dtype=float)
    out["records_per_s"] = out["ops_per_s"] * out["records_per_batch"]
    return out[["t_s", "operation", "records_per_s", "records_per_batch"]].reset_index(drop=True)


def total_throughput(run: Run) -> pd.DataFrame:
    """``t_s, ops_per_s``: YCSB's own ``current ops/sec``, summed over clients on the grid
    of :func:`operation_throughput` (each client's operation total as a cumulative count)."""
    start = _run_start(run)
    curves, steps, ends = [], [], []
    for _, entries, _ in _client_frames(run):
        e = entries.sort_values("time")
        lengths = _interval_lengths(e).to_numpy()
        t_end = (e["time"] - start).dt.total_seconds().to_numpy(dtype=float)
        steps += [x for x in lengths if np.isfinite(x) and x > 0]
        ends.append(float(t_end.max()))
        first = t_end[0] - max(lengths[0] if np.isfinite(lengths[0]) else 0.0, 1e-3)
        curves.append((np.concatenate([[first], t_end]),
                       np.concatenate([[0.0], e["operations"].to_numpy(dtype=float)])))
    if not curves:
        return pd.DataFrame(columns=["t_s", "ops_per_s"])
    step = float(np.median(steps)) if steps else 1.0
    first = min(float(t[0]) for t, _ in curves)
    end = max(ends)
    edges = _grid(first, end, step)
    cum = _cumulative_on_grid(curves, edges)
    widths = np.diff(edges)
    ok = widths > step * 0.05
    return pd.DataFrame({"t_s": edges[1:][ok], "ops_per_s": (np.diff(cum) / widths)[ok]})


def latency_over_time(run: Run) -> pd.DataFrame:
    """``client, t_s, metric, operation, average_latency_us, p…`` per status entry."""
    start = _run_start(run)
    frames = []
    for idx, entries, meas in _client_frames(run):
        if meas.empty:
            continue
        m = meas[
            ~meas["operation"].isin(NOT_PLOTTED_OPERATIONS) & ~meas["intended"].astype(bool)
        ].copy()
        m = m[(m["count"].isna()) | (m["count"] > 0)]
        m["t_s"] = (m["time"] - start).dt.total_seconds()
        m["client"] = idx
        frames.append(m)
    if not frames:
        return pd.DataFrame(
            columns=["client", "t_s", "metric", "operation", "failed", "average_latency_us"]
        )
    return pd.concat(frames, ignore_index=True)


def intended_latency_over_time(run: Run) -> pd.DataFrame:
    """Like :func:`latency_over_time`, for the ``Intended-`` metrics only (status lines of
    ``measurement.interval=intended|both``): latency from the intended start under ``-target``."""
    start = _run_start(run)
    frames = []
    for idx, entries, meas in _client_frames(run):
        if meas.empty:
            continue
        m = meas[
            ~meas["operation"].isin(NOT_PLOTTED_OPERATIONS) & meas["intended"].astype(bool)
        ].copy()
        m = m[(m["count"].isna()) | (m["count"] > 0)]
        if m.empty:
            continue
        m["t_s"] = (m["time"] - start).dt.total_seconds()
        m["client"] = idx
        frames.append(m)
    if not frames:
        return pd.DataFrame(
            columns=["client", "t_s", "metric", "operation", "failed", "average_latency_us"]
        )
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
    columns = ["t_s", "metric", "operation", "failed", "count", "clients"] + [
        f"p{p:g}" for p in points
    ]
    logs_by_metric: dict[str, list] = {}
    for c in run.clients:
        for metric, log in c.hdr_logs.items():
            logs_by_metric.setdefault(metric, []).append(log)
    logs_by_metric = {
        m: logs
        for m, logs in logs_by_metric.items()
        if len(logs) == len(run.clients)
        and not m.startswith("Intended-")
        and not m.endswith(RECORDS_SUFFIX)
        and split_metric(m).operation not in NOT_PLOTTED_OPERATIONS
    }
    all_logs = [log for logs in logs_by_metric.values() for log in logs if not log.intervals.empty]
    if not all_logs:
        return pd.DataFrame(columns=columns)
    t0 = min(float(log.intervals["start_s"].min()) for log in all_logs)
    rows = []
    for metric, logs in logs_by_metric.items():
        name = split_metric(metric)
        for k in range(max(len(log.histograms) for log in logs)):  # one per status tick: small
            ticks = [
                (log.intervals.iloc[k], log.histograms[k])
                for log in logs
                if k < len(log.histograms)
            ]
            merged = merge_histograms([h for _, h in ticks])
            if merged.total_count == 0:
                continue
            ends = [iv["start_s"] + iv["length_s"] - t0 for iv, _ in ticks]
            rows.append(
                {
                    "t_s": float(np.median(ends)),
                    "metric": metric,
                    "operation": name.operation,
                    "failed": name.failed,
                    "count": merged.total_count,
                    "clients": len(ticks),
                    **percentiles(merged, points),
                }
            )
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
    # Read once per distinct metric name (a handful), not per interval row.
    codes, names = pd.factorize(thr["metric"])
    parts = pd.Series(names, dtype=object).str.extract(r"^(?P<op>.+)-(?P<status>[A-Z_]+)$")
    split = pd.DataFrame(
        {c: parts[c].to_numpy(dtype=object)[codes] for c in ("op", "status")}, index=thr.index
    )
    records = np.array([str(n).endswith("-RECORDS") for n in names], dtype=bool)[codes]
    status_named = split["op"].isin(known_ops) & ~records
    err = thr[is_error | status_named].copy()
    err["status"] = np.where(err["failed"], "FAILED", split.loc[err.index, "status"])
    err["operation"] = np.where(err["failed"], err["operation"], split.loc[err.index, "op"])
    return err.rename(columns={"ops_per_s": "errors_per_s"})[
        ["t_s", "metric", "operation", "status", "errors_per_s"]
    ]
