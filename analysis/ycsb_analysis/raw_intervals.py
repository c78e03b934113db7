"""Raw datapoints (one per operation) summed up per interval: what the data files keep of a
``measurementtype=raw`` run by default.

A 10-minute raw run at 20k ops/s is 12 million rows; as CSV that is bigger than the output
it came from. Per metric and interval of ``INTERVAL_MS`` (epoch-aligned, so clients line up)
this keeps the count, min, mean, max and nearest-rank percentiles — exact, computed from
every datapoint, as HdrHistogram's ``getValueAtPercentile`` ranks them (the value at rank
``ceil(p/100 · count)``). The rows themselves are written only on request
(``ycsb-report --raw-rows``) or when they are few.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

INTERVAL_MS = 1000
PERCENTILES = (50.0, 90.0, 99.0, 99.9)
COLUMNS = ["metric", "interval_start_ms", "count", "min_latency_us", "average_latency_us"] + \
    [f"p{p:g}" for p in PERCENTILES] + ["max_latency_us"]


def raw_intervals(raw: pd.DataFrame, interval_ms: int = INTERVAL_MS) -> pd.DataFrame:
    """``metric, interval_start_ms, count, min/average latency, p50 … p99.9, max`` per metric
    and interval; datapoints without a latency (an empty histogram's Long.MAX_VALUE) are
    not counted."""
    lat = raw["latency_us"].to_numpy(dtype=float)
    ts = raw["timestamp_ms"].to_numpy(dtype=float)
    keep = ~np.isnan(lat) & ~np.isnan(ts)
    if not keep.any():
        return pd.DataFrame(columns=COLUMNS)
    codes, names = pd.factorize(raw["metric"].to_numpy(dtype=object)[keep])
    lat, ts = lat[keep], ts[keep]
    start = np.floor(ts / interval_ms) * interval_ms
    order = np.lexsort((lat, start, codes))        # by metric, interval, then latency
    codes, start, lat = codes[order], start[order], lat[order]
    new = np.concatenate([[True], (codes[1:] != codes[:-1]) | (start[1:] != start[:-1])])
    first = np.flatnonzero(new)
    count = np.diff(np.concatenate([first, [len(lat)]]))
    out = {
        "metric": np.asarray(names, dtype=object)[codes[first]],
        "interval_start_ms": start[first],
        "count": count,
        "min_latency_us": lat[first],
        "average_latency_us": np.add.reduceat(lat, first) / count,
    }
    for p in PERCENTILES:
        rank = np.maximum(np.ceil(p / 100.0 * count).astype(np.int64), 1)
        out[f"p{p:g}"] = lat[first + rank - 1]
    out["max_latency_us"] = lat[first + count - 1]
    return pd.DataFrame(out, columns=COLUMNS)
