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

import functools
import re
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from . import free_memory
from .batched import RECORDS_SUFFIX, records_table
from .hdr_logs import merge_histograms, percentiles
from .loader import Run
from .report_parser import split_metric
from .text_codes import holds_objects, value_codes

NOT_PLOTTED_OPERATIONS = {"CLEANUP"}
# An operation measured in several structures at once (measurementtype=hdrhistogram+histogram
# prints HdrREAD and BucketREAD, hdrhistogram+raw HdrREAD and RawREAD) is drawn from one of
# them, the first here that it has: the others print an average only, and rows of both in
# one line would zigzag between them (and break it at every missing percentile).
LATENCY_STRUCTURES = ["", "hdrhistogram", "raw", "histogram"]
# `READ-NOT_FOUND`: an operation's name, a dash and an upper-case status name
_STATUS_NAMED = re.compile(r"^(?P<op>.+)-(?P<status>[A-Z_]+)$")

# Over-time series already computed, per run: the throughput chart, the records/s, the errors
# chart and the steady-state figures all read the same per-metric throughput, and a long run's
# is millions of rows. Keyed by the run and the identity of its clients' status frames (a run
# whose outputs were replaced is computed again); an entry goes with its run.
_computed: dict[int, tuple[tuple, dict[str, pd.DataFrame]]] = {}


def _once(run: Run, name: str, compute: Callable[[Run], pd.DataFrame]) -> pd.DataFrame:
    """``compute(run)``, computed once per run and shared (callers must not modify it)."""
    frames = tuple(id(c.output.status_measurements) for c in run.clients)
    key = id(run)
    held = _computed.get(key)
    if held is None or held[0] != frames:
        if held is None:
            weakref.finalize(run, _computed.pop, key, None)
        held = _computed[key] = (frames, {})
    if name not in held[1]:
        held[1][name] = compute(run)
    return held[1][name]


def hdr_origin(run: Run, logs: list) -> float:
    """The epoch time of status time 0 (the clients' start, as interval_throughput counts it),
    so that .hdr intervals and status intervals share one time axis. A .hdr log starts with
    its operation's first measurement, seconds after the client (connections, a table being
    created); the status lines' wall clock is the client's local time, whose UTC offset the
    .hdr header gives. Without it (no readable StartTime, no status lines): the first .hdr
    interval's start, as before."""
    starts = []
    for c in run.clients:
        e = c.output.status_entries
        offsets = [log.utc_offset_s for log in c.hdr_logs.values() if log.utc_offset_s is not None]
        if e.empty or not offsets:
            starts = []
            break
        first = e.loc[e["time"].idxmin()]
        local = first["time"] - pd.to_timedelta(float(first["elapsed_s"]), unit="s")
        starts.append((local - pd.Timestamp(0)).total_seconds() - offsets[0])
    if starts:
        return min(starts)
    return min(float(log.intervals["start_s"].min()) for log in logs)


def _client_frames(run: Run) -> list[tuple[int, pd.DataFrame, pd.DataFrame]]:
    return [(c.index, c.output.status_entries, c.output.status_measurements) for c in run.clients
            if not c.output.status_entries.empty]


def _run_start(run: Run) -> pd.Timestamp | None:
    """The earliest client start (its first status entry's time less its elapsed time),
    computed once per run."""
    return _once(run, "run_start", _first_start)


def _first_start(run: Run) -> pd.Timestamp | None:
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
    edges = np.minimum(first + step * np.arange(n + 1), end)
    if not np.isfinite(edges).all():
        return np.unique(edges)
    # rising already (only the last cells can meet at ``end``): the distinct ones, as np.unique
    # gives them without sorting a long run's grid
    return edges[np.concatenate([[True], edges[1:] > edges[:-1]])]


def _cumulative_on_grid(
    curves: list[tuple[np.ndarray, np.ndarray]], grid: np.ndarray
) -> np.ndarray:
    """Sum of several clients' cumulative counts (piecewise linear in time) at ``grid``."""
    total = np.zeros(len(grid))
    for t, cum in curves:
        total += np.interp(grid, t, cum, left=0.0, right=cum[-1])
    return total


def operation_throughput(run: Run) -> pd.DataFrame:
    """``t_s, metric, operation, failed, ops_per_s``: per-metric throughput, clients summed
    (computed once per run; do not modify the frame).

    Each client's operations of a metric are a cumulative count over time (status entries at
    their interval ends, each interval as long as YCSB measured it); the clients' counts are
    summed and read on one grid of the status interval, so every operation is counted once
    and clients whose ticks fall at different moments add up without false peaks. ``t_s`` is
    the end of each grid cell (the last one ends with the run). Only metrics whose status
    format reports a count (hdrhistogram, raw) can be placed; ``histogram``/``timeseries``
    status lines only print an average.
    """
    return _once(run, "operation_throughput", _operation_throughput)


_THROUGHPUT_COLUMNS = ["t_s", "metric", "operation", "failed", "ops_per_s"]


@dataclass
class _Blocks:
    """Per-metric throughput as blocks of one grid: ``rates[i]`` of ``keys[i]`` (metric,
    operation, failed) at the times ``t_end``; ``shown``: the keys drawn, in the frame's order
    (by metric name), or None when a metric has two keys and the rows must be sorted."""

    keys: list[tuple]
    rates: Sequence[np.ndarray]   # (a long run's: each computed when read, see _Rates)
    t_end: np.ndarray
    shown: list[int] | None


class _Rates(Sequence):
    """Each key's rates on the grid, computed from the clients' curves when read (a fresh
    array each time; read each once). A long run's grid is millions of cells: all keys'
    rates at once were ~170 MiB for a 1 GB status log, held for as long as the run; the
    curves they are read from are a third of that."""

    def __init__(self, keys, parts, edges, widths, ok):
        self.keys, self.parts, self.edges, self.widths, self.ok = keys, parts, edges, widths, ok

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, i: int) -> np.ndarray:
        key = self.keys[i]
        return _rate_on_grid([c for part in self.parts for k, _, c in part if k == key],
                             self.edges, self.widths, self.ok)


def _text(values: list, n: int):
    """Each of ``values`` ``n`` times, as a text column of the dtype pandas gives text."""
    dtype = pd.Series([""]).dtype
    if getattr(dtype, "storage", None) == "pyarrow" and all(isinstance(v, str) for v in values):
        # pandas 3 with pyarrow: Arrow strings made from the handful of texts by Arrow (a
        # long run's blocks are millions of rows: ~10x faster than from Python objects)
        codes = pa.array(np.repeat(np.arange(len(values), dtype=np.int32), n))
        strings = pa.DictionaryArray.from_arrays(codes, pa.array(values, pa.large_string()))
        return pd.array(strings.dictionary_decode(), dtype=dtype)
    return pd.array(np.repeat(np.array(values, dtype=object), n), dtype=dtype)


def throughput_blocks(run: Run) -> _Blocks | None:
    """:func:`operation_throughput` as one array per metric on one grid (computed once per run;
    do not modify): what the charts draw from without building the long frame. None when no
    metric can be placed."""
    return _once(run, "throughput_blocks", _throughput_blocks)


def _operation_throughput(run: Run) -> pd.DataFrame:
    b = throughput_blocks(run)
    if b is None:
        return pd.DataFrame(columns=_THROUGHPUT_COLUMNS).astype({"failed": bool})
    n = len(b.t_end)
    if b.shown is None:
        out = pd.concat(
            [pd.DataFrame({"t_s": b.t_end, "metric": m, "operation": o, "failed": f,
                           "ops_per_s": r}) for (m, o, f), r in zip(b.keys, b.rates)],
            ignore_index=True,
        )
        return out[~out["operation"].isin(NOT_PLOTTED_OPERATIONS)].sort_values(
            ["metric", "t_s"]
        )[_THROUGHPUT_COLUMNS]
    return pd.DataFrame(
        {
            "t_s": np.tile(b.t_end, len(b.shown)),
            "metric": _text([b.keys[i][0] for i in b.shown], n),
            "operation": _text([b.keys[i][1] for i in b.shown], n),
            "failed": np.repeat(np.array([b.keys[i][2] for i in b.shown], dtype=bool), n),
            "ops_per_s": np.concatenate([b.rates[i] for i in b.shown]) if b.shown
            else np.zeros(0),
        },
        index=_block_index(b.shown, n),
    )[_THROUGHPUT_COLUMNS]


def _block_index(blocks: list[int], n: int) -> np.ndarray:
    """The rows' index: each row's place in all blocks one after the other."""
    if not blocks:
        return np.zeros(0, dtype=np.int64)
    return np.concatenate([np.arange(i * n, (i + 1) * n) for i in blocks])


# Measurement rows are read in slices of this many: a long run's status frame is millions of
# rows, and each whole-frame temporary would be another 1-8 bytes a row held at once.
_SLICE = 1 << 20


def _throughput_blocks(run: Run) -> _Blocks | None:
    """The per-metric blocks in two passes over each client, so that no array of all the
    measurement rows is held beyond one 2-byte group number a row: the first finds each
    metric's rows and where its curve starts (all the grid needs), the second reads one
    metric of one client at a time onto the grid. The sums and their order are those of
    :func:`_cumulative_on_grid` over every client's curve of a metric (0 + first client's +
    second's …): the same figures as reading all curves first."""
    parts, steps, ends = _client_curves(run)
    free_memory.release()   # the entries' and the grouping's temporaries back to the system
    keys = list(dict.fromkeys(key for part in parts for key, _, _ in part))
    if not keys:
        return None
    steps = np.concatenate(steps) if steps else np.zeros(0)
    step = float(np.median(steps)) if len(steps) else 1.0
    del steps
    end = max(ends)
    first = min(first_start for part in parts for _, first_start, _ in part)
    edges = _grid(first, end, step)
    widths = np.diff(edges)
    ok = widths > step * 0.05   # a sliver at the very end says nothing about a rate
    rates = _Rates(keys, parts, edges, widths, ok)
    # Sorted by metric, then time: each metric's rows are one block (its times rise), so the
    # blocks are put in the order of their metric names (index: the row's place before).
    shown = [i for i, k in enumerate(keys) if k[1] not in NOT_PLOTTED_OPERATIONS]
    if len({keys[i][0] for i in shown}) < len(shown):   # a metric under two keys
        shown = None
    else:
        shown.sort(key=lambda i: keys[i][0])
    return _Blocks(keys, rates, edges[1:][ok], shown)


def _client_curves(run: Run):
    """``parts, steps, ends``: per client, ``(key, first start, curve)`` of each metric (see
    :func:`_metric_groups`), its entries' interval lengths (> 0) and last time."""
    start = _run_start(run)
    parts: list[list[tuple[tuple, float, Callable[[], tuple[np.ndarray, np.ndarray]]]]] = []
    steps, ends = [], []
    for _, entries, meas in _client_frames(run):
        if meas.empty or "count" not in meas:
            continue
        ids, t_s, interval_s = _entry_times(entries, start)
        free_memory.release()   # (the interval lengths' temporaries: millions of entries)
        steps.append(interval_s[interval_s > 0])
        ends.append(float(np.nanmax(t_s)) if len(t_s) and not np.isnan(t_s).all() else np.nan)
        wanted = (
            meas["count"].notna().to_numpy()
            & ~meas["intended"].astype(bool).to_numpy()
            & _is_in(meas["structure"], ["", "hdrhistogram", "raw"])
        )
        part = _metric_groups(meas, wanted, ids, t_s, interval_s)
        if part is None:   # rows out of time order, an entry twice, thousands of metrics
            part = [(key, float(t[0]), lambda curve=(t, cum): curve)
                    for key, t, cum in _sorted_curves(meas, wanted, ids, t_s, interval_s)]
        del wanted
        parts.append(part)
    return parts, steps, ends


def _sorted_curves(meas, wanted, ids, t_s, interval_s):
    """``key, t, cumulative count`` of each metric of one client, read all at once by
    :func:`_metric_rows` (its general way: rows sorted by time, entries joined as a merge)."""
    for key, t_end, first_len, count in _metric_rows(meas, wanted, pd.Series(ids), t_s,
                                                      interval_s):
        first_len = first_len if np.isfinite(first_len) else 0.0
        # A 0-ms first interval (``∞`` ops/sec) still starts a moment before it ends, so its
        # operations fall inside the first grid cell instead of before it.
        first_start = t_end[0] - max(first_len, 1e-3)
        yield (key, np.concatenate([[first_start], t_end]),
               np.concatenate([[0.0], np.cumsum(count)]))


def _rate_on_grid(curves, edges, widths, ok) -> np.ndarray:
    """One key's operations per second in the cells of ``edges`` (those ``ok``): its clients'
    ``curves`` read and added in client order, one curve held at once."""
    # the cells left out are the last ones (a sliver at the end): the kept ones a view
    kept = int(ok.sum())
    leading = bool(ok[:kept].all())
    cum = None
    for curve in curves:
        t, c = curve()
        on_grid = np.interp(edges, t, c, left=0.0, right=c[-1])
        del t, c
        if cum is None:   # 0 + the first client's, as a sum from zeros gives it
            on_grid += 0.0   # (−0.0 becomes 0.0, as 0.0 + −0.0 does)
            cum = on_grid
        else:
            cum += on_grid
        del on_grid
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.diff(cum)
        del cum
        rate /= widths
    return rate[:kept] if leading else rate[ok]


def _entry_times(entries: pd.DataFrame, start) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``entry, t_s, interval_s`` of a client's status entries in time order (``t_s``: seconds
    since ``start``). A status log's entries come in rising time: then they are read as they
    are, not copied by a sort (with ties or missing times, sorted as ``sort_values`` does)."""
    times = entries["time"]
    raw = times.to_numpy()
    rising = raw.dtype.kind == "M" and (
        len(raw) < 2 or bool((raw[1:] > raw[:-1]).all())   # (NaT compares False)
    ) and not (len(raw) and np.isnat(raw[0]))
    e = entries if rising else entries[
        ["entry", "time", "elapsed_s", "operations", "current_ops_per_s"]
    ].sort_values("time")
    interval_s = _interval_lengths(e).to_numpy(dtype=float)
    t_s = (e["time"] - start).dt.total_seconds().to_numpy(dtype=float)
    return e["entry"].to_numpy(), t_s, interval_s


def _metric_groups(meas, wanted, ids, t_s, interval_s):
    """The rows of :func:`_metric_rows` without holding them: per metric of one client,
    ``(key, first start, curve)`` in the order of :func:`_metric_rows`, where ``curve()`` reads
    that metric's ``(t, cumulative count)`` when called. None when the rows are not in time
    order (the general way sorts them), an entry number repeats or the metrics are too many
    for a 2-byte group number: then :func:`_metric_rows` reads them."""
    lookup = _entry_lookup(ids)
    columns = [_codes(meas[c], slice(None)) for c in ("metric", "operation", "failed")]
    sizes = [len(uniques) + 1 for _, uniques in columns]
    combinations = int(np.prod(sizes))
    if lookup is None or combinations >= 2**15 - 1:
        return None
    entry = meas["entry"].to_numpy()
    n = len(entry)
    group = np.empty(n, dtype=np.int16)   # each row's metric (−1: not read)
    size = np.zeros(combinations, dtype=np.int64)
    first_row = np.full(combinations, -1, dtype=np.int64)
    last_t = -np.inf
    for lo in range(0, n, _SLICE):
        hi = min(n, lo + _SLICE)
        at = lookup(entry[lo:hi])
        found = wanted[lo:hi] & (at >= 0)
        t = t_s[at[found]]
        # in time order, as a sort would leave them (else the general way sorts them)
        if len(t) and (np.isnan(t).any() or t[0] < last_t or not bool((t[1:] >= t[:-1]).all())):
            return None
        if len(t):
            last_t = t[-1]
        del t, at
        key = np.zeros(hi - lo, dtype=np.int32)
        for (c, _), s in zip(columns, sizes):
            part = c[lo:hi]
            found &= part >= 0   # (a missing name or flag is no group, as groupby has it)
            key *= s
            key += part
        g = np.where(found, key, -1).astype(np.int16)
        del key, found
        group[lo:hi] = g
        counts = np.bincount(g[g >= 0], minlength=combinations)
        for k in np.flatnonzero((counts > 0) & (first_row < 0)):
            first_row[k] = lo + int(np.argmax(g == k))
        size += counts
    present = np.flatnonzero(size)
    count = meas["count"].to_numpy(dtype=float)
    out = []
    for k in present[np.argsort(first_row[present])]:
        first = int(first_row[k])
        key = tuple(uniques[c[first]] for c, uniques in columns)
        at = int(lookup(entry[first:first + 1])[0])
        first_len = interval_s[at]
        first_len = first_len if np.isfinite(first_len) else 0.0
        first_start = t_s[at] - max(first_len, 1e-3)

        def curve(k=k, first_start=first_start, rows=int(size[k]), since=first):
            # the metric's times and counts gathered slice by slice, summed in place
            t = np.empty(rows + 1)
            cum = np.empty(rows + 1)
            t[0], cum[0] = first_start, 0.0
            done = 1
            for lo in range(since - since % _SLICE, n, _SLICE):
                mine = np.flatnonzero(group[lo:lo + _SLICE] == k)
                if not len(mine):
                    continue
                mine += lo
                t[done:done + len(mine)] = t_s[lookup(entry[mine])]
                cum[done:done + len(mine)] = count[mine]
                done += len(mine)
                if done > rows:
                    break
            np.cumsum(cum[1:], out=cum[1:])
            return t, cum

        out.append(((key[0], key[1], bool(key[2])), float(first_start), curve))
    return out


def _is_in(col: pd.Series, values: list) -> np.ndarray:
    """``col.isin(values)`` as an array; of a coded column, read from its few categories."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        # one more place, False, for code −1 (a missing value is none of ``values``)
        of_code = np.append(pd.Index(col.cat.categories).isin(values), False)
        return of_code[col.cat.codes.to_numpy()]
    return col.isin(values).to_numpy()


def _metric_rows(meas, wanted, entry_ids, t_s, interval_s):
    """``(metric, operation, failed), t_end, first interval_s, counts`` of each metric of one
    client, its rows in time order: the status entries' times and interval lengths joined to
    the ``wanted`` measurement rows by entry, in numpy. The same rows, in the same order, as
    a merge on ``entry``, a sort by time (quicksort, as ``sort_values``) and a groupby by
    first appearance would give."""
    # Row numbers as int32 and temporaries let go early: a long run's status frame is
    # millions of rows, and each index array of them would be another 8 bytes a row.
    sel = np.flatnonzero(wanted).astype(np.int32)
    entry = meas["entry"].to_numpy()[sel]
    ids = entry_ids.to_numpy()
    at = _positions(ids, entry)
    if at is not None:
        if not len(at) or at.min() < 0:   # (else every row's entry is there: nothing to drop)
            found = np.flatnonzero(at >= 0)
            at, sel = at[found], sel[found]
    else:   # (never from the parser: one id per entry) joined as a merge would
        joined = pd.DataFrame({"entry": entry, "row": np.arange(len(entry))}).merge(
            pd.DataFrame({"entry": ids, "at": np.arange(len(ids))}),
            on="entry",
        )
        at, found = joined["at"].to_numpy(), joined["row"].to_numpy()
        sel = sel[found]   # the measurement row of each joined row
        del found
    del entry
    t_rows, len_rows = t_s[at], interval_s[at]
    del at
    count = meas["count"].to_numpy(dtype=float)[sel]
    order = _time_order(t_rows)
    in_order = sel if order is None else sel[order]   # one gather per column, not per step
    del sel
    codes = [_codes(meas[c], in_order) for c in ("metric", "operation", "failed")]
    del in_order
    for rows in _groups(codes):
        first = rows[0]
        key = tuple(uniques[c[first]] for c, uniques in codes)
        sorted_rows = rows if order is None else order[rows]
        yield ((key[0], key[1], bool(key[2])), t_rows[sorted_rows], len_rows[sorted_rows[0]],
               count[sorted_rows])


def _time_order(t: np.ndarray) -> np.ndarray | None:
    """The rows' order by time as ``sort_values`` gives it (its quicksort, missing times last
    in their order); None when they are in time order already, as a status log's rows come:
    then they stay in their order (numpy's quicksort, tried on sorted columns with ties of
    up to 2.5 M times, gave them back unchanged too)."""
    missing = np.isnan(t)
    if not missing.any() and (len(t) < 2 or bool((t[1:] >= t[:-1]).all())):
        return None
    order = np.flatnonzero(~missing)[t[~missing].argsort(kind="quicksort")]
    return np.concatenate([order, np.flatnonzero(missing)]).astype(np.int32)


def _codes(col: pd.Series, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``codes, uniques`` of ``col``'s ``rows`` (code −1: missing): the parser's text columns
    are coded already, a flag is its own code."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        return col.cat.codes.to_numpy()[rows], np.asarray(col.cat.categories, dtype=object)
    if col.dtype == bool:
        return col.to_numpy()[rows].view(np.int8), np.array([False, True])
    return value_codes(col.to_numpy()[rows], holds_objects(col))


def _groups(codes: list[tuple[np.ndarray, np.ndarray]]):
    """The rows of each distinct combination of ``codes`` (rows with a missing code left
    out, as groupby does), in their order; the groups in order of their first row."""
    n = len(codes[0][0]) if codes else 0
    if not n:
        return
    known = np.ones(n, dtype=bool)
    for c, _ in codes:
        known &= c >= 0
    sizes = [len(uniques) + 1 for _, uniques in codes]
    combinations = int(np.prod(sizes))
    if combinations < 2**15 - 1:
        # A handful of metrics: each row's combination as a 16-bit number, sorted once
        # (a radix sort, stable: each group's rows stay in their order).
        key = np.zeros(n, dtype=np.int32)
        for (c, _), size in zip(codes, sizes):
            key *= size
            key += c
        key = np.where(known, key, combinations).astype(np.int16)
        del known
        by_key = np.argsort(key, kind="stable")
        counts = np.bincount(key, minlength=combinations + 1)[:combinations]
        del key
        bounds = np.concatenate([[0], np.cumsum(counts)])
        present = np.flatnonzero(counts)
        firsts = by_key[bounds[present]]
        for k in present[np.argsort(firsts)]:
            yield by_key[bounds[k]:bounds[k + 1]]
        return
    combined = np.zeros(n, dtype=np.int64)
    for (c, _), size in zip(codes, sizes):
        combined = combined * size + c
    group, _ = pd.factorize(np.where(known, combined, -1), use_na_sentinel=True)
    del combined
    group = np.where(known, group, -1)
    del known
    by_group = np.argsort(group, kind="stable").astype(np.int32)
    bounds = np.searchsorted(group[by_group], np.arange(int(group.max()) + 2))
    for g in range(len(bounds) - 1):
        yield by_group[bounds[g]:bounds[g + 1]]


def _positions(ids: np.ndarray, wanted: np.ndarray) -> np.ndarray | None:
    """Where each of ``wanted`` is in ``ids`` (−1: nowhere); None when ``ids`` repeat."""
    lookup = _entry_lookup(ids)
    return None if lookup is None else lookup(wanted)


def _entry_lookup(ids: np.ndarray) -> Callable[[np.ndarray], np.ndarray] | None:
    """What gives, for entry numbers, their places in ``ids`` (−1: nowhere), made once to be
    asked slice by slice; None when ``ids`` repeat. The parser numbers entries 0, 1, 2, …: a
    lookup table of the ids, no hashing (none at all when they are in that order: each id is
    its own place)."""
    n = len(ids)
    if ids.dtype.kind in "iu" and n and ids[0] == 0 and ids[-1] == n - 1 and bool(
        (np.diff(ids) == 1).all()
    ):
        def in_order(wanted: np.ndarray) -> np.ndarray:
            if len(wanted) and wanted.min() >= 0 and wanted.max() < n:
                return wanted
            return np.where((wanted >= 0) & (wanted < n), wanted, -1)
        return in_order
    if ids.dtype.kind in "iu" and len(ids) and ids.min() >= 0 and ids.max() < 4 * len(ids) + 1024:
        # (places as int32 when they fit: the table is as long as the entries)
        place = np.int32 if len(ids) < 2**31 else np.int64
        table = np.full(int(ids.max()) + 1, -1, dtype=place)
        table[ids] = np.arange(len(ids), dtype=place)
        if not np.array_equal(table[ids], np.arange(len(ids))):
            return None   # an id twice

        def by_table(wanted: np.ndarray) -> np.ndarray:
            if len(wanted) and wanted.min() >= 0 and wanted.max() < len(table):
                return table[wanted]   # (every id wanted is in the table's range: one lookup)
            inside = (wanted >= 0) & (wanted < len(table))
            return np.where(inside, table[np.where(inside, wanted, 0)], -1)
        return by_table
    index = pd.Index(ids)
    return index.get_indexer if index.is_unique else None


def record_throughput(run: Run) -> pd.DataFrame:
    """``t_s, operation, records_per_s, records_per_batch``: records/s of batch operations
    over time, clients summed (computed once per run; do not modify the frame).

    Status lines count batches per interval, not records (the ``<OP>-RECORDS`` block holds
    only statuses, its interval ``Count`` stays 0), so each interval's batches/s is scaled by
    the phase's records per batch from the final report (OK records / batches; ``batchsize``
    when there is no ``-RECORDS`` block).
    """
    return _once(run, "record_throughput", _record_throughput)


def _record_throughput(run: Run) -> pd.DataFrame:
    columns = ["t_s", "operation", "records_per_s", "records_per_batch"]
    rec = records_table(run)
    if rec.empty:
        return pd.DataFrame(columns=columns)
    per_batch = (rec["records_ok"] / rec["batches"]).set_axis(rec["operation"])
    b = throughput_blocks(run)
    if b is not None and b.shown is not None:
        # the batch operations' own blocks, in the frame's order (no long frame built)
        batch = [i for i in b.shown if not b.keys[i][2] and b.keys[i][1] in per_batch.index
                 and b.keys[i][0] == b.keys[i][1]]
        n = len(b.t_end)
        if not batch or not n:
            return pd.DataFrame(columns=columns)
        scale = np.repeat(
            np.array([per_batch[b.keys[i][1]] for i in batch], dtype=float), n
        )
        return pd.DataFrame({
            "t_s": np.tile(b.t_end, len(batch)),
            "operation": _text([b.keys[i][1] for i in batch], n),
            "records_per_s": np.concatenate([b.rates[i] for i in batch]) * scale,
            "records_per_batch": scale,
        })
    thr = operation_throughput(run)
    if thr.empty:
        return pd.DataFrame(columns=columns)
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


def latency_over_time(run: Run, columns: list[str] | None = None) -> pd.DataFrame:
    """``client, t_s, metric, operation, average_latency_us, p…`` per status entry (of the
    measurement columns only ``columns`` and the ones needed here, when given: a long run's
    status frame has ~17 columns of millions of rows)."""
    return _latency_rows(run, intended=False, columns=columns)


def intended_latency_over_time(run: Run, columns: list[str] | None = None) -> pd.DataFrame:
    """Like :func:`latency_over_time`, for the ``Intended-`` metrics only (status lines of
    ``measurement.interval=intended|both``): latency from the intended start under ``-target``."""
    return _latency_rows(run, intended=True, columns=columns)


def _latency_rows(run: Run, intended: bool, columns: list[str] | None) -> pd.DataFrame:
    start = _run_start(run)
    frames = []
    for c in run.clients:
        idx, output, meas = c.index, c.output, c.output.status_measurements
        if output.status_entries.empty or meas.empty:
            continue
        rows = ~meas["operation"].isin(NOT_PLOTTED_OPERATIONS) & (
            meas["intended"].astype(bool) == intended
        ) & (meas["count"].isna() | (meas["count"] > 0))
        m = output.status_frame(
            np.flatnonzero(rows.to_numpy()),
            None if columns is None
            else list(set(columns) | {"time", "count", "operation", "failed", "metric"}),
        )
        if intended and m.empty:
            continue
        m["t_s"] = (m["time"] - start).dt.total_seconds()
        m["client"] = idx
        frames.append(m)
    if not frames:
        return pd.DataFrame(
            columns=["client", "t_s", "metric", "operation", "failed", "average_latency_us"]
        )
    return pd.concat(frames, ignore_index=True)


def _structure_rank(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """``codes, rank``: each row's code of its metric's structure and, per code, the place of
    that structure in LATENCY_STRUCTURES (others after; the last place is code −1's): a row's
    rank is ``rank[codes[row]]``, read only for the rows that need it."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes, names = column.cat.codes.to_numpy(), list(column.cat.categories)
    else:
        codes, names = pd.factorize(column, use_na_sentinel=True)
        names = list(names)
    order = {name: i for i, name in enumerate(LATENCY_STRUCTURES)}
    last = len(LATENCY_STRUCTURES)
    return codes, np.array([order.get(str(n), last) for n in names] + [last], dtype=np.int16)


def latency_lines(
    run: Run, intended: bool, columns: list[str]
) -> dict[str, list[tuple[int, np.ndarray, dict[str, np.ndarray]]]]:
    """The rows of :func:`latency_over_time` (``intended``: of
    :func:`intended_latency_over_time`) that are not failures, as arrays: per operation, in the
    order the operations first appear, ``(client, t_s, {column: values})`` of each client
    (rows in their order; of ``columns`` those the frame has). :func:`latency_line_readers`
    reads the same one operation of one client at a time."""
    return {op: [(idx, *read()) for idx, read in per_client]
            for op, per_client in latency_line_readers(run, intended, columns).items()}


def latency_line_readers(
    run: Run, intended: bool, columns: list[str]
) -> dict[str, list[tuple[int, Callable[[], tuple[np.ndarray, dict[str, np.ndarray]]]]]]:
    """:func:`latency_lines` with each ``(t_s, {column: values})`` read when called: only the
    rows and columns drawn are copied, one operation of one client at a time (a long run's
    status frame is millions of rows of ~17 columns, and an index or a time of every kept row
    would be 8 bytes each; the seldom-read columns may be in files, see status_spill)."""
    start = _run_start(run)
    out: dict[str, list] = {}
    # what the steps before freed (a chart's drawing) back to the system first: the rows'
    # masks and copies below are made anew, not fitted into the allocator's holes
    free_memory.release()
    for c in run.clients:
        idx, output, meas = c.index, c.output, c.output.status_measurements
        if output.status_entries.empty or meas.empty:
            continue
        op_col = meas["operation"]
        if isinstance(op_col.dtype, pd.CategoricalDtype):
            codes, names = op_col.cat.codes.to_numpy(), np.asarray(op_col.cat.categories)
        else:
            codes, names = pd.factorize(op_col, use_na_sentinel=True)
            names = np.asarray(names, dtype=object)
        count = meas["count"].to_numpy(dtype=float)
        # whether each operation is drawn, read by code (one more place, False: code −1)
        plotted = np.array([n not in NOT_PLOTTED_OPERATIONS for n in names] + [False])
        structure, rank_of = _structure_rank(meas["structure"])
        is_intended = meas["intended"].astype(bool).to_numpy()
        failed = meas["failed"].astype(bool).to_numpy()
        n = len(meas)
        keep = np.empty(n, dtype=bool)   # (made slice by slice: no whole-frame temporaries)
        for lo in range(0, n, _SLICE):
            part = slice(lo, lo + _SLICE)
            cnt = count[part]
            keep[part] = ((is_intended[part] == intended) & ~failed[part]
                          & (np.isnan(cnt) | (cnt > 0)) & plotted[codes[part]])
        del count, is_intended, failed
        row_codes = codes[keep]   # (never −1: not plotted)
        if not len(row_codes):
            continue
        # the operations (a handful) in order of their first row
        sizes = np.bincount(row_codes, minlength=len(names))
        present = np.flatnonzero(sizes)
        firsts = [int(np.argmax(row_codes == k)) for k in present]
        del row_codes
        have = set(output.status_columns)
        wanted = [col for col in columns if col in have]

        def read(k, rows, output=output, keep=keep, codes=codes, structure=structure,
                 rank_of=rank_of, n=n):
            picked = _rows_where(n, rows, lambda part: keep[part] & (codes[part] == k))
            # the operation's rows of its first structure (of all, when it has one)
            rank = rank_of[structure[picked]]
            lowest = rank.min()
            if (rank != lowest).any():
                picked = picked[rank == lowest]
            del rank
            t_s = np.empty(len(picked))
            for lo in range(0, len(picked), _SLICE):   # (its temporaries a slice long)
                t_s[lo:lo + _SLICE] = _seconds_since(output, picked[lo:lo + _SLICE], start)
            return t_s, {col: output.status_values(col, picked) for col in wanted}

        for _, k in sorted(zip(firsts, present.tolist())):
            out.setdefault(str(names[k]), []).append(
                (idx, functools.partial(read, k, int(sizes[k])))
            )
    free_memory.release()   # the masks' temporaries back to the system
    return out


def _rows_where(n: int, size: int, mask: Callable[[slice], np.ndarray]) -> np.ndarray:
    """The ``size`` rows of ``n`` where ``mask`` (of a slice of them) holds, in order, found slice
    by slice: no whole-frame mask or index is made for them."""
    rows = np.empty(size, dtype=np.intp)
    done = 0
    for lo in range(0, n, _SLICE):
        mine = np.flatnonzero(mask(slice(lo, lo + _SLICE)))
        rows[done:done + len(mine)] = mine + lo
        done += len(mine)
    return rows


def _seconds_since(output, rows: np.ndarray, start: pd.Timestamp) -> np.ndarray:
    """``(time.iloc[rows] - start).dt.total_seconds()`` of the status measurements' ``time``
    as an array: the same subtraction (in the finer of the two units) and division, without a
    Series of a long run's rows."""
    times = output.status_measurements.get("time")
    if times is not None and not (isinstance(times.dtype, np.dtype) and times.dtype.kind == "M"):
        return (times.iloc[rows] - start).dt.total_seconds().to_numpy()   # (time zones)
    since = output.status_values("time", rows) - start.to_datetime64()
    return pd.TimedeltaIndex(since).total_seconds().to_numpy()


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
    t0 = hdr_origin(run, all_logs)
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
    """``t_s, metric, operation, status, errors_per_s``: failed operations per interval
    (computed once per run; do not modify the frame).

    Status lines carry failures as their own metrics: ``READ-FAILED`` by default, or
    ``READ-NOT_FOUND`` etc. with ``reportlatencyforerror=true`` / ``latencytrackederrors``.
    """
    return _once(run, "errors_over_time", _errors_over_time)


def _errors_over_time(run: Run) -> pd.DataFrame:
    b = throughput_blocks(run)
    if b is not None and b.shown is not None and len(b.t_end) and b.shown:
        return _errors_of_blocks(b)
    thr = operation_throughput(run)
    if thr.empty:
        return pd.DataFrame(columns=["t_s", "metric", "operation", "status", "errors_per_s"])
    failed = thr["failed"].to_numpy(dtype=bool)
    known_ops = set(thr.loc[failed == False, "operation"].unique())  # noqa: E712
    # `READ-NOT_FOUND`: an op name seen elsewhere, a dash, and an upper-case status name.
    # Read once per distinct metric name (a handful), not per interval row.
    codes, names = pd.factorize(thr["metric"])
    parts = pd.Series(names, dtype=object).str.extract(_STATUS_NAMED.pattern)
    op_of, status_of = (parts[c].to_numpy(dtype=object) for c in ("op", "status"))
    named = np.array(
        [op in known_ops and not str(n).endswith("-RECORDS") for op, n in zip(op_of, names)],
        dtype=bool,
    )
    keep = failed | (named[codes] if len(names) else False)
    err = thr[keep].copy()
    codes, failed = codes[keep], failed[keep]
    err["status"] = np.where(failed, "FAILED", status_of[codes])
    err["operation"] = np.where(failed, err["operation"].to_numpy(dtype=object), op_of[codes])
    return err.rename(columns={"ops_per_s": "errors_per_s"})[
        ["t_s", "metric", "operation", "status", "errors_per_s"]
    ]


def error_blocks(b: _Blocks) -> list[tuple[int, str, str]]:
    """The blocks of ``b`` that count failures, as ``(block, operation, status)`` in the
    frame's order: the metrics are a handful, so each one's name is read once and its block
    kept or not whole (the rule of :func:`errors_over_time`)."""
    known_ops = {b.keys[i][1] for i in b.shown if not b.keys[i][2]}
    kept = []
    for i in b.shown:
        metric, operation, failed = b.keys[i]
        parts = _STATUS_NAMED.search(metric)
        if failed:
            kept.append((i, operation, "FAILED"))
        elif parts and parts["op"] in known_ops and not metric.endswith("-RECORDS"):
            kept.append((i, parts["op"], parts["status"]))
    return kept


def _errors_of_blocks(b: _Blocks) -> pd.DataFrame:
    """:func:`errors_over_time` from the throughput's blocks (:func:`error_blocks`)."""
    blocks = error_blocks(b)
    kept = [i for i, _, _ in blocks]
    n = len(b.t_end)
    err = pd.DataFrame(
        {
            "t_s": np.tile(b.t_end, len(kept)),
            "metric": _text([b.keys[i][0] for i in kept], n),
            "operation": _text([b.keys[i][1] for i in kept], n),
            "status": _text([s for _, _, s in blocks], n),   # (set below)
            "errors_per_s": np.concatenate([b.rates[i] for i in kept]) if kept
            else np.zeros(0),
        },
        index=_block_index(kept, n),
    )
    # set as the row-wise reading sets it (an array over the column: the dtype it gives)
    err["status"] = np.repeat(np.array([s for _, _, s in blocks], dtype=object), n)
    err["operation"] = np.repeat(np.array([o for _, o, _ in blocks], dtype=object), n)
    return err
