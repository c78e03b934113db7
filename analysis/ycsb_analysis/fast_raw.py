"""Raw datapoints (``READ,1795385384846,2701``) picked out of a block and read as numbers
without making one Python string per line.

Engines, tried in turn on each block: the compiled scanner ``_raw_scan`` (C, one pass; built
when a C compiler was there at install, see ``engine()``), pyarrow's CSV reader under strict
checks (``_arrow_piece``), then the numpy reader below. Each takes only lines that are
certainly raw datapoints and leaves every other line to the readable path.

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

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
from numpy.lib.stride_tricks import sliding_window_view
from pyarrow import csv as pa_csv

from . import fast_status
from .ascii_digits import ONES, eight_digits
from .fast_status import StatusLines, read_status_lines

try:
    from . import _raw_scan
except ImportError:   # pragma: no cover - depends on the installation (no C compiler)
    _raw_scan = None

# Tests switch this off to compare the engines; nothing else changes it.
USE_COMPILED = _raw_scan is not None


def engine() -> str:
    """Which reader reads raw datapoints first: ``"compiled"`` (the C scanner ``_raw_scan``)
    or ``"pyarrow"`` (no C compiler when the package was installed); blocks either gives up
    on go the pyarrow, numpy and readable ways as before."""
    return "compiled" if USE_COMPILED and _raw_scan is not None else "pyarrow"

MAX_NAME = 40
MAX_DIGITS = 15
_PAD = 48   # zero bytes after the data, so that a name's window never runs off the end
# Below this share of certain raw datapoints the block is read the readable way: picking the
# other lines out one by one would then cost more than it saves (status logs, reports).
MIN_SHARE = 0.5

_OTHER_BREAKS_BYTES = (b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e")
_OTHER_BREAKS_TEXT = ("\x85", "\u2028", "\u2029")
_OTHER_BREAKS_UTF8 = tuple(ch.encode("utf-8") for ch in _OTHER_BREAKS_TEXT)

# Bytes a certain raw datapoint line holds: name characters, digits, commas, the minus sign
# (also a name character), and its newline.
_FOREIGN = np.ones(256, dtype=bool)
_DATAPOINT_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-,\n"
_FOREIGN[list(_DATAPOINT_BYTES)] = False
# Above this share of bytes no datapoint holds, a block is not tried with pyarrow: the
# fixtures' status logs have 21-24 % of them, their final reports 14-19 %, their raw outputs
# 5 % (a few hundred datapoints beside the header and the report; a long run's blocks: ~0).
_ARROW_MAX_FOREIGN = 1 / 10

# pyarrow's CSV reader as a strict reader of ``name,digits,digits`` lines: no quoting, no
# empty lines skipped, no text read as null; the checks in _arrow_columns do the rest.
_CSV_COLUMNS = ["metric", "timestamp_ms", "latency_us"]
_CSV_PARSE = pa_csv.ParseOptions(quote_char=False, escape_char=False, ignore_empty_lines=False)
_CSV_CONVERT = pa_csv.ConvertOptions(
    column_types={"metric": pa.dictionary(pa.int32(), pa.string()),
                  "timestamp_ms": pa.int64(), "latency_us": pa.int64()},
    null_values=[], true_values=[], false_values=[],
    strings_can_be_null=False, quoted_strings_can_be_null=False,
)
_EXACT = 2**53    # larger integers are not all exact as float64
# One shared empty StatusLines (never changed in place): a block of raw datapoints has none,
# and making one costs two pandas frames.
_NO_STATUS = StatusLines.empty()


@dataclass
class Piece:
    """Consecutive lines of a text: the raw datapoints read as numbers, the other lines as
    strings, each with its line number inside the piece (``n`` lines in all). The status
    lines ``fast_status`` read are in ``status`` (already parsed), not in ``lines``."""

    lines: list[str]
    line_pos: np.ndarray          # line number of each of ``lines``
    raw_pos: np.ndarray           # line number of each raw datapoint
    raw_code: np.ndarray          # int64: metric of each datapoint, an index of raw_names
    raw_names: tuple[str, ...]    # the metric names (one str object each, shared)
    raw_timestamp_ms: np.ndarray  # float64
    raw_latency_us: np.ndarray    # float64
    n: int
    status: StatusLines = field(default_factory=lambda: _NO_STATUS)

    @classmethod
    def of_lines(cls, lines: list[str], status: StatusLines | None = None) -> "Piece":
        return cls(lines, np.arange(len(lines), dtype=np.int64), np.empty(0, dtype=np.int64),
                   np.empty(0, dtype=np.int64), (), np.empty(0), np.empty(0), len(lines),
                   _NO_STATUS if status is None else status)

    @property
    def raw_metric(self) -> np.ndarray:
        """The metric name of each datapoint (object array of the shared names)."""
        return np.asarray(self.raw_names, dtype=object)[self.raw_code]

    def __add__(self, other: "Piece") -> "Piece":
        names, other_code = _joined_names(self.raw_names, other.raw_names, other.raw_code)
        return Piece(
            self.lines + other.lines,
            np.concatenate([self.line_pos, other.line_pos + self.n]),
            np.concatenate([self.raw_pos, other.raw_pos + self.n]),
            np.concatenate([self.raw_code, other_code]),
            names,
            np.concatenate([self.raw_timestamp_ms, other.raw_timestamp_ms]),
            np.concatenate([self.raw_latency_us, other.raw_latency_us]),
            self.n + other.n,
            self.status + other.status.shifted(self.n) if len(other.status) else self.status,
        )

    def split(self, at: int) -> tuple["Piece", "Piece"]:
        """The lines before line number ``at`` and the rest (renumbered from 0)."""
        k = int(np.searchsorted(self.line_pos, at))
        r = int(np.searchsorted(self.raw_pos, at))
        status_head, status_tail = self.status.split(at)
        head = Piece(self.lines[:k], self.line_pos[:k], self.raw_pos[:r], self.raw_code[:r],
                     self.raw_names, self.raw_timestamp_ms[:r], self.raw_latency_us[:r], at,
                     status_head)
        tail = Piece(
            self.lines[k:],
            self.line_pos[k:] - at,
            self.raw_pos[r:] - at,
            self.raw_code[r:],
            self.raw_names,
            self.raw_timestamp_ms[r:],
            self.raw_latency_us[r:],
            self.n - at,
            status_tail,
        )
        return head, tail


def _numbers(
    windows: np.ndarray, end: np.ndarray, length: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The integers written as the ``length`` bytes before ``end`` (length <= MAX_DIGITS), as
    floats, and whether all those bytes were ASCII digits.

    ``windows[k]`` are the 16 bytes ending before position k: one row copy per number, read
    as two big-endian 64-bit words, the bytes before the number masked off, and each word's
    eight digits summed with word arithmetic (no loop over digits or bytes)."""
    words = np.ascontiguousarray(windows[end]).view(">u8").astype(np.uint64)
    lo_bytes = np.minimum(length, 8).astype(np.uint64)
    hi_bytes = np.maximum(length - 8, 0).astype(np.uint64)
    full = np.uint64(0xFFFFFFFFFFFFFFFF)
    with np.errstate(over="ignore"):
        lo_mask = np.where(
            lo_bytes == 8, full, (np.uint64(1) << (lo_bytes * np.uint64(8))) - np.uint64(1)
        )
        hi_mask = np.where(
            hi_bytes == 8, full, (np.uint64(1) << (hi_bytes * np.uint64(8))) - np.uint64(1)
        )
        zeros = ONES * np.uint64(0x30)
        hi, hi_ok = eight_digits((words[:, 0] ^ zeros) & hi_mask)
        lo, lo_ok = eight_digits((words[:, 1] ^ zeros) & lo_mask)
    return hi.astype(np.float64) * 1e8 + lo.astype(np.float64), hi_ok & lo_ok


def piece_of(text: str | bytes) -> Piece:
    """Split ``text`` (whole lines; or UTF-8 bytes, undecodable bytes read as U+FFFD) as
    ``str.splitlines`` would, reading the certain raw datapoints with pyarrow (a block
    pyarrow cannot take whole: with numpy, line by line)."""
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    if not data:
        return Piece.of_lines([])
    if not data.endswith(b"\n"):
        data += b"\n"
    if USE_COMPILED and _raw_scan is not None:
        piece = _scanned_piece(data)
        if piece is not None:
            return piece
    if isinstance(text, bytes):
        text = _Decoded(data)
    if fast_status.engine() == "compiled" and b" sec: " in data:
        # status lines first (the scanner is cheap): a block that is mostly status lines has
        # no raw datapoint reading to try (raw datapoints among them go the readable way)
        scanned = fast_status.compiled_scan(data)
        if scanned is None:   # a line break other than \n
            return Piece.of_lines(str(text).splitlines())
        status, spans = scanned
        if 2 * len(status) > len(spans):
            return _status_piece(text, data, spans[:, 0], spans[:, 1], status)
    # The bytes no datapoint holds, all of them: few in a raw output's block, and they say at
    # once whether another line break is there.
    foreign = data.translate(None, _DATAPOINT_BYTES)
    if (
        len(foreign) <= _ARROW_MAX_FOREIGN * len(data)
        and not _other_breaks(foreign)
    ):
        piece = _arrow_piece(data, foreign)
        if piece is not None:
            return piece
    if _other_breaks(data):
        return Piece.of_lines(str(text).splitlines())
    b = np.frombuffer(data, dtype=np.uint8)
    # The same bytes after 16 zero bytes, seen as overlapping rows of 16 (no copy): row k
    # ends just before byte k of ``data``.
    padded = np.frombuffer(bytes(16) + data + bytes(_PAD), dtype=np.uint8)
    windows = sliding_window_view(padded, 16)
    ends = np.flatnonzero(b == 10)
    starts = np.concatenate([[0], ends[:-1] + 1])
    n = len(ends)
    # No pass below writes more than one byte per input byte: positions of the few special
    # bytes are found once, then located per line by binary search (searchsorted).
    comma_at = np.flatnonzero(b == 44)
    first_comma = np.searchsorted(comma_at, starts)
    ok = np.searchsorted(comma_at, ends) - first_comma == 2
    if ok.sum() < MIN_SHARE * n:
        return _status_piece(text, data, starts, ends)
    # A byte that no raw datapoint holds (space, bracket, colon, dot, non-ASCII, ...).
    foreign_at = np.flatnonzero(_FOREIGN[b])
    ok &= np.searchsorted(foreign_at, ends) == np.searchsorted(foreign_at, starts)
    first = comma_at[np.minimum(first_comma, len(comma_at) - 1)] if len(comma_at) else starts
    second = comma_at[np.minimum(first_comma + 1, len(comma_at) - 1)] if len(comma_at) else starts
    name_len = first - starts
    ts_len = second - first - 1
    negative = b[np.minimum(second + 1, len(b) - 1)] == 45
    lat_start = second + 1 + negative
    lat_len = ends - lat_start
    ok &= (name_len >= 1) & (name_len <= MAX_NAME)
    ok &= (ts_len >= 10) & (ts_len <= MAX_DIGITS) & (lat_len >= 1) & (lat_len <= MAX_DIGITS)
    # The numbers' bytes must all be digits: checked while they are read.
    idx = np.flatnonzero(ok)
    timestamp, ts_digits = _numbers(windows, second[idx], ts_len[idx])
    latency, lat_digits = _numbers(windows, ends[idx], lat_len[idx])
    ok[idx] = ts_digits & lat_digits
    if ok.sum() < MIN_SHARE * n:
        return _status_piece(text, data, starts, ends)
    keep = ok[idx]
    raw_pos = np.flatnonzero(ok)
    other_pos = np.flatnonzero(~ok)
    lines = [
        data[s:e].decode("utf-8", errors="replace")
        for s, e in zip(starts[other_pos].tolist(), ends[other_pos].tolist())
    ]
    latency = np.where(negative[raw_pos], -latency[keep], latency[keep]) + 0.0   # no -0.0
    names, code = _names(padded, starts[raw_pos] + 16, name_len[raw_pos])
    return Piece(lines, other_pos, raw_pos, code, names, timestamp[keep], latency, n)


def _scanned_piece(data: bytes) -> Piece | None:
    """``data`` (whole lines) read by the C scanner: the certain raw datapoints as numbers,
    the other lines as text; None when it gives up (another line break than ``\\n``, over
    256 metric names, mostly other lines)."""
    scanned = _raw_scan.scan(data)
    if scanned is None:
        return None
    n, names, code, timestamp, latency, raw_pos, other = scanned
    raw_pos = np.frombuffer(raw_pos, dtype=np.int64)
    if len(raw_pos) < MIN_SHARE * n:
        return None
    other = np.frombuffer(other, dtype=np.int64).reshape(-1, 3)
    lines = [data[s:e].decode("utf-8", errors="replace") for s, e in other[:, 1:].tolist()]
    return Piece(lines, other[:, 0].copy(), raw_pos, np.frombuffer(code, dtype=np.int64),
                 tuple(name.decode("ascii") for name in names),
                 np.frombuffer(timestamp, dtype=np.float64),
                 np.frombuffer(latency, dtype=np.float64), n)


def _arrow_piece(data: bytes, foreign: bytes) -> Piece | None:
    """``data`` (whole lines, ``\\n`` only) read with pyarrow when each line is either a
    certain raw datapoint or holds a byte no datapoint holds (a header, a report line: kept as
    text for the readable path); None when a line is neither, or pyarrow might read a number
    more leniently than the readable regex (the numpy path then decides line by line).

    pyarrow reads runs of lines made only of name characters, digits, commas and minus signs
    as ``name,int64,int64``; what it reads that way is a raw datapoint when the name is not
    empty, the timestamp is at least 10^9 (10 digits or more, no sign) and no number is written
    in hexadecimal (pyarrow reads ``0x1F``): the ``[A-Za-z0-9_-]`` bytes leave no other way.
    ``foreign``: the bytes of ``data`` no datapoint holds (none is a line break but ``\\n``)."""
    if (b"x" in data or b"X" in data) and (b",0x" in data or b",0X" in data):
        return None
    if not foreign:   # one line per \\n (no other line break is in the bytes): one row each
        columns = _arrow_columns(pa.py_buffer(data), None)
        if columns is None:
            return None
        names, code, timestamp, latency = columns
        n = len(code)
        return Piece([], np.empty(0, dtype=np.int64), np.arange(n, dtype=np.int64), code, names,
                     timestamp, latency, n)
    b = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(b == 10)
    starts = np.concatenate([[0], ends[:-1] + 1])
    other = np.unique(np.searchsorted(ends, np.flatnonzero(_FOREIGN[b])))
    buffer = pa.py_buffer(data)
    names: tuple[str, ...] = ()
    parts: list[tuple[np.ndarray, ...]] = []
    for first, stop in zip(np.concatenate([[0], other + 1]).tolist(),
                           np.concatenate([other, [len(ends)]]).tolist()):
        if first == stop:
            continue
        lo, hi = int(starts[first]), int(ends[stop - 1]) + 1
        columns = _arrow_columns(buffer.slice(lo, hi - lo), stop - first)
        if columns is None:
            return None
        run_names, code, timestamp, latency = columns
        names, code = _joined_names(names, run_names, code)
        parts.append((np.arange(first, stop, dtype=np.int64), code, timestamp, latency))
    lines = [data[s:e].decode("utf-8", errors="replace")
             for s, e in zip(starts[other].tolist(), ends[other].tolist())]
    raw_pos, code, timestamp, latency = (
        (np.concatenate(col) for col in zip(*parts)) if parts
        else (np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64), np.empty(0), np.empty(0))
    )
    return Piece(lines, other, raw_pos, code, names, timestamp, latency, len(ends))


def _arrow_columns(
    buffer: pa.Buffer, n_lines: int | None
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, np.ndarray] | None:
    """Names, name index, timestamp and latency (float64) of the lines of ``buffer`` (
    ``n_lines`` of them, if known) when they are all certain raw datapoints, read by pyarrow;
    None when one is not (see _arrow_piece)."""
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(buffer),
            read_options=pa_csv.ReadOptions(column_names=_CSV_COLUMNS, use_threads=False,
                                            block_size=buffer.size + 1),
            parse_options=_CSV_PARSE,
            convert_options=_CSV_CONVERT,
        )
    except pa.ArrowInvalid:    # a line with another number of fields, or a field not an int64
        return None
    if n_lines is not None and table.num_rows != n_lines:
        return None
    timestamp = table.column(1).to_numpy()
    latency = table.column(2).to_numpy()
    if (timestamp.min() < 10**9 or timestamp.max() > _EXACT
            or latency.min() < -_EXACT or latency.max() > _EXACT):
        return None
    names: tuple[str, ...] = ()
    codes = []
    for chunk in table.column(0).chunks:
        names, code = _joined_names(
            names, tuple(chunk.dictionary.to_pylist()), chunk.indices.to_numpy().astype(np.int64)
        )
        codes.append(code)
    if not all(names):
        return None
    return names, np.concatenate(codes), timestamp.astype(np.float64), latency.astype(np.float64)


class _Decoded:
    """UTF-8 bytes whose text is made (once) only when asked for: ``str(decoded)``."""

    def __init__(self, data: bytes):
        self.data = data
        self.text: str | None = None

    def __str__(self) -> str:
        if self.text is None:
            self.text = self.data.decode("utf-8", errors="replace")
        return self.text


def _other_breaks(data: bytes) -> bool:
    """Whether the UTF-8 ``data`` holds a line break other than ``\\n`` (what
    ``str.splitlines`` also splits at)."""
    return any(ch in data for ch in _OTHER_BREAKS_BYTES) or (
        not data.isascii() and any(ch in data for ch in _OTHER_BREAKS_UTF8)
    )


def _status_piece(
    text: str | _Decoded, data: bytes, starts: np.ndarray, ends: np.ndarray,
    status: StatusLines | None = None,
) -> Piece:
    """A block that is mostly not raw datapoints: every line a string, and the status lines
    ``fast_status`` can read parsed already (only looked for where a status line may be)."""
    if b"sec: " not in data and b"(us)" not in data:
        return Piece.of_lines(str(text).splitlines())
    if status is None:
        status = read_status_lines(data, starts, ends)
    # the lines read there are not made strings (StatusLines.texts makes one if needed)
    other = np.ones(len(starts), dtype=bool)
    other[status.pos] = False
    other_pos = np.flatnonzero(other)
    lines = [
        data[x:y].decode("utf-8", errors="replace")
        for x, y in zip(starts[other_pos].tolist(), ends[other_pos].tolist())
    ]
    return Piece(lines, other_pos, np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64), (),
                 np.empty(0), np.empty(0), len(starts), status)


def _names(
    padded: np.ndarray, start: np.ndarray, length: np.ndarray
) -> tuple[tuple[str, ...], np.ndarray]:
    """The distinct metric names and each datapoint's index into them.

    YCSB prints a metric's datapoints together, so names come in long runs: the names'
    bytes are compared with the previous line's as 64-bit words, and only the first line
    of each run is decoded (np.unique over those)."""
    width = -(-int(length.max()) // 8) * 8
    grid = sliding_window_view(padded, width)[start]
    grid = np.where(np.arange(width) < length[:, None], grid, 0).astype(np.uint8)
    words = grid.view("<u8")
    changes = np.concatenate([[True], (words[1:] != words[:-1]).any(axis=1)])
    run_start = np.flatnonzero(changes)
    keys = np.ascontiguousarray(grid[run_start]).view(f"S{width}").ravel()
    distinct, code = np.unique(keys, return_inverse=True)
    names = tuple(k.rstrip(b"\0").decode("ascii") for k in distinct)
    return names, code.ravel()[np.cumsum(changes) - 1].astype(np.int64)


def _joined_names(
    names: tuple[str, ...], other: tuple[str, ...], other_code: np.ndarray
) -> tuple[tuple[str, ...], np.ndarray]:
    """``names`` followed by those of ``other`` not in it, and ``other_code`` renumbered."""
    if other == names or not len(other_code):
        return names, other_code
    index = {name: i for i, name in enumerate(names)}
    remap = np.array([index.setdefault(name, len(index)) for name in other], dtype=np.int64)
    return tuple(index), remap[other_code]
