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

from collections.abc import Sequence

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


# Per-block counts are merged once they hold this many entries (and twice the last merge's).
_MERGE_AT = 1 << 20
# An interval is closed (its figures computed, its counts let go) once its metric has
# datapoints this many intervals later: YCSB appends raw datapoints as operations end, so
# they come in time order give or take a few milliseconds.
CLOSE_AFTER = 120


class NotExact(Exception):
    """The summary cannot stay exact with intervals closed early: a datapoint came after its
    interval was closed, or several outputs of a file must be summed up as one. Read the file
    again with ``RawIntervalCounts(close=False)``."""


class RawIntervalCounts:
    """Raw datapoints summed up while a file is read: how many operations of each metric had
    each latency in each interval — exact value counts, so :meth:`intervals` gives exactly
    what :func:`raw_intervals` gives from the rows. An interval whose metric has datapoints
    CLOSE_AFTER intervals later is closed: its figures are computed and its counts let go, so
    memory holds the counts of the last two minutes or so, not of the run (with
    ``close=False``, of every distinct (metric, second, latency µs), at most one per datapoint).

    Datapoints are added block by block (:meth:`add`) under a *group* (the output of the file
    they belong to) and summed up when the blocks not yet summed outnumber the counts kept
    (at least _MERGE_AT of them): packed into one int64 each, sorted with ``np.sort`` (SIMD, no
    index), counted, then merged with the counts kept (a stable sort finds the two sorted
    runs), so each datapoint is sorted about once.
    """

    def __init__(self, interval_ms: int = INTERVAL_MS, close: bool = True):
        self.interval_ms = interval_ms
        self.close = close
        self.names: list[str] = []                  # metric of each key code
        self._code: dict[str, int] = {}
        self._first: dict[tuple[int, int], int] = {}  # (group, code) → first datapoint number
        self._seen = 0
        self._blocks: list[tuple[np.ndarray, ...]] = []   # not summed yet: group, code, start, lat
        self._unsummed = 0
        self._sums: tuple[np.ndarray, ...] | None = None  # (group, code, start, latency, count)
        self._merged_size = 0
        self._negative: dict[int, int] = {}         # group → datapoints with latency < 0
        self._newest: dict[int, float] = {}         # (group, code) pair → latest interval start
        self._closed_below: dict[int, float] = {}   # pair → intervals before this are closed
        self._closed: list[pd.DataFrame] = []       # their rows, with group and code
        # Packed mode (while every key fits one int64 of a fixed _Packing): the counts kept
        # are sorted packed keys and their counts; _blocks hold packed keys. Otherwise (keys
        # too wide, or latencies not integers) both are columns, as ``_sums`` above.
        self._packing: _Packing | None = _Packing.UNSET
        self._keys = np.empty(0, dtype=np.int64)
        self._counts = np.empty(0, dtype=np.int64)

    def add(self, metric: np.ndarray, timestamp_ms: np.ndarray, latency_us: np.ndarray,
            group: np.ndarray, names: Sequence[str] | None = None) -> None:
        """One block's datapoints (in file order): metric names (or, with ``names``, indices
        of those), epoch ms, latency µs, and the group (output) of each."""
        lat = np.asarray(latency_us, dtype=float)
        ts = np.asarray(timestamp_ms, dtype=float)
        metric = np.asarray(metric)
        group = np.asarray(group)
        keep = ~np.isnan(lat) & ~np.isnan(ts)
        if not keep.all():
            if not keep.any():
                return
            lat, ts, metric, group = lat[keep], ts[keep], metric[keep], group[keep]
        if names is None:
            codes, names = pd.factorize(metric.astype(object))
        else:
            codes = metric
        local = np.array([self._code.setdefault(n, len(self._code)) for n in names],
                         dtype=np.int64)
        self.names = list(self._code)
        code = local[codes]
        group = group.astype(np.int64)
        # first appearance of each (group, metric): raw_intervals orders metrics by it
        pair = None
        if group[0] == group.min() == group.max():
            present = np.flatnonzero(np.bincount(code)).tolist()
            pairs = [(int(group[0]) << 20) | c for c in present]
        else:
            pair = group * (1 << 20) + code
            pairs = np.unique(pair).tolist()
        for p in pairs:
            if (p >> 20, p & ((1 << 20) - 1)) not in self._first:
                pair = group * (1 << 20) + code if pair is None else pair
                self._first[(p >> 20, p & ((1 << 20) - 1))] = self._seen + int(np.argmax(pair == p))
        self._seen += len(lat)
        negative = np.bincount(group[lat < 0])
        for g in np.flatnonzero(negative).tolist():
            self._negative[g] = self._negative.get(g, 0) + int(negative[g])
        second = np.floor(ts / self.interval_ms)
        if self._packing is not None:
            packed = self._packed(group, code, second, lat)
            if packed is not None:
                self._blocks.append((packed,))
        if self._packing is None:
            self._blocks.append((group, code, second * self.interval_ms, lat))
        self._unsummed += len(lat)
        if self._unsummed > max(self._merged_size, _MERGE_AT):
            self._merge()
            if self.close:
                self._close_old_intervals()

    def _packed(self, group: np.ndarray, code: np.ndarray, second: np.ndarray,
                lat: np.ndarray) -> np.ndarray | None:
        """A block's keys packed by the file's _Packing (made, or made wider, as needed);
        None after switching to columns (keys too wide, or latencies not integers)."""
        lat_i = lat.astype(np.int64)
        if not np.array_equal(lat_i, lat):
            self._unpack_all()
            return None
        second_i = second.astype(np.int64)
        ranges = [(int(group.min()), int(group.max())), (0, int(code.max())),
                  (int(second_i.min()), int(second_i.max())), (int(lat_i.min()), int(lat_i.max()))]
        packing = self._packing
        if packing is _Packing.UNSET or not packing.holds(ranges):
            if packing is not _Packing.UNSET:
                ranges = [(min(lo, a), max(hi, b))
                          for (lo, hi), (a, b) in zip(ranges, packing.seen)]
            wider = _Packing.for_ranges(ranges)
            if wider is None:
                self._unpack_all()
                return None
            if packing is not _Packing.UNSET:
                self._keys = wider.pack(*packing.unpack(self._keys))
                self._blocks = [(wider.pack(*packing.unpack(b[0])),) for b in self._blocks]
            self._packing = packing = wider
        return packing.pack(group, code, second_i, lat_i)

    def _unpack_all(self) -> None:
        """From now on columns: the counts kept and blocks not summed yet unpacked."""
        packing = self._packing
        self._packing = None
        if packing is _Packing.UNSET:
            return
        if len(self._keys):
            g, c, s, lat = packing.unpack(self._keys)
            self._sums = (g, c, s.astype(np.float64) * self.interval_ms,
                          lat.astype(np.float64), self._counts)
        self._keys = self._counts = np.empty(0, dtype=np.int64)
        blocks = []
        for (packed,) in self._blocks:
            g, c, s, lat = packing.unpack(packed)
            blocks.append((g, c, s.astype(np.float64) * self.interval_ms, lat.astype(np.float64)))
        self._blocks = blocks

    def _sum_columns(self) -> tuple[np.ndarray, ...] | None:
        """The counts kept as columns (group, code, start ms, latency, count), sorted."""
        if self._packing is None:
            return self._sums
        if not len(self._keys):
            return None
        g, c, s, lat = self._packing.unpack(self._keys)
        return g, c, s.astype(np.float64) * self.interval_ms, lat.astype(np.float64), self._counts

    def _close_old_intervals(self) -> None:
        if self._packing is not None:
            self._close_packed()
            return
        g, code, start, lat, count = self._sums
        pairs = np.array(sorted(self._newest), dtype=np.int64)
        newest = np.array([self._newest[p] for p in pairs.tolist()])
        cutoff = newest - CLOSE_AFTER * self.interval_ms
        closing = start < cutoff[np.searchsorted(pairs, g * (1 << 20) + code)]
        if not closing.any():
            return
        rows = _interval_rows(g[closing], code[closing], start[closing], lat[closing],
                              count[closing], self.names)
        self._closed.append(rows)
        for p, c in zip(pairs.tolist(), cutoff.tolist()):
            self._closed_below[p] = max(c, self._closed_below.get(p, c))
        keep = ~closing
        self._sums = (g[keep], code[keep], start[keep], lat[keep], count[keep])
        self._merged_size = int(keep.sum())

    def __len__(self) -> int:
        """Datapoints counted."""
        return self._seen

    def _mine(self, g: np.ndarray, group: int | None, last: bool) -> np.ndarray:
        if group is None:
            return np.ones(len(g), dtype=bool)
        return (g >= group) if last else (g == group)

    def negative_in(self, group: int | None = None, last: bool = False) -> int:
        """Datapoints with a negative latency in one group (see :meth:`intervals`)."""
        return sum(n for g, n in self._negative.items()
                   if self._mine(np.array([g]), group, last)[0])

    def _close_packed(self) -> None:
        """_close_old_intervals of the packed counts: each pair's keys before its cutoff are
        one slice of the sorted keys."""
        packing, keys, counts = self._packing, self._keys, self._counts
        if packing is _Packing.UNSET or not len(keys):
            return
        cutoffs, cuts = {}, []
        for p, newest in sorted(self._newest.items()):
            cutoffs[p] = cutoff = newest - CLOSE_AFTER * self.interval_ms
            second = int(np.ceil(cutoff / self.interval_ms))   # the pair's first second kept
            cuts.append(packing.bounds(p >> 20, p & ((1 << 20) - 1), second))
        lo, hi = np.searchsorted(keys, np.array(cuts, dtype=np.int64).T)
        closing = [(a, b) for a, b in zip(lo.tolist(), hi.tolist()) if b > a]
        if not closing:
            return
        self._closed.append(packing.interval_rows(
            np.concatenate([keys[a:b] for a, b in closing]),
            np.concatenate([counts[a:b] for a, b in closing]), self.names, self.interval_ms))
        for p, c in cutoffs.items():
            self._closed_below[p] = max(c, self._closed_below.get(p, c))
        bounds = [0, *(x for ab in closing for x in ab), len(keys)]
        kept = list(zip(bounds[::2], bounds[1::2]))
        self._keys = np.concatenate([keys[a:b] for a, b in kept])
        self._counts = np.concatenate([counts[a:b] for a, b in kept])
        self._merged_size = len(self._keys)

    def _merge_packed(self) -> None:
        """Sum up the packed blocks: sorted, counted, and the counts kept added in (a value
        already there adds to its count, the others are inserted in place)."""
        packed = np.sort(np.concatenate([b[0] for b in self._blocks]))
        self._blocks, self._unsummed = [], 0
        first = np.flatnonzero(np.concatenate([[True], packed[1:] != packed[:-1]]))
        count = np.diff(np.append(first, len(packed)))
        packed = packed[first]
        packing = self._packing
        # Per (group, metric): the earliest and latest interval of the new datapoints (sorted
        # by pair, then interval); an earlier one than the pair's closed intervals came after
        # its interval was closed.
        pair = packed >> np.int64(packing.shifts[1])
        runs = np.flatnonzero(np.concatenate([[True], pair[1:] != pair[:-1]]))
        ends = np.append(runs[1:], len(pair)) - 1
        g, c, lo_s, _ = packing.unpack(packed[runs])
        hi_s = packing.unpack(packed[ends])[2]
        for p, lo, hi in zip(((g << 20) | c).tolist(), (lo_s * self.interval_ms).tolist(),
                             (hi_s * self.interval_ms).tolist()):
            if lo < self._closed_below.get(p, -np.inf):
                raise NotExact(f"a datapoint at {lo:.0f} ms came after its interval was closed")
            self._newest[p] = max(hi, self._newest.get(p, hi))
        keys, counts = self._keys, self._counts
        if len(keys):   # few (the open intervals) beside the new ones: found by binary search
            at = np.searchsorted(packed, keys)
            hit = at < len(packed)
            hit[hit] = packed[at[hit]] == keys[hit]
            count[at[hit]] += counts[hit]
            miss = ~hit
            if miss.any():
                packed = np.insert(packed, at[miss], keys[miss])
                count = np.insert(count, at[miss], counts[miss])
        self._keys, self._counts = packed, count
        self._merged_size = len(packed)

    def _merge(self) -> None:
        """Sum up the blocks added since the last merge, together with the counts kept."""
        if not self._blocks:
            return
        if self._packing is not None:
            self._merge_packed()
            return
        blocks = [np.concatenate(col) for col in zip(*self._blocks)]
        self._blocks, self._unsummed = [], 0
        self._sums = _summed(*blocks, kept=self._sums)
        self._merged_size = len(self._sums[0])
        # Per (group, metric): its earliest and latest interval (sums are sorted by pair, then
        # interval). The counts kept start at or after their pair's closed intervals, so an
        # earlier one is a datapoint that came after its interval was closed.
        g, c, start = self._sums[0], self._sums[1], self._sums[2]
        pair = g * (1 << 20) + c
        runs = np.flatnonzero(np.concatenate([[True], pair[1:] != pair[:-1]]))
        run_end = np.concatenate([runs[1:], [len(pair)]]) - 1
        for p, lo, hi in zip(pair[runs].tolist(), start[runs].tolist(), start[run_end].tolist()):
            if lo < self._closed_below.get(p, -np.inf):
                raise NotExact(f"a datapoint at {lo:.0f} ms came after its interval was closed")
            self._newest[p] = max(hi, self._newest.get(p, hi))

    def intervals(self, group: int | None = None, last: bool = False) -> pd.DataFrame:
        """:func:`raw_intervals` of the datapoints of one group (None: of all groups, counted
        as one; ``last``: of that group and every later one)."""
        firsts: dict[int, int] = {}
        groups = set()
        for (gg, c), f in self._first.items():
            if self._mine(np.array([gg]), group, last)[0]:
                firsts[c] = min(f, firsts.get(c, f))
                groups.add(gg)
        if not firsts:
            return pd.DataFrame(columns=COLUMNS)
        closed = [r[self._mine(r["group"].to_numpy(), group, last)] for r in self._closed]
        closed = [r for r in closed if len(r)]
        if closed and len(groups) > 1:
            raise NotExact("outputs of a file with intervals closed early are summed up as one")
        parts = closed
        self._merge()
        sums = self._sum_columns()
        if sums is not None:
            g, code, start, lat, count = sums
            mine = self._mine(g, group, last)
            if mine.any():
                g, code, start, lat, count = (
                    np.zeros(int(mine.sum()), dtype=np.int64), code[mine], start[mine],
                    lat[mine], count[mine],
                )
                order = _order(code, start / self.interval_ms, lat)
                if order is not None:
                    code, start, lat, count = code[order], start[order], lat[order], count[order]
                parts = parts + [_interval_rows(g, code, start, lat, count, self.names)]
        if not parts:
            return pd.DataFrame(columns=COLUMNS)
        rows = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        # metrics in order of first appearance, as pd.factorize numbers them in raw_intervals
        rank = np.zeros(max(firsts) + 1, dtype=np.int64)
        rank[sorted(firsts, key=firsts.get)] = np.arange(len(firsts))
        order = _order(rank[rows["code"].to_numpy()], rows["interval_start_ms"].to_numpy()
                       / self.interval_ms)
        if order is not None:
            rows = rows.iloc[order]
        return rows[COLUMNS].reset_index(drop=True)


class _Packing:
    """How a key (group, metric code, second, latency µs; integers) is packed into one
    int64 whose order is the keys' lexicographic order: each field's offset and width, fixed
    for a file (made wider, and the keys kept repacked, when a block does not fit), so the
    counts kept stay packed from merge to merge."""

    UNSET: "_Packing"   # no block seen yet

    def __init__(self, ranges: list[tuple[int, int]], widths: list[int],
                 seen: list[tuple[int, int]]):
        self.ranges = ranges                      # the values each field can hold
        self.seen = seen                          # the values it was made for
        self.lows = [lo for lo, _ in ranges]
        self.widths = widths
        self.shifts = [sum(widths[i + 1:]) for i in range(4)]

    @classmethod
    def for_ranges(cls, ranges: list[tuple[int, int]]) -> "_Packing | None":
        """A packing of keys within ``ranges`` ((lowest, highest) per field) with room to
        grow: seconds and latencies a quarter of their width either way when that fits;
        None when not even the ranges themselves fit 62 bits."""
        widths = [max(hi - lo, 0).bit_length() for lo, hi in ranges]
        if sum(widths) > 62:
            return None
        roomy = [widths[0], max(widths[1], 6), widths[2] + 2, widths[3] + 2]
        if sum(roomy) <= 62:
            lows = [ranges[0][0], 0, ranges[2][0] - (1 << widths[2]) // 2,
                    ranges[3][0] - (1 << widths[3]) // 2]
            return cls([(lo, lo + (1 << w) - 1) for lo, w in zip(lows, roomy)], roomy, ranges)
        return cls([(lo, lo + (1 << w) - 1) for (lo, _), w in zip(ranges, widths)], widths,
                   ranges)

    def holds(self, ranges: list[tuple[int, int]]) -> bool:
        return all(a <= lo and hi <= b for (lo, hi), (a, b) in zip(ranges, self.ranges))

    def pack(self, *fields: np.ndarray) -> np.ndarray:
        packed = np.zeros(len(fields[0]), dtype=np.int64)
        for values, lo, shift, width in zip(fields, self.lows, self.shifts, self.widths):
            if width:
                packed |= (values.astype(np.int64) - np.int64(lo)) << np.int64(shift)
        return packed

    def interval_rows(self, keys: np.ndarray, counts: np.ndarray, names, interval_ms: int
                      ) -> pd.DataFrame:
        """_interval_rows of sorted packed keys: intervals found on the keys without their
        latency, and only the intervals' first keys unpacked whole."""
        interval = keys >> np.int64(self.shifts[2])
        first = np.flatnonzero(np.concatenate([[True], interval[1:] != interval[:-1]]))
        g, code, second, _ = self.unpack(keys[first])
        lat = ((keys & np.int64((1 << self.widths[3]) - 1)) + np.int64(self.lows[3])).astype(
            np.float64)
        return _rows_at(first, g, code, second.astype(np.float64) * interval_ms, lat, counts,
                        names)

    def unpack(self, packed: np.ndarray) -> list[np.ndarray]:
        return [((packed >> np.int64(shift)) & np.int64((1 << width) - 1)) + np.int64(lo)
                for lo, shift, width in zip(self.lows, self.shifts, self.widths)]

    def bounds(self, group: int, code: int, second: int) -> list[int]:
        """Where the keys of (group, code) begin, and where its keys from ``second`` on begin
        (clamped to the pair's keys)."""
        def key(second: int, latency: int) -> int:
            values = [group, code, second, latency]
            return sum((v - lo) << shift for v, lo, shift in zip(values, self.lows, self.shifts))
        s_lo, s_hi = self.ranges[2]
        l_lo = self.ranges[3][0]
        return [key(s_lo, l_lo), key(min(max(second, s_lo), s_hi + 1), l_lo)]


_Packing.UNSET = _Packing([(0, 0)] * 4, [0] * 4, [(0, 0)] * 4)


def _interval_rows(g, code, start, lat, count, names) -> pd.DataFrame:
    """raw_intervals' columns (plus group and code) of counts sorted by group, code, start
    and latency."""
    new = np.concatenate([[True], (g[1:] != g[:-1]) | (code[1:] != code[:-1])
                          | (start[1:] != start[:-1])])
    first = np.flatnonzero(new)
    return _rows_at(first, g[first], code[first], start[first], lat, count, names)


def _rows_at(first, g, code, start, lat, count, names) -> pd.DataFrame:
    """_interval_rows of counts whose intervals begin at ``first`` (``g``, ``code`` and
    ``start`` of each interval; ``lat`` and ``count`` of each count)."""
    total = np.add.reduceat(count, first)
    cum = np.cumsum(count)
    before = np.concatenate([[0], cum[first[1:] - 1]])   # datapoints before each interval
    out = {
        "group": g,
        "code": code,
        "metric": np.asarray(names, dtype=object)[code],
        "interval_start_ms": start,
        "count": total,
        "min_latency_us": lat[first],
        "average_latency_us": np.add.reduceat(lat * count, first) / total,
    }
    for p in PERCENTILES:
        rank_p = np.maximum(np.ceil(p / 100.0 * total).astype(np.int64), 1)
        out[f"p{p:g}"] = lat[np.searchsorted(cum, before + rank_p)]
    last = np.concatenate([first[1:], [len(lat)]]) - 1
    out["max_latency_us"] = lat[last]
    return pd.DataFrame(out)


def _layout(*columns: list[np.ndarray]) -> list[tuple[int, float, int]] | None:
    """How to pack keys (most significant first; integer-valued; ``columns``: one list of
    the keys per set of entries) into one int64 per entry whose order is their lexicographic
    order: each key's shift, offset and width; None when they need more than 62 bits."""
    fields, bits = [], 0
    for keys in zip(*columns):
        keys = [k for k in keys if len(k)]
        lo = min(k.min() for k in keys)
        hi = max(k.max() for k in keys)
        width = int(hi - lo).bit_length() if np.isfinite(hi - lo) else 99
        bits += width
        if bits > 62 or any(k.dtype.kind == "f" and not np.array_equal(k, np.floor(k))
                            for k in keys):
            return None
        fields.append((lo, width))
    layout, shift = [], bits
    for lo, width in fields:
        shift -= width
        layout.append((shift, lo, width))
    return layout


def _pack(keys: list[np.ndarray], layout) -> np.ndarray:
    packed = np.zeros(len(keys[0]), dtype=np.int64)
    for k, (_, lo, width) in zip(keys, layout):
        if width:   # a key of one value adds nothing
            packed = (packed << np.int64(width)) | (k - lo).astype(np.int64)
    return packed


def _unpacked(packed: np.ndarray, layout, kinds: str) -> list[np.ndarray]:
    """The keys _pack packed (``kinds``: each key's dtype kind, "i" or "f")."""
    out = []
    for (shift, lo, width), kind in zip(layout, kinds):
        field = (packed >> np.int64(shift)) & np.int64((1 << width) - 1)
        out.append(field.astype(np.float64) + lo if kind == "f" else field + np.int64(lo))
    return out


def _order(*keys: np.ndarray) -> np.ndarray | None:
    """An order of the entries by the keys (most significant first; entries with equal keys
    in any order); None when they are in order already."""
    layout = _layout(list(keys))
    if layout is None:
        return np.lexsort(keys[::-1])
    packed = _pack(list(keys), layout)
    if len(packed) < 2 or (packed[1:] >= packed[:-1]).all():
        return None
    # Entries with equal keys are summed up, so their order among themselves does not matter.
    return np.argsort(packed)


def _summed(group, code, start, lat, kept=None) -> tuple[np.ndarray, ...]:
    """Datapoints with equal (group, code, start, latency) summed into one entry with their
    count, and merged with ``kept`` (such sums already: group, code, start, latency, count),
    sorted by those keys.

    Packed into one int64 per entry, the datapoints are sorted with ``np.sort`` (SIMD, no
    index) and counted, then merged with the kept sums by a stable sort, which finds the two
    sorted runs: each datapoint is packed, sorted and unpacked once."""
    keys = [group, code, start / INTERVAL_MS, lat]
    kept_keys = [] if kept is None else [kept[0], kept[1], kept[2] / INTERVAL_MS, kept[3]]
    layout = _layout(keys, *([kept_keys] if kept_keys else []))
    if layout is None:   # keys too wide (or not integers) for one int64: sorted column-wise
        count = np.ones(len(lat), dtype=np.int64)
        if kept is not None:
            group, code, start, lat, count = (
                np.concatenate(col) for col in zip(kept, (group, code, start, lat, count))
            )
        order = np.lexsort((lat, start, code, group))
        group, code, start = group[order], code[order], start[order]
        lat, count = lat[order], count[order]
        new = np.concatenate([[True], (group[1:] != group[:-1]) | (code[1:] != code[:-1])
                              | (start[1:] != start[:-1]) | (lat[1:] != lat[:-1])])
        first = np.flatnonzero(new)
        return (group[first], code[first], start[first], lat[first],
                np.add.reduceat(count, first))
    packed = np.sort(_pack(keys, layout))
    first = np.flatnonzero(np.concatenate([[True], packed[1:] != packed[:-1]]))
    total = np.diff(np.concatenate([first, [len(packed)]]))
    packed = packed[first]
    if kept is not None and len(kept[0]):
        packed = np.concatenate([packed, _pack(kept_keys, layout)])
        order = np.argsort(packed, kind="stable")
        packed, count = packed[order], np.concatenate([total, kept[4]])[order]
        first = np.flatnonzero(np.concatenate([[True], packed[1:] != packed[:-1]]))
        total = np.add.reduceat(count, first)
        packed = packed[first]
    group, code, second, lat = _unpacked(packed, layout, "iiff")
    return group, code, second * INTERVAL_MS, lat, total
