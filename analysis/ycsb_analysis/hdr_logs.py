"""HdrHistogram histograms as plain bucket counts: merging them and reading percentiles.

Every histogram YCSB records has lowest discernible value 1 and 3 significant digits, so all
of them share one bucket-index layout; merging is then adding count arrays (numpy), and
percentiles are read from the merged histogram — never averaged across clients. Reading the
``.hdr`` interval logs themselves: :mod:`ycsb_analysis.readers.hdr`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

DEFAULT_PERCENTILES = (50.0, 90.0, 95.0, 99.0, 99.9, 99.99)


@dataclass
class CountsHistogram:
    """A histogram as plain counts per HdrHistogram bucket index (lowest 1, 3 digits)."""

    counts: np.ndarray  # int64, index → count
    lowest: int = 1
    significant_digits: int = 3
    # How a percentile's rank is rounded: HdrHistogram 2.1.4 (V1 logs, stock YCSB 0.17)
    # rounds half up, 2.1.12 (V2 logs) takes the ceiling. Using the writer's rule makes the
    # p99 of a summed log equal to the p99 YCSB printed.
    rank_rounding: str = "ceil"

    def _layout(self):
        """Lowest and highest equivalent value of every bucket index (HdrHistogram's layout)."""
        unit = int(np.floor(np.log2(self.lowest)))
        # (sub-bucket count magnitude: of the largest value with single-unit resolution)
        half_magnitude = int(np.ceil(np.log2(2 * 10**self.significant_digits))) - 1
        half = 1 << half_magnitude
        idx = np.arange(len(self.counts), dtype=np.int64)
        bucket = (idx >> half_magnitude) - 1
        sub = np.where(bucket < 0, idx, (idx & (half - 1)) + half)   # (bucket 0's lower half)
        bucket = np.maximum(bucket, 0)
        lowest_eq = sub << (bucket + unit)
        highest_eq = lowest_eq + (np.int64(1) << (bucket + unit)) - 1
        return lowest_eq, highest_eq

    @property
    def total_count(self) -> int:
        return int(self.counts.sum())


def merge_histograms(histograms: list[CountsHistogram]) -> CountsHistogram:
    """Add histograms bucket by bucket. All must share lowest value and digits (YCSB's do)."""
    if not histograms:
        return CountsHistogram(np.zeros(0, dtype=np.int64))
    layouts = {(h.lowest, h.significant_digits) for h in histograms}
    if len(layouts) != 1:
        raise ValueError(f"cannot merge histograms of different layouts {sorted(layouts)}")
    total = np.zeros(max(len(h.counts) for h in histograms), dtype=np.int64)
    for h in histograms:
        total[: len(h.counts)] += h.counts
    lowest, digits = layouts.pop()
    return CountsHistogram(total, lowest=lowest, significant_digits=digits,
                           rank_rounding=histograms[0].rank_rounding)


def percentiles(h: CountsHistogram, points=DEFAULT_PERCENTILES) -> dict[str, float]:
    """``{"p50": µs, "p99": µs, ...}`` plus count, min, max and mean, from one histogram.

    Same definitions as HdrHistogram's Java code: a percentile is the highest equivalent
    value of the first bucket whose cumulative count reaches the percentile's rank; the
    mean uses each bucket's median equivalent value.
    """
    total = h.total_count
    if total == 0:
        return {"count": 0} | dict.fromkeys(
            [*(f"p{p:g}" for p in points), "min_latency_us", "max_latency_us",
             "average_latency_us"], np.nan)
    low, high = h._layout()
    cum = np.cumsum(h.counts)
    out: dict[str, float] = {"count": total}
    for p in points:
        exact = min(max(p, 0.0), 100.0) / 100.0 * total
        rank = int(np.ceil(exact)) if h.rank_rounding == "ceil" else int(exact + 0.5)
        i = int(np.searchsorted(cum, max(rank, 1)))
        out[f"p{p:g}"] = float(high[i] if p > 0 else low[i])
    nz = np.flatnonzero(h.counts)
    out["min_latency_us"] = float(low[nz[0]])
    out["max_latency_us"] = float(high[nz[-1]])
    median_eq = low + ((high - low + 1) >> 1)
    out["average_latency_us"] = float((median_eq[nz] * h.counts[nz]).sum() / total)
    return out


def percentile_curve(h: CountsHistogram) -> pl.DataFrame:
    """The percentile distribution (``percentile``, ``latency_us``) up to and including the
    maximum, for a logit-axis plot: one point per bucket with data.

    A bucket's point is its highest equivalent value at the percentile of its last recorded
    value, placed half a count below its cumulative count ((cumulative − ½) / total, the
    Hazen plotting position): so the top bucket — the maximum — sits just below 100 %, where
    a logit axis can draw it, instead of at 100 % (infinitely far) and being dropped.
    """
    _, high = h._layout()
    nz = np.flatnonzero(h.counts)
    cum = np.cumsum(h.counts[nz])
    return pl.DataFrame({"percentile": 100.0 * (cum - 0.5) / max(h.total_count, 1),
                         "latency_us": high[nz].astype(float)},
                        schema={"percentile": pl.Float64, "latency_us": pl.Float64})
