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
metric: count, min, max, avg, percentiles). Everything is pandas string methods on whole
columns; the only Python-level iteration is over distinct percentile layouts (one or two
per file).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .line_formats import PERCENTILE_PAIR, STATUS_HEAD, STATUS_MEASUREMENT, latency_number, to_number
from .report_parser import split_metric

ENTRY_COLUMNS = ["entry", "label", "time", "elapsed_s", "operations", "current_ops_per_s", "est_completion"]


def join_entries(lines: pd.Series, kinds: pd.Series) -> pd.Series:
    """Glue continuation lines to their status head: one string per status entry.

    Returns a Series indexed by the head line's index. Continuation lines that appear
    before any head are dropped (they cannot be placed).
    """
    is_head = (kinds == "status").to_numpy()
    is_cont = (kinds == "status_continuation").to_numpy()
    keep = is_head | is_cont
    if not is_cont.any():
        return lines[is_head]
    sel = lines[keep]
    head_pos = pd.Series(np.where(is_head[keep], sel.index.to_numpy(), -1), index=sel.index)
    owner = head_pos.where(head_pos >= 0).ffill()
    sel = sel[owner.notna()]
    owner = owner[owner.notna()].astype("int64")
    if not is_cont[keep].any():
        return sel
    # Only entries that really have continuation lines pay for a join.
    has_cont = owner[kinds[sel.index] == "status_continuation"].unique()
    multi = owner.isin(has_cont)
    joined = sel[multi].groupby(owner[multi], sort=False).agg(" ".join)
    single = sel[~multi]
    return pd.concat([single, joined]).sort_index()


def parse_status_entries(entries: pd.Series) -> pd.DataFrame:
    """Entry strings → one row each: ``label, time, elapsed_s, operations, current_ops_per_s``.

    Repeats of the same entry (YCSB prints the final one twice) are dropped.
    """
    entries = entries[~entries.duplicated(keep="first")]
    parts = entries.astype(object).str.extract(STATUS_HEAD.pattern)
    out = pd.DataFrame({
        "entry": entries.index.to_numpy(),
        "label": parts["label"].fillna("").astype(object).to_numpy(),
        "time": pd.to_datetime(parts["time"], format="%Y-%m-%d %H:%M:%S:%f", errors="coerce").to_numpy(),
        "elapsed_s": to_number(parts["elapsed_s"]).to_numpy(),
        "operations": to_number(parts["operations"]).to_numpy(),
        "current_ops_per_s": to_number(parts["current_ops_per_s"]).to_numpy(),
        "est_completion": parts["est_completion"].astype(object).to_numpy(),
    })
    out["measurements_text"] = parts["measurements"].fillna("").astype(object).to_numpy()
    return out[out["time"].notna()].reset_index(drop=True)


def _percentile_columns(text: pd.Series) -> pd.DataFrame:
    """``, 90=1408, 99=2175, 99.9=2175`` → columns p90, p99, p99.9 (µs)."""
    if text.empty:
        return pd.DataFrame(index=text.index)
    layout = text.str.replace(r"=-?\d+", "=", regex=True)
    frames = []
    for pattern_text in layout.dropna().unique():  # one or two distinct layouts per file
        keys = re.findall(r"(\d+(?:\.\d+)?)=", pattern_text)
        if not keys:
            continue
        rx = "".join(rf", {re.escape(k)}=(?P<p{i}>-?\d+)" for i, k in enumerate(keys))
        sub = text[layout == pattern_text]
        got = sub.str.extract("^" + rx + "$")
        got.columns = [f"p{k}" for k in keys]
        frames.append(got.apply(latency_number))
    if not frames:
        return pd.DataFrame(index=text.index)
    return pd.concat(frames).reindex(text.index)


def parse_status_measurements(entries: pd.DataFrame) -> pd.DataFrame:
    """Per-metric rows of every entry: ``entry, time, elapsed_s, metric, operation, failed,
    intended, structure, format, count, min_latency_us, max_latency_us, average_latency_us,
    p90, p99, ...``.

    ``format`` is ``hdrhistogram`` (Count/Max/Min/Avg/percentiles), ``average`` (histogram
    and timeseries types: only an average) or ``raw`` (count and average). ``count`` is the
    number of operations measured in that interval; it is NaN for ``average`` entries, which
    do not print it.
    """
    text = entries.set_index("entry")["measurements_text"]
    if text.empty:
        return pd.DataFrame(columns=["entry", "metric", "count"])
    m = text.str.extractall(STATUS_MEASUREMENT.pattern)
    if m.empty:
        return pd.DataFrame(columns=["entry", "metric", "count"])
    fmt = np.select(
        [m["hdr_metric"].notna().to_numpy(), m["avg_metric"].notna().to_numpy()],
        ["hdrhistogram", "average"], "raw")
    metric = m["hdr_metric"].fillna(m["avg_metric"]).fillna(m["raw_metric"])
    count = to_number(m["hdr_count"].fillna(m["raw_count"]))
    avg = latency_number(m["hdr_avg"].fillna(m["avg_avg"]).fillna(m["raw_avg"]))
    out = pd.DataFrame({
        "entry": m.index.get_level_values(0).to_numpy(),
        "metric": metric.to_numpy(),
        "format": fmt,
        "count": count.to_numpy(),
        "min_latency_us": latency_number(m["hdr_min"]).to_numpy(),
        "max_latency_us": latency_number(m["hdr_max"]).to_numpy(),
        "average_latency_us": avg.to_numpy(),
    })
    pct = _percentile_columns(m["hdr_percentiles"].fillna("").where(m["hdr_percentiles"].fillna("") != ""))
    for c in sorted(pct.columns, key=lambda c: float(c[1:])):
        out[c] = pct[c].to_numpy()
    # Metric name parts, computed once per distinct name (a handful), not per row.
    names = {name: split_metric(name) for name in out["metric"].unique()}
    for pos, part in enumerate(("operation", "failed", "intended", "structure"), start=2):
        out.insert(pos, part, out["metric"].map({n: getattr(v, part) for n, v in names.items()}))
    head = entries.set_index("entry")[["time", "elapsed_s"]]
    out = out.join(head, on="entry")
    first = ["entry", "time", "elapsed_s"]
    return out[first + [c for c in out.columns if c not in first]]
