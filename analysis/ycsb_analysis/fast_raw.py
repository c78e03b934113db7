"""Raw datapoints (``READ,1795385384846,2701``) picked out of a block and read as numbers
without making one Python string per line.

A ``measurementtype=raw`` output is millions of such lines. The readable path
(``line_formats.classify_lines`` then ``RAW_DATAPOINT_SCANNER``) runs regexes over every line
and turns each field into a Python string before numpy sees it: ~4 MB per CPU-second. Here
the block's bytes are one numpy array; a handful of whole-array passes (cumulative counts of
commas, digits and name characters) decide for every line at once whether it is certainly
a raw datapoint, and digits are summed into integers column by column. The rest of the
block (report lines, headers, status lines, anything doubtful) keeps the readable path, so
the result is the same line for line (the test ``test_fast_raw`` compares the two on every
fixture).

Certainly a raw datapoint means, in bytes: ``[A-Za-z0-9_-]{1,40}`` ``,`` 10 to 15 digits ``,``
optional ``-`` and 1 to 15 digits, then the newline. Such a line matches
``line_formats.RAW_DATAPOINT`` and no line kind that takes precedence over it (those need
``[``, a space or ``: ``). Longer numbers (no real clock or latency has them, but a float
cannot hold more than 15 digits exactly) and non-ASCII names are left to the readable path.
A block containing a line break other than ``\\n`` (``\\r``, form feed, U+2028, …) goes
wholly to the readable path, because ``str.splitlines`` counts those as line ends.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_NAME = 40
MAX_DIGITS = 15
# Below this share of certain raw datapoints the block is read the readable way: picking the
# other lines out one by one would then cost more than it saves (status logs, reports).
MIN_SHARE = 0.5

_OTHER_BREAKS_BYTES = (b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e")
_OTHER_BREAKS_TEXT = ("\x85", "\u2028", "\u2029")

_NAME = np.zeros(256, dtype=bool)
for _c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-":
    _NAME[_c] = True
_DIGIT = np.zeros(256, dtype=bool)
_DIGIT[list(b"0123456789")] = True


@dataclass
class Piece:
    """Consecutive lines of a text: the raw datapoints read as numbers, the other lines as
    strings, each with its line number inside the piece (``n`` lines in all)."""

    lines: list[str]
    line_pos: np.ndarray          # line number of each of ``lines``
    raw_pos: np.ndarray           # line number of each raw datapoint
    raw_metric: np.ndarray        # object: metric name per datapoint
    raw_timestamp_ms: np.ndarray  # float64
    raw_latency_us: np.ndarray    # float64
    n: int

    @classmethod
    def of_lines(cls, lines: list[str]) -> "Piece":
        return cls(lines, np.arange(len(lines), dtype=np.int64), np.empty(0, dtype=np.int64),
                   np.empty(0, dtype=object), np.empty(0), np.empty(0), len(lines))

    def __add__(self, other: "Piece") -> "Piece":
        return Piece(self.lines + other.lines, np.concatenate([self.line_pos, other.line_pos + self.n]),
                     np.concatenate([self.raw_pos, other.raw_pos + self.n]),
                     np.concatenate([self.raw_metric, other.raw_metric]),
                     np.concatenate([self.raw_timestamp_ms, other.raw_timestamp_ms]),
                     np.concatenate([self.raw_latency_us, other.raw_latency_us]), self.n + other.n)

    def split(self, at: int) -> tuple["Piece", "Piece"]:
        """The lines before line number ``at`` and the rest (renumbered from 0)."""
        k = int(np.searchsorted(self.line_pos, at))
        r = int(np.searchsorted(self.raw_pos, at))
        head = Piece(self.lines[:k], self.line_pos[:k], self.raw_pos[:r], self.raw_metric[:r],
                     self.raw_timestamp_ms[:r], self.raw_latency_us[:r], at)
        tail = Piece(self.lines[k:], self.line_pos[k:] - at, self.raw_pos[r:] - at, self.raw_metric[r:],
                     self.raw_timestamp_ms[r:], self.raw_latency_us[r:], self.n - at)
        return head, tail


def _digits_value(b: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Integers written as ``length`` ASCII digits from ``start`` (length <= MAX_DIGITS)."""
    value = np.zeros(len(start), dtype=np.int64)
    for j in range(int(length.max()) if len(length) else 0):
        has = j < length
        digit = b[np.minimum(start + j, len(b) - 1)].astype(np.int64) - 48
        value = np.where(has, value * 10 + digit, value)
    return value


def piece_of(text: str) -> Piece:
    """Split ``text`` (whole lines) as ``str.splitlines`` would, reading the certain raw
    datapoints with numpy."""
    if any(ch in text for ch in _OTHER_BREAKS_TEXT):
        return Piece.of_lines(text.splitlines())
    data = text.encode("utf-8")
    if any(ch in data for ch in _OTHER_BREAKS_BYTES) or not data:
        return Piece.of_lines(text.splitlines())
    if not data.endswith(b"\n"):
        data += b"\n"
    b = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(b == 10)
    starts = np.concatenate([[0], ends[:-1] + 1])
    n = len(ends)
    # Cumulative counts: X[k] = how many bytes of class X are in b[:k].
    is_comma = b == 44
    comma_before = np.concatenate([[0], np.cumsum(is_comma, dtype=np.int64)])
    commas = comma_before[ends] - comma_before[starts]
    ok = commas == 2
    if ok.sum() < MIN_SHARE * n:
        return Piece.of_lines(text.splitlines())
    comma_at = np.flatnonzero(is_comma)
    first = np.where(ok, comma_at[np.minimum(comma_before[starts], len(comma_at) - 1)], 0)
    second = np.where(ok, comma_at[np.minimum(comma_before[starts] + 1, len(comma_at) - 1)], 0)
    not_name = np.concatenate([[0], np.cumsum(~_NAME[b], dtype=np.int64)])
    not_digit = np.concatenate([[0], np.cumsum(~_DIGIT[b], dtype=np.int64)])
    name_len = first - starts
    ts_len = second - first - 1
    negative = ok & (b[np.minimum(second + 1, len(b) - 1)] == 45)
    lat_start = second + 1 + negative
    lat_len = ends - lat_start
    ok &= (name_len >= 1) & (name_len <= MAX_NAME) & (not_name[first] == not_name[starts])
    ok &= (ts_len >= 10) & (ts_len <= MAX_DIGITS) & (not_digit[second] == not_digit[first + 1])
    ok &= (lat_len >= 1) & (lat_len <= MAX_DIGITS) & (not_digit[ends] == not_digit[np.minimum(lat_start, ends)])
    if ok.sum() < MIN_SHARE * n:
        return Piece.of_lines(text.splitlines())
    raw_pos = np.flatnonzero(ok)
    other_pos = np.flatnonzero(~ok)
    lines = [data[s:e].decode("utf-8") for s, e in zip(starts[other_pos].tolist(), ends[other_pos].tolist())]
    s, nl = starts[ok], name_len[ok]
    timestamp = _digits_value(b, first[ok] + 1, ts_len[ok]).astype(float)
    latency = _digits_value(b, lat_start[ok], lat_len[ok])
    latency = np.where(negative[ok], -latency, latency).astype(float)
    return Piece(lines, other_pos, raw_pos, _names(b, s, nl), timestamp, latency, n)


def _names(b: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The metric name of each datapoint, as one shared str object per distinct name.

    YCSB prints a metric's datapoints together, so names come in long runs: only the first
    line of each run is decoded (np.unique over those), the rest are compared bytewise."""
    width = int(length.max())
    cols = np.arange(width)
    grid = b[np.minimum(start[:, None] + cols, len(b) - 1)]
    grid = np.where(cols < length[:, None], grid, 0).astype(np.uint8)
    changes = np.concatenate([[True], (grid[1:] != grid[:-1]).any(axis=1)])
    run_start = np.flatnonzero(changes)
    keys = np.ascontiguousarray(grid[run_start]).view(f"S{width}").ravel()
    distinct, code = np.unique(keys, return_inverse=True)
    names = np.array([k.decode("ascii") for k in distinct], dtype=object)
    run_of_line = np.cumsum(changes) - 1
    return names[code.ravel()[run_of_line]]
