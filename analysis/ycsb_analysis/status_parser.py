"""Status lines (``-s``, every ``status.interval`` seconds) as tidy DataFrames, vectorised.

A real entry with the default ``hdrhistogram`` type (stderr, trailing space kept)::

    2020-01-18 14:41:53:180 315 sec: 10000000 operations; 21589.1 current ops/sec; [CLEANUP:
    Count=100, Max=2236415, Min=1, Avg=22356.39, 90=4, 99=24, 99.9=2236415, 99.99=2236415]
    [INSERT: Count=119551, Max=174463, Min=273, Avg=2582.71, 90=3491, 99=16767, ...]

(one physical line). ``histogram``/``timeseries`` print ``[READ AverageLatency(us)=1.8]``,
``raw`` prints ``READ count: 6, average latency(us): 1.00``, and the two-in-one types spread
one entry over several physical lines. Numbers follow the JVM locale (``Avg=841,93``), the
first interval may say ``∞ current ops/sec``, an empty interval says
``Min=9223372036854775807, Avg=NaN``, and the last entry is often printed twice.

Two frames come out: :func:`parse_status_entries` (one row per entry: time, elapsed,
operations, current ops/s) and :func:`parse_status_measurements` (one row per entry and
metric: count, min, max, avg, percentiles). Every regex runs once over a whole block of
entries joined by newlines (``re.findall`` in C, see ``line_formats.scan``); the results are
numpy/pandas columns. No Python code runs per line or per entry; only per distinct metric
name and percentile (a handful).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .line_formats import (
    PERCENTILE_SCANNER,
    STATUS_HEAD,
    STATUS_HEAD_SCANNER,
    STATUS_MEASUREMENT_SCANNER,
    columns_of,
    latency_number,
    scan,
    to_number,
)
from .report_parser import split_metric

# What a status line's head holds, in order; each parser puts its own key column first.
HEAD_FIELDS = [
    "label",
    "time",
    "elapsed_s",
    "operations",
    "current_ops_per_s",
    "est_completion",
]
ENTRY_COLUMNS = ["entry", *HEAD_FIELDS]
TIME_FORMAT = "%Y-%m-%d %H:%M:%S:%f"
# The three summary formats of a status measurement (``format`` column).
FORMATS = ["hdrhistogram", "average", "raw"]


def join_entries(lines: pd.Series, kinds: pd.Series) -> pd.Series:
    """Glue continuation lines to their status head: one string per status entry.

    Returns a Series indexed by the head line's index; an entry is its head and every
    continuation line up to the next head, joined by single spaces (lines of other kinds
    in between are left out). Continuation lines that appear before any head are dropped
    (they cannot be placed).
    """
    kind = kinds.to_numpy()
    is_head = kind == "status"
    if not is_head.any():
        return pd.Series([], index=lines.index[:0], dtype=object)
    keep = is_head | (kind == "status_continuation")
    keep[: int(np.argmax(is_head))] = False
    pos = np.flatnonzero(keep)
    heads = is_head[pos]
    if heads.all():
        return pd.Series(lines.to_numpy(dtype=object)[pos], index=lines.index[pos], dtype=object)
    # Interleave the kept lines with separators — " " before a continuation line, "\n"
    # before the next head — so that one join and one split make all entries at once.
    parts = np.empty(2 * len(pos) - 1, dtype=object)
    parts[0::2] = lines.to_numpy(dtype=object)[pos]
    parts[1::2] = np.where(heads[1:], "\n", " ")
    texts = "".join(parts).split("\n")
    return pd.Series(texts, index=lines.index[pos[heads]], dtype=object)


def entry_fingerprints(entries: pd.Series) -> pd.DataFrame:
    """Two independent 64-bit hashes of each entry text, to find YCSB's repeated last line
    across blocks of a big file without keeping the texts (a false match needs a 128-bit
    collision)."""
    values = entries.to_numpy(dtype=object)
    return pd.DataFrame(
        {
            "h1": pd.util.hash_array(values, hash_key="ycsb-status-ln-1", categorize=False),
            "h2": pd.util.hash_array(values, hash_key="ycsb-status-ln-2", categorize=False),
        },
        index=entries.index,
    )


def parse_status_entries(entries: pd.Series, drop_repeats: bool = True) -> pd.DataFrame:
    """Entry strings → one row each: ``label, time, elapsed_s, operations, current_ops_per_s``
    (and the entry's ``measurements_text``).

    Repeats of the same entry (YCSB prints the final one twice) are dropped unless
    ``drop_repeats`` is false (the caller then drops them, see :func:`entry_fingerprints`).
    Entries that are not status heads are left out.
    """
    if drop_repeats:
        entries = entries[~entries.duplicated(keep="first")]
    found = scan(STATUS_HEAD_SCANNER, entries.astype(object).tolist()) if len(entries) else []
    if len(found) == len(entries):
        (label, time, elapsed, operations, current, est_marker, est, measurements) = columns_of(
            found, STATUS_HEAD.groups
        )
        est = np.where(est_marker == "", np.nan, est).astype(object)
    else:  # some entry is not a status head (only when called with other strings)
        parts = entries.astype(object).str.extract(STATUS_HEAD.pattern)
        label, time, elapsed, operations, current, measurements = (
            parts[c].fillna("").astype(object).to_numpy()
            for c in (
                "label",
                "time",
                "elapsed_s",
                "operations",
                "current_ops_per_s",
                "measurements",
            )
        )
        est = parts["est_completion"].astype(object).to_numpy()
    out = pd.DataFrame(
        {
            "entry": entries.index.to_numpy(),
            "label": label,
            "time": pd.to_datetime(
                pd.Series(time, dtype=object), format=TIME_FORMAT, errors="coerce"
            ).to_numpy(),
            "elapsed_s": _numbers(elapsed, to_number),
            "operations": _numbers(operations, to_number),
            "current_ops_per_s": _numbers(current, to_number),
            "est_completion": est,
        }
    )
    out["measurements_text"] = measurements
    return out[out["time"].notna()].reset_index(drop=True)


def _numbers(texts: np.ndarray, convert) -> np.ndarray:
    """'' (a group that did not take part) → NaN, the rest through ``convert``."""
    values = np.where(texts == "", np.nan, texts).astype(object) if len(texts) else texts
    return convert(pd.Series(values, dtype=object)).to_numpy()


def categorical(codes: np.ndarray, names) -> pd.Categorical:
    """A text column given as ``codes`` into its distinct ``names``, as a pandas Categorical
    (one byte a row for a handful of names instead of an 8-byte pointer, and no per-row string
    conversion when a frame is built). Only the names used are categories, sorted, so the
    column is the same whichever parser and block size produced it."""
    names = np.asarray(names, dtype=object)
    codes = np.asarray(codes)
    if len(names) and len(codes):
        used = np.flatnonzero(np.bincount(codes, minlength=len(names)))
    else:
        used = np.empty(0, dtype=np.int64)
    kept = names[used]
    order = np.argsort(kept.astype(str), kind="stable")
    rank = np.full(len(names), -1, dtype=np.int64)
    rank[used[order]] = np.arange(len(used))
    return pd.Categorical.from_codes(
        rank[codes] if len(codes) else codes.astype(np.int64),
        categories=pd.Index(kept[order], dtype=object),
    )


def codes_of(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """A text column's codes and distinct values (object array): taken from a Categorical
    as they are, otherwise factorized."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return (
            column.cat.codes.to_numpy().astype(np.int64),
            np.asarray(column.cat.categories, dtype=object),
        )
    codes, uniques = pd.factorize(column.to_numpy(dtype=object))
    return codes, np.asarray(uniques, dtype=object)


def _percentile_columns(text: np.ndarray) -> dict[str, np.ndarray]:
    """``, 90=1408, 99=2175, 99.9=2175`` per row → {"p90": µs per row, "p99": ..., ...}."""
    found = scan(PERCENTILE_SCANNER, text.tolist())
    if not found:
        return {}
    percentile, value, end = columns_of(found, 3)
    is_end = end != ""
    row = np.cumsum(is_end)[~is_end]
    codes, keys = pd.factorize(percentile[~is_end])
    microseconds = latency_number(pd.Series(value[~is_end], dtype=object)).to_numpy()
    out = {}
    for code, key in enumerate(keys):  # one per percentile printed: a handful
        mine = codes == code
        column = np.full(len(text), np.nan)
        column[row[mine]] = microseconds[mine]
        out[f"p{key}"] = column
    return dict(sorted(out.items(), key=lambda kv: float(kv[0][1:])))


def parse_status_measurements(entries: pd.DataFrame) -> pd.DataFrame:
    """Per-metric rows of every entry: ``entry, time, elapsed_s, metric, operation, failed,
    intended, structure, format, count, min_latency_us, max_latency_us, average_latency_us,
    p90, p99, ...``.

    ``format`` is ``hdrhistogram`` (Count/Max/Min/Avg/percentiles), ``average`` (histogram
    and timeseries types: only an average) or ``raw`` (count and average). ``count`` is the
    number of operations measured in that interval; it is NaN for ``average`` entries, which
    do not print it.
    """
    return with_entry_columns(measurement_rows(entries), entries)


def measurement_rows(entries: pd.DataFrame) -> pd.DataFrame:
    """The measurements of every entry's ``measurements_text``, in order: ``entry, metric,
    format, count, min_latency_us, max_latency_us, average_latency_us, p90, ...`` (empty
    frame when there are none)."""
    text = entries["measurements_text"]
    if text.empty:
        return pd.DataFrame()
    found = scan(STATUS_MEASUREMENT_SCANNER, text.astype(object).tolist())
    groups = columns_of(found, STATUS_MEASUREMENT_SCANNER.groups)
    is_end = groups[-1] != "" if found else np.zeros(0, dtype=bool)
    if is_end.all():
        return pd.DataFrame()
    entry_pos = np.cumsum(is_end)[~is_end]
    (
        hdr_metric,
        hdr_count,
        hdr_max,
        hdr_min,
        hdr_avg,
        hdr_percentiles,
        avg_metric,
        avg_avg,
        raw_metric,
        raw_count,
        raw_avg,
    ) = (g[~is_end] for g in groups[:-1])
    is_hdr, is_avg = hdr_metric != "", avg_metric != ""
    fmt = categorical(np.select([is_hdr, is_avg], [0, 1], 2), FORMATS)
    out = pd.DataFrame(
        {
            "entry": entries["entry"].to_numpy()[entry_pos],
            "metric": np.where(is_hdr, hdr_metric, np.where(is_avg, avg_metric, raw_metric)),
            "format": fmt,
            "count": _numbers(np.where(is_hdr, hdr_count, raw_count), to_number),
            "min_latency_us": _numbers(hdr_min, latency_number),
            "max_latency_us": _numbers(hdr_max, latency_number),
            "average_latency_us": _numbers(
                np.where(is_hdr, hdr_avg, np.where(is_avg, avg_avg, raw_avg)), latency_number
            ),
        }
    )
    for name, column in _percentile_columns(hdr_percentiles).items():
        out[name] = column
    return out


def metric_parts(codes: np.ndarray, names) -> dict:
    """The columns ``operation, failed, intended, structure`` of rows whose metric is
    ``names[codes]``: each distinct name split once (``report_parser.split_metric``)."""
    parts = [split_metric(n) for n in names]
    out = {}
    for part in ("operation", "failed", "intended", "structure"):
        values = [getattr(p, part) for p in parts]
        if part in ("failed", "intended"):
            out[part] = np.array(values, dtype=bool)[codes]
        else:
            part_codes, part_names = pd.factorize(np.array(values, dtype=object))
            out[part] = categorical(part_codes[codes], part_names)
    return out


def with_entry_columns(rows: pd.DataFrame, entries: pd.DataFrame) -> pd.DataFrame:
    """Measurement rows (:func:`measurement_rows`, ordered by entry) with the metric name's
    parts and their entry's ``time`` and ``elapsed_s``: :func:`parse_status_measurements`'s
    columns, percentiles in rising order."""
    if rows.empty:
        return pd.DataFrame(columns=["entry", "metric", "count"])
    # Text columns as Categoricals; a metric name's parts are computed once per distinct
    # name (a handful), not per row.
    codes, names = codes_of(rows["metric"])
    out = rows.assign(metric=categorical(codes, names))
    if "format" in out and not isinstance(out["format"].dtype, pd.CategoricalDtype):
        out["format"] = categorical(*codes_of(out["format"]))
    pct = [c for c in out.columns if c.startswith("p") and c[1:2].isdigit()]
    pct.sort(key=lambda c: float(c[1:]))
    out = out[[c for c in out.columns if c not in pct] + pct]
    for pos, (part, column) in enumerate(metric_parts(codes, names).items(), start=2):
        out.insert(pos, part, column)
    ids = entries["entry"].to_numpy()
    if len(ids) < 2 or (np.diff(ids) > 0).all():   # rising ids (always, from a file): a lookup
        at = np.searchsorted(ids, out["entry"].to_numpy())
        out["time"] = entries["time"].to_numpy()[at]
        out["elapsed_s"] = entries["elapsed_s"].to_numpy()[at]
    else:
        out = out.join(entries.set_index("entry")[["time", "elapsed_s"]], on="entry")
    first = ["entry", "time", "elapsed_s"]
    return out[first + [c for c in out.columns if c not in first]]
