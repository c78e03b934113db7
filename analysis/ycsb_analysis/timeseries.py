"""Per-interval figures of a run, from its clients' status lines and .hdr logs.

A metric's throughput over time is its status entries' Count (``[READ: Count=14, ...]``) /
interval length. Clients of one run share one time axis (seconds since the earliest client
start) and are summed for throughput; latency percentiles are drawn per client (per-interval
percentiles cannot be added), unless the clients wrote .hdr interval logs: then the intervals'
histograms are merged across clients (:func:`merged_latency_over_time`).
"""

from __future__ import annotations

import re

import numpy as np
import polars as pl

from .batched import records_table
from .hdr_logs import merge_histograms, percentiles
from .model import Run, is_workload_operation, workload_operations
from .readers.final_report import split_metric

# An operation measured in several structures at once (measurementtype=hdrhistogram+histogram
# prints HdrREAD and BucketREAD, hdrhistogram+raw HdrREAD and RawREAD) is drawn from one of
# them, the first here that it has: the others print an average only, and rows of both in
# one line would zigzag between them (and break it at every missing percentile).
LATENCY_STRUCTURES = ["", "hdrhistogram", "raw", "histogram"]
# `READ-NOT_FOUND`: an operation's name, a dash and an upper-case status name
_STATUS_NAMED = re.compile(r"^(?P<op>.+)-(?P<status>[A-Z_]+)$")
THROUGHPUT_SCHEMA = {"t_s": pl.Float64, "metric": pl.String, "operation": pl.String,
                     "failed": pl.Boolean, "ops_per_s": pl.Float64}


def hdr_origin(run: Run, logs: list) -> float:
    """The epoch time of status time 0 (the clients' start, as interval_throughput counts it),
    to put .hdr and status intervals on one time axis. A .hdr log starts with its operation's
    first measurement, seconds after the client (connections, a table being created); the
    status lines' clock is the client's local time, whose UTC offset the .hdr header gives.
    Without it (no readable StartTime, no status lines): the first .hdr interval's start."""
    first_interval = min(log.intervals["start_s"].min() if log.intervals.height else np.nan
                         for log in logs)
    starts = []
    for c in run.clients:
        e = c.output.status_entries
        offsets = [log.utc_offset_s for log in c.hdr_logs.values() if log.utc_offset_s is not None]
        if e.is_empty() or not offsets:
            return first_interval
        starts.append(seconds(client_start(e)) - offsets[0])
    return min(starts, default=first_interval)


def epoch_ms(entries: pl.DataFrame) -> np.ndarray:
    """The entries' times (status lines' clock) as epoch milliseconds."""
    return entries["time"].dt.epoch("ms").to_numpy()


def seconds(ms):
    """Milliseconds (an integer or an array) as seconds: whole seconds plus the rest, as pandas
    reads a duration (so figures stay those of the pandas code, to the last bit)."""
    whole, rest = np.divmod(ms, 1000)
    return whole + rest / 1000.0


def client_start(entries: pl.DataFrame) -> int:
    """When a client started, on its status lines' clock (epoch ms)."""
    i = entries["time"].arg_min()
    return int(epoch_ms(entries)[i]) - round(float(entries["elapsed_s"][i]) * 1000)


def run_start(run: Run) -> int | None:
    """The earliest client start (:func:`client_start`, epoch ms)."""
    starts = [client_start(c.output.status_entries) for c in run.clients
              if c.output.status_entries.height]
    return min(starts) if starts else None


def interval_lengths(entries: pl.DataFrame) -> np.ndarray:
    """Seconds covered by each entry (in time order), as YCSB measured them: Δoperations /
    ``current ops/sec`` (operations / milliseconds since the previous entry, or the client's
    start), the first interval included, which the whole-second ``elapsed`` cannot give (``1
    sec`` may be 1.9 s; a guessed length made a false peak). Entries with no operation
    (current 0) or ``∞`` (0 ms) fall back to the time since the previous entry; a first entry
    at ``∞`` covers no time at all."""
    if entries.is_empty():
        return np.array([], dtype=float)
    dt = np.concatenate([[np.nan], seconds(np.diff(epoch_ms(entries)))])
    ops = values(entries["operations"])
    d_ops = np.concatenate([ops[:1], np.diff(ops)])
    cur = values(entries["current_ops_per_s"])
    with np.errstate(divide="ignore", invalid="ignore"):
        measured = d_ops / cur
        usable = np.isfinite(measured) & (cur > 0) & (d_ops > 0)
    out = np.where(usable, measured, dt)
    if not usable[0]:
        first_elapsed = float(entries["elapsed_s"][0])
        out[0] = 0.0 if (np.isinf(cur[0]) or ops[0] == 0 or first_elapsed == 0) \
            else first_elapsed
    with np.errstate(invalid="ignore"):
        return np.where(out >= 0, out, np.nan)


def values(column: pl.Series) -> np.ndarray:
    """A column of figures as floats, a missing one NaN."""
    return column.cast(pl.Float64).fill_null(np.nan).to_numpy()


def _metric_curves(run: Run, start: int):
    """``{(metric, operation, failed): [(t, cumulative count), …]}`` (a curve per client, in
    order of first appearance), each client's interval lengths (> 0) and last time."""
    curves: dict[tuple, list] = {}
    steps, ends = [], []
    for c in run.clients:
        entries, meas = c.output.status_entries, c.output.status_measurements
        if entries.is_empty() or meas.is_empty():
            continue
        e = entries.sort("time", maintain_order=True)
        length = interval_lengths(e)
        e = e.select("entry", t_s=pl.Series(seconds(epoch_ms(e) - start)),
                     length=pl.Series(length))
        steps.append(length[length > 0])
        ends.append(float(e["t_s"].max()))
        wanted = meas.filter(pl.col("count").is_not_null() & ~pl.col("intended")
                             & pl.col("structure").is_in(["", "hdrhistogram", "raw"]))
        rows = wanted.select("entry", "metric", "operation", "failed", "count").join(
            e, on="entry", maintain_order="left").sort("t_s", maintain_order=True)
        for key, g in rows.group_by(["metric", "operation", "failed"], maintain_order=True):
            first_len = g["length"][0]
            first_len = first_len if first_len is not None and np.isfinite(first_len) else 0.0
            # a 0-ms first interval (``∞`` ops/sec) still starts a moment before it ends
            t_s = g["t_s"].to_numpy()
            t = np.concatenate([[t_s[0] - max(first_len, 1e-3)], t_s])
            cum = np.concatenate([[0.0], np.cumsum(values(g["count"]))])
            curves.setdefault((str(key[0]), str(key[1]), bool(key[2])), []).append((t, cum))
    return curves, steps, ends


def operation_throughput(run: Run) -> pl.DataFrame:
    """``t_s, metric, operation, failed, ops_per_s``: per-metric throughput of the workload's
    operations (model.is_workload_operation), clients summed.

    The clients' cumulative counts (status entries at their interval ends, each interval as
    long as YCSB measured it) are summed and read on one grid of the status interval, so every
    operation is counted once and clients whose ticks fall at different moments add up without
    false peaks. ``t_s`` is the end of each grid cell (the last one ends with the run). Only
    metrics whose status format reports a count (hdrhistogram, raw) can be placed:
    ``histogram``/``timeseries`` status lines only print an average."""
    start = run_start(run)
    curves, steps, ends = _metric_curves(run, start) if start is not None else ({}, [], [])
    if not curves:
        return pl.DataFrame(schema=THROUGHPUT_SCHEMA)
    all_steps = np.concatenate(steps)
    step = float(np.median(all_steps)) if len(all_steps) else 1.0
    first, end = min(t[0] for parts in curves.values() for t, _ in parts), max(ends)
    cells = max(1, int(np.ceil((end - first) / step - 1e-9)))
    # cell edges every step from the first count; the last cell ends with the run
    edges = np.unique(np.minimum(first + step * np.arange(cells + 1), end))
    widths = np.diff(edges)
    ok = widths > step * 0.05   # a sliver at the very end says nothing about a rate
    frames = []
    for (metric, operation, failed), parts in curves.items():
        if not is_workload_operation(operation):
            continue
        cum = np.zeros(len(edges))
        for t, c in parts:
            cum += np.interp(edges, t, c, left=0.0, right=c[-1])
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = np.diff(cum) / widths
        n = int(ok.sum())
        frames.append(pl.DataFrame({"t_s": edges[1:][ok], "metric": [metric] * n,
                                    "operation": [operation] * n, "failed": [failed] * n,
                                    "ops_per_s": rate[ok]}, schema=THROUGHPUT_SCHEMA))
    return (pl.concat([pl.DataFrame(schema=THROUGHPUT_SCHEMA), *frames])
            .sort("metric", "t_s", maintain_order=True).fill_nan(None))


def record_throughput(run: Run) -> pl.DataFrame:
    """``t_s, operation, records_per_s, records_per_batch``: records/s of batch operations
    over time, clients summed. Status lines count batches, not records (the ``<OP>-RECORDS``
    block holds only statuses, its interval ``Count`` stays 0): each interval's batches/s is
    scaled by the phase's records per batch from the final report (OK records / batches;
    ``batchsize`` when there is no ``-RECORDS`` block)."""
    per_batch = records_table(run).select(
        "operation", records_per_batch=pl.col("records_ok") / pl.col("batches"))
    return operation_throughput(run).filter(
        ~pl.col("failed") & (pl.col("metric") == pl.col("operation"))
    ).join(per_batch, on="operation", maintain_order="left").select(
        "t_s", "operation", records_per_s=pl.col("ops_per_s") * pl.col("records_per_batch"),
        records_per_batch="records_per_batch")


def errors_over_time(run: Run) -> pl.DataFrame:
    """``t_s, metric, operation, status, errors_per_s``: failed operations per interval, from
    their own metrics: ``READ-FAILED`` by default, or ``READ-NOT_FOUND`` etc. with
    ``reportlatencyforerror=true`` / ``latencytrackederrors``."""
    thr = operation_throughput(run)
    known_ops = set(thr.filter(~pl.col("failed"))["operation"])
    status_of, op_of = {}, {}
    for metric, operation, failed in thr.select("metric", "operation", "failed").unique(
            maintain_order=True).rows():
        named = _STATUS_NAMED.search(metric)
        if failed:
            status_of[metric], op_of[metric] = "FAILED", operation
        elif named and named["op"] in known_ops:
            status_of[metric], op_of[metric] = named["status"], named["op"]
    return thr.filter(pl.col("metric").is_in(list(status_of))).select(
        "t_s", "metric", operation=pl.col("metric").replace_strict(op_of),
        status=pl.col("metric").replace_strict(status_of), errors_per_s="ops_per_s")


def latency_lines(
    run: Run, intended: bool, columns: list[str]
) -> dict[str, list[tuple[int, np.ndarray, dict[str, np.ndarray]]]]:
    """Per-entry latency of each operation that is not a failure (``intended``: of its
    ``Intended-`` metrics, status lines of ``measurement.interval=intended|both``): per
    operation, in the order the operations first appear, ``(client, t_s, {column: values})``
    of each client, of ``columns`` those the frame has; each operation's rows of its first
    structure in :data:`LATENCY_STRUCTURES`."""
    start = run_start(run)
    out: dict[str, list] = {}
    rank = {s: i for i, s in enumerate(LATENCY_STRUCTURES)}
    for c in run.clients:
        meas = c.output.status_measurements
        if c.output.status_entries.is_empty() or meas.is_empty():
            continue
        count = pl.col("count")
        rows = meas.filter((pl.col("intended") == intended) & ~pl.col("failed")
                           & (count.is_null() | (count > 0))
                           & workload_operations(pl.col("operation")))
        for (op,), g in rows.group_by("operation", maintain_order=True):
            place = g["structure"].cast(pl.String).replace_strict(rank, default=len(rank))
            g = g.filter(place == place.min())
            t_s = seconds(epoch_ms(g) - start)
            figures = {col: values(g[col]) for col in columns if col in g.columns}
            out.setdefault(str(op), []).append((c.index, t_s, figures))
    return out


def merged_latency_over_time(run: Run, points=(50.0, 99.0, 99.9)) -> pl.DataFrame:
    """``t_s, metric, operation, failed, count, clients, p50, p99, p99.9``: per-interval latency
    of all clients together: the k-th intervals of the clients' ``.hdr`` logs (one histogram
    per status tick) merged (:func:`merged_ticks`) and read, percentiles never averaged. A
    metric is left out unless every client has a log of it."""
    schema = {"t_s": pl.Float64, "metric": pl.String, "operation": pl.String,
              "failed": pl.Boolean, "count": pl.Int64, "clients": pl.Int64} | {
                  f"p{p:g}": pl.Float64 for p in points}
    logs_by_metric: dict[str, list] = {}
    for c in run.clients:
        for metric, log in c.hdr_logs.items():
            logs_by_metric.setdefault(metric, []).append(log)
    logs_by_metric = {m: logs for m, logs in logs_by_metric.items()
                      if len(logs) == len(run.clients) and not m.startswith("Intended-")
                      and is_workload_operation(split_metric(m).operation)}
    all_logs = [log for logs in logs_by_metric.values() for log in logs if log.intervals.height]
    if not all_logs:
        return pl.DataFrame(schema=schema)
    t0 = hdr_origin(run, all_logs)
    rows = []
    for metric, logs in logs_by_metric.items():
        name = split_metric(metric)
        for t_s, merged, n in merged_ticks(logs, t0):
            if merged.total_count:
                figures = percentiles(merged, points)
                rows.append({"t_s": t_s, "metric": metric, "operation": name.operation,
                             "failed": name.failed, "count": merged.total_count, "clients": n}
                            | {p: figures.get(p) for p in list(schema)[6:]})
    return pl.DataFrame(rows, schema=schema)


def merged_ticks(logs: list, t0: float):
    """For every k, the k-th intervals of ``logs`` (a .hdr log of each client) merged:
    ``(t_s, histogram, logs that have a k-th)``, ``t_s`` the median end of those intervals
    since ``t0``. The clients of a phase start together, so their k-th ticks fall within one
    interval (a grid would fold a run's short last interval into the one before)."""
    for k in range(max(len(log.histograms) for log in logs)):  # one per status tick: small
        ticks = [(log.intervals.row(k, named=True), log.histograms[k])
                 for log in logs if k < len(log.histograms)]
        ends = [iv["start_s"] + iv["length_s"] - t0 for iv, _ in ticks]
        yield float(np.median(ends)), merge_histograms([h for _, h in ticks]), len(ticks)
