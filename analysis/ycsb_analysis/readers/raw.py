"""``measurementtype=raw`` datapoints, one line per operation (``READ,1795385384846,2701``:
operation, epoch ms, latency µs), summed up per second while the file is read.

A 10-minute raw run at 20k ops/s is 12 million lines; as rows that is more than the output
they came from. Per output, metric and second (epoch-aligned, so clients line up) the
summary keeps the count, min, mean, max and nearest-rank percentiles — exact, from every
datapoint, as HdrHistogram's ``getValueAtPercentile`` ranks them (the value at rank
``ceil(p/100 · count)``). A second is summed up once its metric has datapoints
:data:`CLOSE_AFTER` seconds later (YCSB writes each metric's datapoints in the order the
operations ended), so memory holds about two minutes of datapoints, not the run.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .final_report import LONG_MAX
from .line_formats import RAW_DATAPOINT

INTERVAL_MS = 1000
PERCENTILES = (50.0, 90.0, 99.0, 99.9)
COLUMNS = ["metric", "interval_start_ms", "count", "min_latency_us", "average_latency_us"] + \
    [f"p{p:g}" for p in PERCENTILES] + ["max_latency_us"]
CLOSE_AFTER = 120
SUMMARY_SCHEMA = {"metric": pl.String, "interval_start_ms": pl.Float64, "count": pl.Int64} | {
    c: pl.Float64 for c in COLUMNS[3:]}


class NotExact(Exception):
    """A datapoint came after its second was summed up: the file must be read again with
    ``RawSummary(close=False)``."""


# Lines that match RAW_DATAPOINT are read by polars' typed CSV reader: several times faster than
# the pattern's capture groups, and the pattern has already said every line is three fields.
SCHEMA = {"metric": pl.String, "timestamp_ms": pl.Float64, "latency_us": pl.Float64}


def split_datapoints(lines: pl.DataFrame, block: bytes) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The lines (``line, text``) of a block → the raw datapoints among them (``line, metric,
    timestamp_ms, latency_us``; Long.MAX_VALUE, an empty histogram's, is a missing latency) and
    the other lines."""
    is_point = lines["text"].str.contains(RAW_DATAPOINT)
    points, others = lines.filter(is_point), lines.filter(~is_point)
    if not points.height:
        return pl.DataFrame(schema={"line": pl.Int64, **SCHEMA}), others
    # (a block of datapoints only, most blocks of a raw run, is that CSV text already)
    whole = not others.height
    csv = block if whole else points["text"].str.join("\n").item().encode()
    table = pl.read_csv(csv, has_header=False, schema=SCHEMA, quote_char=None)
    lat = pl.col("latency_us")
    return pl.concat([points.select("line"), table], how="horizontal").with_columns(
        pl.when(lat < float(LONG_MAX)).then(lat).alias("latency_us")), others


def interval_rows(series: np.ndarray, second: np.ndarray, lat: np.ndarray) -> pl.DataFrame:
    """Datapoints (each one's series, second and latency) → :data:`COLUMNS` of each series and
    second (but ``series`` for ``metric``), from one sort by series, second and latency."""
    first, series, second, lat = _sorted(series, second, lat)
    count = np.diff(np.append(first, len(lat)))
    out = {
        "series": series,
        "interval_start_ms": second.astype(float) * INTERVAL_MS,
        "count": count,
        "min_latency_us": lat[first],
        "average_latency_us": np.add.reduceat(lat, first) / count,
    }
    for p in PERCENTILES:
        out[f"p{p:g}"] = lat[first + np.maximum(np.ceil(p / 100.0 * count).astype(np.int64), 1) - 1]
    out["max_latency_us"] = lat[first + count - 1]
    return pl.DataFrame(out)


def _sorted(s: np.ndarray, sec: np.ndarray, lat: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``lat`` sorted by ``s``, ``sec`` and itself; where each (s, sec) begins in it, and their
    ``s`` and ``sec``. The three are sorted as one integer, their bits side by side, when they
    fit one (a sort of one column is several times faster than a sort of three)."""
    lows = [int(x.min()) for x in (s, sec, lat)]
    bits = [(int(x.max()) - low).bit_length() for x, low in zip((s, sec, lat), lows)]
    if sum(bits) < 63 and np.array_equal(lat, np.floor(lat)):
        key = np.sort(((s - lows[0]) << (bits[1] + bits[2])) | ((sec - lows[1]) << bits[2])
                      | (lat.astype(np.int64) - lows[2]))
        group = key >> bits[2]
        first = np.flatnonzero(np.concatenate([[True], group[1:] != group[:-1]]))
        group = group[first]
        return (first, (group >> bits[1]) + lows[0], (group & ((1 << bits[1]) - 1)) + lows[1],
                ((key & ((1 << bits[2]) - 1)) + lows[2]).astype(float))
    order = np.lexsort((lat, sec, s))
    s, sec = s[order], sec[order]
    first = np.flatnonzero(np.concatenate([[True], (s[1:] != s[:-1]) | (sec[1:] != sec[:-1])]))
    return first, s[first], sec[first], lat[order]


class RawSummary:
    """Raw datapoints summed up per output, metric and second as they are read."""

    def __init__(self, close: bool = True):
        self.close = close
        self.names: dict[str, int] = {}                 # metric → code, as first seen
        self.series: dict[tuple[int, int], int] = {}    # (output, code) → id, as first seen
        self.pending = (np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0))
        self.newest = np.empty(0, np.int64)             # per series: its latest second
        self.closed_below = np.empty(0, np.int64)       # per series: seconds before are done
        self.closed: list[pl.DataFrame] = []
        self.negative: dict[int, int] = {}              # output → datapoints of latency < 0

    def add(self, points: pl.DataFrame) -> None:
        """One block's datapoints (``output, metric, timestamp_ms, latency_us``), in file order."""
        ts, lat = points["timestamp_ms"].to_numpy(), points["latency_us"].to_numpy()  # (NaN: none)
        for output, n in enumerate(np.bincount(points["output"].to_numpy()[lat < 0])):
            if n:
                self.negative[output] = self.negative.get(output, 0) + int(n)
        known = ~(np.isnan(ts) | np.isnan(lat))
        if not known.all():
            points, ts, lat = points.filter(known), ts[known], lat[known]
        if not points.height:
            return
        run_ids, run_lens = self._series_ids(points)
        second = (ts // INTERVAL_MS).astype(np.int64)
        grown = len(self.series) - len(self.newest)
        self.newest = np.append(self.newest, np.full(grown, np.iinfo(np.int64).min))
        self.closed_below = np.append(self.closed_below, np.full(grown, np.iinfo(np.int64).min))
        # each series' first and last second in the block, from those of its runs
        starts = np.concatenate([[0], np.cumsum(run_lens[:-1])])
        low = np.full(len(self.series), np.iinfo(np.int64).max)
        np.minimum.at(low, run_ids, np.minimum.reduceat(second, starts))
        late = low < self.closed_below
        if late.any():
            raise NotExact(f"a datapoint of second {low[late][0]} came after it was summed up")
        np.maximum.at(self.newest, run_ids, np.maximum.reduceat(second, starts))
        ids = np.repeat(run_ids, run_lens)
        self.pending = tuple(np.concatenate([a, b]) for a, b in zip(self.pending,
                                                                     (ids, second, lat)))
        if self.close:
            self._close_old_seconds()

    def _series_ids(self, points: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        """The series (output and metric, numbered as first seen) of each run of datapoints of
        one series, and the run's length."""
        # coded once per run of one output and metric (YCSB prints a metric's datapoints
        # together), the metric's text by polars (a handful of distinct names)
        runs = points.select(pl.struct("output", "metric").rle().alias("run"))["run"]
        runs = runs.struct.unnest().select("len", pl.col("value").struct.unnest())
        text_id = runs["metric"].cast(pl.Categorical).to_physical()
        pair = runs["output"].cast(pl.Int64) * 2**32 + text_id.cast(pl.Int64)
        firsts = runs.select("output", "metric").with_columns(text_id=text_id)[
            pair.arg_unique()]   # (each pair's first run, in file order)
        code_of = np.full(int(text_id.max()) + 1, -1, dtype=np.int64)
        for output, metric, tid in firsts.rows():
            code_of[tid] = self.names.setdefault(metric, len(self.names))
            self.series.setdefault((output, int(code_of[tid])), len(self.series))
        output = runs["output"].to_numpy()
        table = np.full((int(output.max()) + 1, len(self.names)), -1, dtype=np.int64)
        for (o, c), i in self.series.items():
            if o < len(table):
                table[o, c] = i
        return table[output, code_of[text_id.to_numpy()]], runs["len"].to_numpy().astype(np.int64)

    def _close_old_seconds(self) -> None:
        series, second, lat = self.pending
        done = second < self.newest[series] - CLOSE_AFTER
        if not done.any():
            return
        self.closed.append(interval_rows(series[done], second[done], lat[done]))
        self.pending = (series[~done], second[~done], lat[~done])
        seen = self.newest > np.iinfo(np.int64).min
        self.closed_below[seen] = np.maximum(self.closed_below[seen],
                                             self.newest[seen] - CLOSE_AFTER)

    def intervals(self, outputs: int) -> list[pl.DataFrame]:
        """The summary of each of ``outputs`` outputs (:data:`COLUMNS`; datapoints after the
        last output's report belong to it), metrics in order of their first datapoint."""
        last = outputs - 1
        if self.closed and any(o > last for o, _ in self.series):
            raise NotExact("datapoints after the last report were summed up apart")
        merged: dict[tuple[int, int], int] = {}
        for (o, c), i in self.series.items():
            merged.setdefault((min(o, last), c), i)
        remap = np.array([merged[(min(o, last), c)] for (o, c) in self.series], dtype=np.int64)
        series, second, lat = self.pending
        parts = [*self.closed]
        if len(series):
            parts.append(interval_rows(remap[series], second, lat))
        rows = pl.concat(parts) if parts else None
        names = list(self.names)
        out = []
        for output in range(outputs):
            mine = {i: names[c] for (o, c), i in merged.items() if o == output}
            if rows is None or not mine:
                out.append(pl.DataFrame(schema=SUMMARY_SCHEMA))
                continue
            metric = pl.col("series").replace_strict(mine, return_dtype=pl.String)
            out.append(rows.filter(pl.col("series").is_in(list(mine)))
                       .sort("series", "interval_start_ms").with_columns(metric=metric)
                       .select(COLUMNS))
        return out

    def negative_in(self, output: int, last: bool) -> int:
        """Datapoints with a negative latency in ``output`` (``last``: and any after it)."""
        return sum(n for o, n in self.negative.items() if o == output or (last and o > output))
