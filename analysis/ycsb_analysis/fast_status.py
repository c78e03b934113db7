"""Status lines read from a block's bytes one *skeleton* at a time: by a compiled scanner
(``_status_scan.c``), or with numpy when it was not built (:func:`engine`).

A long run's status log is hundreds of thousands of lines that differ only in their numbers::

    2026-11-22 23:12:04:402 1 sec: 149 operations; 132 current ops/sec; est completion in 2
    second [READ: Count=64, Max=3707, Min=4, Avg=993,83, 90=2111, 99=3707, 99.9=3707, ...] ...

Replace every number by ``#`` and a few distinct lines remain (the *skeletons*: one per set of
metrics, estimate unit, ``∞`` first line, ``Avg=NaN`` interval, …; a percentile's name like
``99.9`` of ``99.9=`` stays as written). So the work splits in two:

- per byte and per number, in C (one pass; :func:`compiled_status_lines`) or with numpy over
  the whole block (:func:`_numpy_status_lines`): find the numbers (digit runs with at most
  one ``.`` or JVM decimal ``,`` between two digits), build each line's skeleton, and read
  every number's digits;
- per *distinct* skeleton, in Python: check it against the grammar below and note which number
  is which field (:func:`layout_of`, cached; for the scanner as a small program,
  :class:`_Program`). A line whose skeleton does not fit is left to the readable parser
  (``line_formats`` / ``status_parser``), which also stays the test oracle.

Numbers come out exactly as ``line_formats.to_number`` reads them: integers up to 15 digits,
decimals as (all digits) / 10^k, both correctly rounded like ``float()``; an empty histogram's
``Min=9223372036854775807`` (Long.MAX_VALUE) is missing. A line with anything this module is
not sure of — a longer number, a negative one, a date that does not exist, a name with
characters other than ``A-Za-z0-9_-`` (or a digit after a non-letter), any line break but
``\\n`` — goes the readable way whole, and so does
every entry one of whose lines does (``tests/test_fast_status.py``, ``test_status_scan.py``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from pandas.api.types import union_categoricals

from . import status_parser
from .ascii_digits import digits_before
from .line_formats import LONG_MAX

try:   # built by setup.py when a C compiler is there (optional=True); else the numpy reader
    from . import _status_scan
except ImportError:   # pragma: no cover - depends on the installation
    _status_scan = None

# Tests switch this off to compare the two engines; nothing else changes it.
USE_COMPILED = _status_scan is not None
# multi_output warns once per process when a big file is read without the scanner
SLOW_ENGINE_SAID = False


def engine() -> str:
    """Which reader parses status lines: ``"compiled"`` (the C scanner ``_status_scan``, ~5×
    faster) or ``"numpy"`` (no C compiler when the package was installed)."""
    return "compiled" if USE_COMPILED and _status_scan is not None else "numpy"

# ---- the grammar of a skeleton (every number replaced by '#') ------------------------------
_NAME = rb"[A-Za-z0-9_-]+"
# A percentile's name (99.9 of ``99.9=2175``) stays as written in the skeleton, as the readable
# PERCENTILE_PAIR allows it: lines with other percentiles are other skeletons.
_KEY = rb"\d+(?:\.\d+)?"
_MEASUREMENT = (
    rb"\[(?:" + _NAME + rb"): Count=#, Max=#, Min=#, Avg=(?:#|NaN)(?:, " + _KEY + rb"=#)*\]"
    rb"|\[(?:" + _NAME + rb") AverageLatency\(us\)=(?:#|NaN)\]"
    rb"|(?:" + _NAME + rb") count: #, average latency\(us\): (?:#|NaN)"
)
# A label is printable ASCII without digits or '#', so the date is the first number of the line.
# After an estimate exactly one space comes before the first measurement (the readable
# STATUS_HEAD would make more spaces part of the estimate); elsewhere any number of spaces.
_SEQUENCE = rb"(?:" + _MEASUREMENT + rb")(?: +(?:" + _MEASUREMENT + rb"))*"
HEAD_SKELETON = re.compile(
    rb"(?P<label>[ -\"$-/:-~]*)#-#-# #:#:#:# # sec: # operations; (?P<current>#|\xe2\x88\x9e) "
    rb"current ops/sec;(?: est completion in (?P<est>#(?: [a-z]+| #)*?)(?= [^ ]| *$))?"
    rb" *(?P<measurements>(?:" + _SEQUENCE + rb")?) *"
)
CONTINUATION_SKELETON = re.compile(rb" *(?P<measurements>" + _SEQUENCE + rb") *")
_ONE_MEASUREMENT = re.compile(
    rb"\[(?P<hdr>" + _NAME + rb"): Count=#, Max=#, Min=#, Avg=(?P<hdr_avg>#|NaN)"
    rb"(?P<percentiles>(?:, " + _KEY + rb"=#)*)\]"
    rb"|\[(?P<avg>" + _NAME + rb") AverageLatency\(us\)=(?P<avg_avg>#|NaN)\]"
    rb"|(?P<raw>" + _NAME + rb") count: #, average latency\(us\): (?P<raw_avg>#|NaN)"
)

_KEYS = re.compile(rb", (" + _KEY + rb")=#")

# Field kinds, i.e. what a number in that place may look like (as the readable regexes say).
COUNT, LATENCY, DECIMAL = "count", "latency", "decimal"  # \d+ ; -?\d+ ; -?\d+([.,]\d+)?


@dataclass(frozen=True)
class Measurement:
    name: str
    format: str  # hdrhistogram | average | raw (status_parser's names)
    count: int | None  # token numbers within the line
    max: int | None
    min: int | None
    avg: int | None  # None: Avg=NaN (or no average)
    percentiles: tuple[tuple[str, int], ...]  # (percentile as written, token of its value)


@dataclass(frozen=True)
class Layout:
    """Which number of a skeleton's line is which field."""

    head: bool
    label: str
    current: int | None  # token of current ops/sec; None: '∞'
    est: tuple[int, int, int] | None  # first and last token of the estimate, bytes after the last
    measurements: tuple[Measurement, ...]
    n_tokens: int


@functools.lru_cache(maxsize=4096)
def layout_of(skeleton: bytes) -> Layout | None:
    """The layout of a line skeleton, or None when it is no status line this module reads."""
    head = HEAD_SKELETON.fullmatch(skeleton)
    if head is None:
        cont = CONTINUATION_SKELETON.fullmatch(skeleton)
        if cont is None:
            return None
        n, label, current, est, text = 0, "", None, None, cont["measurements"]
    else:
        label = head["label"].decode("ascii")
        n = 9  # 7 for the date, elapsed s, operations
        current = None
        if head["current"] == b"#":
            current, n = n, n + 1
        est = None
        if head["est"] is not None:
            k = head["est"].count(b"#")
            tail = len(head["est"]) - head["est"].rfind(b"#") - 1
            est, n = (n, n + k - 1, tail), n + k
        text = head["measurements"]
    measurements = []
    for m in _ONE_MEASUREMENT.finditer(text):
        if m["hdr"] is not None:
            count, mx, mn = n, n + 1, n + 2
            n += 3
            avg = None
            if m["hdr_avg"] == b"#":
                avg, n = n, n + 1
            pcts = []
            for key in _KEYS.findall(m["percentiles"]):
                pcts.append((key.decode("ascii"), n))
                n += 1
            measurements.append(
                Measurement(m["hdr"].decode(), "hdrhistogram", count, mx, mn, avg, tuple(pcts))
            )
        elif m["avg"] is not None:
            avg = None
            if m["avg_avg"] == b"#":
                avg, n = n, n + 1
            measurements.append(
                Measurement(m["avg"].decode(), "average", None, None, None, avg, ())
            )
        else:
            count, n = n, n + 1
            avg = None
            if m["raw_avg"] == b"#":
                avg, n = n, n + 1
            measurements.append(Measurement(m["raw"].decode(), "raw", count, None, None, avg, ()))
    if n != skeleton.count(b"#"):  # cannot happen for a skeleton the grammar accepted
        raise AssertionError(f"layout of {skeleton!r} has {n} numbers")
    return Layout(head is not None, label, current, est, tuple(measurements), n)


# ---- the block's numbers -------------------------------------------------------------------

_POW10 = 10.0 ** np.arange(23)
_POW10_INT = np.array([10**k for k in range(20)], dtype=np.uint64)
# Numbers of at most this many digits are exact in a float64 and read here.
MAX_DIGITS = 15


@dataclass
class _Numbers:
    """Every number of a block (a run of digits, with at most one '.' or ',' between two of
    them): where it starts and ends, its value, and what it may stand for."""

    start: np.ndarray  # first digit
    end: np.ndarray  # one past the last digit
    value: np.ndarray  # float64; NaN for Long.MAX_VALUE and beyond
    count_ok: np.ndarray  # \d+ of at most 15 digits
    latency_ok: np.ndarray  # the same, or >= Long.MAX_VALUE (an empty histogram's minimum)
    decimal_ok: np.ndarray  # \d+([.,]\d+)? of at most 15 digits
    int_len: np.ndarray  # digits before the decimal mark
    frac_len: np.ndarray  # digits after it
    comma: np.ndarray  # the decimal mark is a comma


def _numbers_of(b: np.ndarray) -> tuple[_Numbers, np.ndarray]:
    """The numbers of a block (``b`` ends with a newline) and the block's skeleton bytes
    (each number replaced by one '#')."""
    digit = (b - np.uint8(48)) < 10
    sep = np.zeros(len(b), dtype=bool)
    sep[1:-1] = ((b[1:-1] == 46) | (b[1:-1] == 44)) & digit[:-2] & digit[2:]
    numeric = digit | sep
    inner = np.zeros(len(b), dtype=bool)  # a number's byte after its first
    inner[1:] = numeric[1:] & numeric[:-1]
    starts = numeric & ~inner
    start = np.flatnonzero(starts)
    end = np.flatnonzero(numeric[:-1] & ~numeric[1:]) + 1
    # a number right before '=' is a percentile's name: it stays as written (see _KEY)
    named = b[end] == 61
    skeleton = b.copy()
    skeleton[start[~named]] = 35  # '#'
    if named.any():
        written = np.zeros(len(b) + 1, dtype=np.int8)
        np.add.at(written, start[named], 1)
        np.add.at(written, end[named], -1)
        inner &= ~np.cumsum(written[:-1]).astype(bool)
    skeleton = skeleton[~inner]

    sep_at = np.flatnonzero(sep)
    owner = np.searchsorted(start, sep_at) - 1  # the number each decimal mark is in
    n_sep = np.bincount(owner, minlength=len(start))
    mark_at = end.copy()
    mark_at[owner] = sep_at
    has_sep = n_sep == 1
    int_len = mark_at - start
    frac_len = np.zeros(len(start), dtype=np.int64)
    frac_len[owner] = end[owner] - sep_at - 1  # (only read where there is one mark)
    comma = np.zeros(len(start), dtype=bool)
    comma[owner] = b[sep_at] == 44

    padded = np.concatenate([np.zeros(24, np.uint8), b])
    # words8[k + 16] is the little-endian word of the 8 bytes ending just before byte k of b
    # (24 zero bytes in front): a view with a stride of one byte, so a gather is one load each
    words8 = np.ndarray((len(padded) - 7,), dtype="<u8", buffer=padded, strides=(1,))
    short = int_len <= 19
    if short.all():
        int_value = digits_before(words8, mark_at + 16, int_len)
    else:
        int_value = np.zeros(len(start), dtype=np.uint64)
        int_value[short] = digits_before(words8, mark_at[short] + 16, int_len[short])
    value = int_value.astype(np.float64)
    decimal = has_sep & (int_len + frac_len <= MAX_DIGITS)
    with_sep = np.flatnonzero(decimal)
    if len(with_sep):
        frac = digits_before(words8, end[with_sep] + 16, frac_len[with_sep])
        digits = int_value[with_sep] * _POW10_INT[frac_len[with_sep]] + frac
        value[with_sep] = digits.astype(np.float64) / _POW10[frac_len[with_sep]]
    plain = (n_sep == 0) & (int_len <= MAX_DIGITS)
    missing = (n_sep == 0) & short & (int_len >= 19) & (int_value >= np.uint64(LONG_MAX))
    value[missing] = np.nan
    token = ~named
    numbers = _Numbers(
        start=start[token],
        end=end[token],
        value=value[token],
        count_ok=plain[token],
        latency_ok=(plain | missing)[token],
        decimal_ok=(plain | decimal)[token],
        int_len=int_len[token],
        frac_len=frac_len[token],
        comma=comma[token],
    )
    return numbers, skeleton


# ---- what a block's status lines hold ------------------------------------------------------

HEAD_COLUMNS = ["pos", *status_parser.HEAD_FIELDS]
ROW_COLUMNS = [
    "pos",
    "metric",
    "format",
    "count",
    "min_latency_us",
    "max_latency_us",
    "average_latency_us",
]
_HEAD_DTYPES = dict(
    zip(HEAD_COLUMNS, ["int64", object, "datetime64[us]", float, float, float, object])
)
_ROW_DTYPES = dict(
    zip(ROW_COLUMNS, ["int64", "category", "category", float, float, float, float])
)
_DATE_DIGITS = np.array([4, 2, 2, 2, 2, 2, 3])


Columns = dict  # column name -> numpy array or pd.Categorical, all of one length


def _length(columns: Columns) -> int:
    return len(columns["pos"])


def _sliced(columns: Columns, a: int, b: int) -> Columns:
    return {c: v[a:b] for c, v in columns.items()}


def _joined(a: Columns, b: Columns) -> Columns:
    """Two blocks' columns one after the other: a column one side lacks (a percentile) is
    missing there, text columns stay Categorical (the names of both, sorted)."""
    if not _length(b):
        return a
    if not _length(a):
        return b
    out = {}
    for c in list(a) + [c for c in b if c not in a]:
        x, y = a.get(c), b.get(c)
        if isinstance(x, pd.Categorical) and isinstance(y, pd.Categorical):
            # (categories in order of appearance: the file's frame sorts them once; text
            # categories kept as objects, which union_categoricals would make pandas strings)
            both = union_categoricals([x, y])
            out[c] = pd.Categorical.from_codes(
                both.codes, categories=pd.Index(both.categories, dtype=object), validate=False
            )
            continue
        if x is None:
            x = np.full(_length(a), np.nan)
        if y is None:
            y = np.full(_length(b), np.nan)
        out[c] = np.concatenate([x, y])
    return _in_row_order(out) if "metric" in out else out


def _in_row_order(rows: Columns) -> Columns:
    """ROW_COLUMNS first, then the percentiles in rising order."""
    pct = sorted((c for c in rows if c.startswith("p") and c != "pos"), key=lambda c: float(c[1:]))
    return {c: rows[c] for c in ROW_COLUMNS + pct}


@dataclass
class StatusLines:
    """The status lines of a piece of text read here: their line numbers, which are heads,
    the heads' fields (HEAD_COLUMNS) and the measurements (ROW_COLUMNS and percentiles; rows
    in line order, then order in the line) as columns, and each line's text hashes and
    length in bytes (compiled engine only; zeros otherwise: see :func:`block_entries`)."""

    pos: np.ndarray
    head: np.ndarray
    heads: Columns
    rows: Columns
    hashes: np.ndarray   # (lines, 2) uint64
    nbytes: np.ndarray   # int64
    # where each line's text is, made a str only if needed (an entry read the readable way
    # because another of its lines was not read here): (buffer, first byte, end) per line
    spans: np.ndarray = field(default_factory=lambda: np.empty((0, 3), dtype=np.int64))
    buffers: tuple[bytes, ...] = ()

    @classmethod
    def empty(cls) -> "StatusLines":
        return cls(
            np.empty(0, dtype=np.int64),
            np.empty(0, dtype=bool),
            {c: np.empty(0, dtype=t) for c, t in _HEAD_DTYPES.items()},
            {
                c: pd.Categorical([]) if t == "category" else np.empty(0, dtype=t)
                for c, t in _ROW_DTYPES.items()
            },
            np.empty((0, 2), dtype=np.uint64),
            np.empty(0, dtype=np.int64),
        )

    def __len__(self) -> int:
        return len(self.pos)

    def texts(self, lines: np.ndarray) -> list[str]:
        """The text of the lines ``lines`` (line numbers, all among ``pos``)."""
        at = np.searchsorted(self.pos, lines)
        return [
            self.buffers[b][x:y].decode("utf-8", errors="replace")
            for b, x, y in self.spans[at].tolist()
        ]

    def shifted(self, by: int) -> "StatusLines":
        return StatusLines(
            self.pos + by,
            self.head,
            {**self.heads, "pos": self.heads["pos"] + by},
            {**self.rows, "pos": self.rows["pos"] + by},
            self.hashes,
            self.nbytes,
            self.spans,
            self.buffers,
        )

    def __add__(self, other: "StatusLines") -> "StatusLines":
        if not len(other):
            return self
        if not len(self):
            return other
        return StatusLines(
            np.concatenate([self.pos, other.pos]),
            np.concatenate([self.head, other.head]),
            _joined(self.heads, other.heads),
            _joined(self.rows, other.rows),
            np.concatenate([self.hashes, other.hashes]),
            np.concatenate([self.nbytes, other.nbytes]),
            np.concatenate([self.spans, other.spans + [len(self.buffers), 0, 0]]),
            self.buffers + other.buffers,
        )

    def split(self, at: int) -> tuple["StatusLines", "StatusLines"]:
        """The lines before line number ``at`` and the rest (renumbered from 0)."""
        if not len(self):
            return self, self
        k = int(np.searchsorted(self.pos, at))
        h = int(np.searchsorted(self.heads["pos"], at))
        r = int(np.searchsorted(self.rows["pos"], at))
        first = StatusLines(
            self.pos[:k],
            self.head[:k],
            _sliced(self.heads, 0, h),
            _sliced(self.rows, 0, r),
            self.hashes[:k],
            self.nbytes[:k],
            self.spans[:k],
            self.buffers,
        )
        n_h, n_r = _length(self.heads), _length(self.rows)
        # the rest (a block's last entry, waiting for the next block) keeps only the buffers
        # its lines are in, not every block read so far
        spans = self.spans[k:].copy()
        used, spans[:, 0] = np.unique(spans[:, 0], return_inverse=True)
        rest = StatusLines(
            self.pos[k:],
            self.head[k:],
            _sliced(self.heads, h, n_h),
            _sliced(self.rows, r, n_r),
            self.hashes[k:],
            self.nbytes[k:],
            spans,
            tuple(self.buffers[i] for i in used.tolist()),
        )
        return first, rest.shifted(-at)


def _times(y, mo, d, h, mi, s, ms) -> tuple[np.ndarray, np.ndarray]:
    """SimpleDateFormat's fields → datetime64[us], and whether the date exists (what
    ``pd.to_datetime`` would not read goes the readable way)."""
    ok = (y >= 1900) & (y <= 2200) & (mo >= 1) & (mo <= 12) & (h <= 23) & (mi <= 59) & (s <= 59)
    month = ((y - 1970) * 12 + np.clip(mo, 1, 12) - 1).astype("datetime64[M]")
    day0 = month.astype("datetime64[D]")
    days_in = ((month + 1).astype("datetime64[D]") - day0).astype(np.int64)
    ok &= (d >= 1) & (d <= days_in)
    micro = ((((d - 1) * 24 + h) * 60 + mi) * 60 + s) * 1_000_000 + ms * 1000
    return day0.astype("datetime64[us]") + micro.astype("timedelta64[us]"), ok


_COUNT, _LATENCY, _DECIMAL = 1, 2, 4


@functools.lru_cache(maxsize=4096)
def _needs_cached(lay: Layout) -> bytes:
    need = np.zeros(lay.n_tokens, dtype=np.uint8)
    if lay.head:
        need[:9] = _COUNT  # date, elapsed seconds, operations: \d+
        if lay.current is not None:
            need[lay.current] = _DECIMAL
    for m in lay.measurements:
        if m.count is not None:
            need[m.count] = _COUNT
        for j in (m.max, m.min, *(v for _, v in m.percentiles)):
            if j is not None:
                need[j] = _LATENCY
        if m.avg is not None:
            need[m.avg] = _DECIMAL
    return need.tobytes()


def _needs(lay: Layout) -> np.ndarray:
    """What each number of a layout's lines must be (bits of _COUNT, _LATENCY, _DECIMAL)."""
    return np.frombuffer(_needs_cached(lay), dtype=np.uint8)


def read_status_lines(data: bytes, starts: np.ndarray, ends: np.ndarray) -> StatusLines:
    """The status lines among the lines ``data[starts[i]:ends[i]]`` (``data`` ends with a
    newline; no other line break in it) that this module reads, by line number ``i``."""
    if engine() == "compiled":
        status = compiled_status_lines(data)
        return StatusLines.empty() if status is None else status
    return _numpy_status_lines(data, starts, ends)


class _Program:
    """Layouts of a block's skeletons as the compiled scanner's programs (int64 words, see
    ``_status_scan.c``), with the block's codes of labels, metrics and percentile columns."""

    def __init__(self):
        self.labels: dict[str, int] = {}
        self.metrics: dict[str, int] = {}
        self.percentiles: dict[str, int] = {}

    def __call__(self, skeleton: bytes) -> bytes | None:
        lay = layout_of(skeleton)
        if lay is None:
            return None
        est = lay.est if lay.est is not None else (-1, -1, 0)
        words = [
            1 if lay.head else 2,
            lay.n_tokens,
            self.labels.setdefault(lay.label, len(self.labels)),
            -1 if lay.current is None else lay.current,
            *est,
            len(lay.measurements),
            *_needs(lay).tolist(),
        ]
        for m in lay.measurements:
            words += [
                self.metrics.setdefault(m.name, len(self.metrics)),
                status_parser.FORMATS.index(m.format),
                *(-1 if j is None else j for j in (m.count, m.max, m.min, m.avg)),
                len(m.percentiles),
            ]
            for key, j in m.percentiles:
                words += [self.percentiles.setdefault(key, len(self.percentiles)), j]
        return np.array(words, dtype=np.int64).tobytes()


def compiled_status_lines(data: bytes) -> StatusLines | None:
    """:func:`read_status_lines` by the compiled scanner (one pass over the bytes in C, this
    module's grammar asked once per distinct skeleton: :class:`_Program`) of every line of
    ``data`` (whole lines); None when ``data`` holds a line break other than ``\\n``."""
    scanned = compiled_scan(data)
    return None if scanned is None else scanned[0]


def compiled_scan(data: bytes) -> tuple[StatusLines, np.ndarray] | None:
    """:func:`compiled_status_lines`, and every line's first byte and one past its last
    (rows of an int64 array of 2 columns): the scanner finds them anyway, so the caller need
    not look for line ends again."""
    program = _Program()
    scanned = _status_scan.scan(data, program)
    if scanned is None:
        return None
    kinds, line_hashes, line_nbytes, spans, heads, rows, pct, ests = scanned
    kind = np.frombuffer(kinds, dtype=np.uint8)
    line_spans = np.frombuffer(spans, dtype=np.int64).reshape(-1, 2)
    pos = np.flatnonzero(kind)
    if not len(pos):
        return StatusLines.empty(), line_spans
    h_pos, h_time, h_elapsed, h_ops, h_current, h_label, h_est = heads
    label_code = np.frombuffer(h_label, dtype=np.int32)
    est_code = np.frombuffer(h_est, dtype=np.int32)
    if len(label_code):
        labels = np.array(list(program.labels), dtype=object)
        texts = np.full(max(ests, default=0) + 2, np.nan, dtype=object)   # slot -1: none
        for slot, text in ests.items():
            texts[slot + 1] = text
        heads_columns = {
            "pos": np.frombuffer(h_pos, dtype=np.int64),
            "label": labels[label_code],
            "time": np.frombuffer(h_time, dtype=np.int64).view("datetime64[us]"),
            "elapsed_s": np.frombuffer(h_elapsed, dtype=np.float64),
            "operations": np.frombuffer(h_ops, dtype=np.float64),
            "current_ops_per_s": np.frombuffer(h_current, dtype=np.float64),
            "est_completion": texts[est_code + 1],
        }
    else:
        heads_columns = StatusLines.empty().heads
    r_pos, r_metric, r_format, r_count, r_max, r_min, r_avg = rows
    if len(r_pos):
        rows_columns = {
            "pos": np.frombuffer(r_pos, dtype=np.int64),
            # categories as they came (the file's frame sorts them once, multi_output)
            "metric": pd.Categorical.from_codes(
                np.frombuffer(r_metric, dtype=np.int32),
                categories=pd.Index(list(program.metrics), dtype=object), validate=False,
            ),
            "format": pd.Categorical.from_codes(
                np.frombuffer(r_format, dtype=np.int8),
                categories=pd.Index(status_parser.FORMATS, dtype=object), validate=False,
            ),
            "count": np.frombuffer(r_count, dtype=np.float64),
            "min_latency_us": np.frombuffer(r_min, dtype=np.float64),
            "max_latency_us": np.frombuffer(r_max, dtype=np.float64),
            "average_latency_us": np.frombuffer(r_avg, dtype=np.float64),
        }
        for key in sorted(program.percentiles, key=float):
            # a column the scanner never made: its only lines were not read here after all
            # (a head with an impossible time, say), so no row has it
            if program.percentiles[key] < len(pct):
                rows_columns["p" + key] = np.frombuffer(
                    pct[program.percentiles[key]], dtype=np.float64
                )
    else:
        rows_columns = StatusLines.empty().rows
    hashes = np.frombuffer(line_hashes, dtype=np.uint64).reshape(-1, 2)
    where = np.zeros((len(pos), 3), dtype=np.int64)
    where[:, 1:] = line_spans[pos]
    status = StatusLines(pos, kind[pos] == 1, heads_columns, rows_columns, hashes,
                         np.frombuffer(line_nbytes, dtype=np.int64), where, (data,))
    return status, line_spans


def _numpy_status_lines(data: bytes, starts: np.ndarray, ends: np.ndarray) -> StatusLines:
    """:func:`read_status_lines` with numpy alone (no C compiler when installed)."""
    b = np.frombuffer(data, dtype=np.uint8)
    numbers, skeleton = _numbers_of(b)
    lines = skeleton.tobytes().split(b"\n")[: len(starts)]
    codes, distinct = pd.factorize(np.array(lines, dtype=object))
    layouts = [layout_of(s) for s in distinct]
    wanted = np.array([lay is not None for lay in layouts] + [False])
    chosen = np.flatnonzero(wanted[codes])
    if not len(chosen):
        return StatusLines.empty()
    first_token = np.searchsorted(numbers.start, starts)
    flags = (
        numbers.count_ok * np.uint8(_COUNT)
        | numbers.latency_ok * np.uint8(_LATENCY)
        | numbers.decimal_ok * np.uint8(_DECIMAL)
    )
    order = chosen[np.argsort(codes[chosen], kind="stable")]
    bounds = np.flatnonzero(np.diff(codes[order])) + 1
    head_parts, row_parts, taken, taken_head = [], [], [], []
    for group in np.split(order, bounds):
        lay = layouts[codes[group[0]]]
        tok = first_token[group][:, None] + np.arange(lay.n_tokens)
        need = _needs(lay)
        ok = ((flags[tok] & need) == need).all(axis=1)
        values = numbers.value[tok]
        if lay.head:
            ok &= (numbers.int_len[tok[:, :7]] == _DATE_DIGITS).all(axis=1)
            time, good_date = _times(*(values[:, j].astype(np.int64) for j in range(7)))
            ok &= good_date
        if not ok.all():
            group, tok, values = group[ok], tok[ok], values[ok]
            if lay.head:
                time = time[ok]
        if not len(group):
            continue
        taken.append(group)
        taken_head.append(np.full(len(group), lay.head))
        n = len(group)
        if lay.head:
            if lay.est is not None:
                j0, j1, tail = lay.est
                est = np.array(
                    [
                        data[x:y].decode("ascii")
                        for x, y in zip(
                            numbers.start[tok[:, j0]].tolist(),
                            (numbers.end[tok[:, j1]] + tail).tolist(),
                        )
                    ],
                    dtype=object,
                )
            else:
                est = np.full(n, np.nan, dtype=object)
            head_parts.append(
                {
                    "pos": group,
                    "label": np.full(n, lay.label, dtype=object),
                    "time": time,
                    "elapsed_s": values[:, 7],
                    "operations": values[:, 8],
                    "current_ops_per_s": values[:, lay.current]
                    if lay.current is not None
                    else np.full(n, np.inf),
                    "est_completion": est,
                }
            )
        nan = np.full(n, np.nan)
        for k, m in enumerate(lay.measurements):
            row = {
                "pos": group,
                "order": np.full(n, k),
                "metric": m.name,
                "format": m.format,
                "count": values[:, m.count] if m.count is not None else nan,
                "min_latency_us": values[:, m.min] if m.min is not None else nan,
                "max_latency_us": values[:, m.max] if m.max is not None else nan,
                "average_latency_us": values[:, m.avg] if m.avg is not None else nan,
            }
            for key, j in m.percentiles:
                row["p" + key] = values[:, j]
            row_parts.append(row)
    if not taken:
        return StatusLines.empty()
    pos = np.concatenate(taken)
    head = np.concatenate(taken_head)
    by_line = np.argsort(pos, kind="stable")
    if head_parts:
        columns = {c: np.concatenate([p[c] for p in head_parts]) for c in HEAD_COLUMNS}
        by_pos = np.argsort(columns["pos"], kind="stable")
        heads = {c: v[by_pos] for c, v in columns.items()}
    else:
        heads = StatusLines.empty().heads
    pos = pos[by_line]
    where = np.zeros((len(pos), 3), dtype=np.int64)
    where[:, 1], where[:, 2] = starts[pos], ends[pos]
    return StatusLines(pos, head[by_line], heads, _row_columns(row_parts),
                       np.zeros((len(pos), 2), dtype=np.uint64), np.zeros(len(pos), np.int64),
                       where, (data,))


def _row_columns(parts: list[dict]) -> Columns:
    """The measurement rows of every skeleton, in line order, then order within the line;
    percentile columns a skeleton lacks are NaN."""
    if not parts:
        return StatusLines.empty().rows
    pct = sorted(
        {c for p in parts for c in p if c.startswith("p") and c != "pos"},
        key=lambda c: float(c[1:]),
    )
    sizes = [len(p["pos"]) for p in parts]
    columns = {}
    for c in ["pos", "order", "count", "min_latency_us", "max_latency_us", "average_latency_us"]:
        columns[c] = np.concatenate([p[c] for p in parts])
    for c in ("metric", "format"):
        # codes into the skeletons' names: no string per row (status_parser.categorical)
        codes, names = pd.factorize(np.array([p[c] for p in parts], dtype=object))
        columns[c] = np.repeat(codes, sizes), names
    for c in pct:
        columns[c] = np.concatenate([p.get(c, np.full(n, np.nan)) for p, n in zip(parts, sizes)])
    order = np.lexsort((columns.pop("order"), columns["pos"]))
    out = {}
    for c in ROW_COLUMNS + pct:
        if c in ("metric", "format"):
            codes, names = columns[c]
            out[c] = status_parser.categorical(codes[order], names)
        else:
            out[c] = columns[c][order]
    return out


# ---- one block's entries: the lines read here, the others the readable way ----------------


def block_entries(
    lines: pd.Series, kinds: pd.Series, status: StatusLines, offset: int
) -> tuple[pd.DataFrame, pd.DataFrame | Columns, pd.DataFrame]:
    """The status entries of one block, their measurements and their fingerprints, exactly
    as ``status_parser.parse_status_entries(texts)``, ``parse_status_measurements`` and
    ``entry_fingerprints(texts)`` give them for the block's entries
    (``texts = status_parser.join_entries(lines, kinds)``). When every entry of the block
    was read here (a status log's usual block) the measurements come as columns (each array
    its own, in the frame's column order), not as a frame.

    ``lines`` and ``kinds`` are every line and its kind (indexed by line number), ``status``
    the lines read here (line numbers + ``offset`` are the index). An entry is taken from
    ``status`` only when its head and every continuation line were read here; the others are
    parsed from their text, and only their text is made.
    """
    labels = kinds.index.to_numpy()
    kind = kinds.to_numpy()
    is_head = kind == "status"
    is_status = is_head | (kind == "status_continuation")
    head_of = np.maximum.accumulate(np.where(is_head, labels, -1)) if len(labels) else labels
    read_here = np.zeros(len(labels), dtype=bool)
    if len(status):
        read_here[np.searchsorted(labels, status.pos + offset)] = True
    doubtful = is_status & ~read_here & (head_of >= 0)
    slow_heads = np.unique(head_of[doubtful])
    compiled = engine() == "compiled"
    if compiled and not len(slow_heads):
        return all_read_here(status, offset, head_of[np.searchsorted(labels, status.pos + offset)])
    # texts of the slow entries only (the numpy engine's fingerprints hash every entry's)
    mine = is_status & np.isin(head_of, slow_heads) if compiled else is_status
    texts = status_parser.join_entries(_with_texts(lines[mine], status, offset), kinds[mine])

    entries, rows, prints = [], [], []
    if len(status):
        heads = status.heads
        head_label = heads["pos"] + offset
        fast = ~np.isin(head_label, slow_heads)
        if fast.any():
            entries.append(_entries_frame({c: v[fast] for c, v in heads.items()}, offset))
            if compiled:
                line_entry = head_of[np.searchsorted(labels, status.pos + offset)]
                taken = np.isin(line_entry, head_label[fast])
                prints.append(_line_prints(status, taken))
        r = status.rows
        entry = head_of[np.searchsorted(labels, r["pos"] + offset)]
        fast = (entry >= 0) & ~np.isin(entry, slow_heads)
        if fast.any():
            r = _named_only({c: v[fast] for c, v in r.items()}, status, fast.all())
            r = pd.DataFrame({c: v for c, v in r.items() if c != "pos"})
            r.insert(0, "entry", entry[fast])
            rows.append(r)
    slow = texts.index.isin(slow_heads)
    if slow.any():
        parsed = status_parser.parse_status_entries(texts[slow], drop_repeats=False)
        found = status_parser.measurement_rows(parsed)
        if len(parsed):
            entries.append(parsed.drop(columns="measurements_text"))
            if compiled:
                prints.append(
                    np.frombuffer(
                        _status_scan.text_hashes(texts.loc[parsed["entry"]].tolist()),
                        dtype=np.uint64,
                    ).reshape(-1, 2)
                )
        if len(found):
            rows.append(found)
    if not entries:
        return (
            pd.DataFrame(columns=status_parser.ENTRY_COLUMNS),
            pd.DataFrame(columns=["entry", "metric", "count"]),
            _prints_frame(np.empty((0, 2), dtype=np.uint64)),
        )
    if compiled:
        both, order = _by_entry(entries)
        hashes = np.concatenate(prints) if len(prints) > 1 else prints[0]
        fingerprints = _prints_frame(hashes if order is None else hashes[order])
    else:
        both, _ = _by_entry(entries)
        fingerprints = status_parser.entry_fingerprints(texts).loc[both["entry"]]
        fingerprints = fingerprints.reset_index(drop=True)
    if not rows:
        return both, status_parser.with_entry_columns(pd.DataFrame(), both), fingerprints
    return both, status_parser.with_entry_columns(_by_entry(rows)[0], both), fingerprints


def _named_only(rows: Columns, status: StatusLines, every_row: bool) -> Columns:
    """``rows`` (some of the block's, whole lines) without the percentile columns that only
    the other rows' lines named: as the readable parser makes a column of each percentile
    its rows name. A column is checked only when all its values here are missing (a line
    that names it may still read as missing: its text is searched then)."""
    if every_row:
        return rows
    texts = None   # (the kept lines' text, made once if a column needs it)
    for c in [c for c in rows if c.startswith("p") and c[1:2].isdigit()]:
        if np.isnan(rows[c]).all():
            if texts is None:
                texts = status.texts(np.unique(rows["pos"]))
            if not any(f", {c[1:]}=" in t for t in texts):
                del rows[c]
    return rows


def _with_texts(lines: pd.Series, status: StatusLines, offset: int) -> pd.Series:
    """``lines`` with the text of those read here (None until now) made."""
    values = lines.to_numpy(dtype=object)
    missing = np.flatnonzero(pd.isna(values))
    if not len(missing):
        return lines
    values = values.copy()
    values[missing] = status.texts(lines.index.to_numpy()[missing] - offset)
    return pd.Series(values, index=lines.index, dtype=object)


def _entries_frame(heads: Columns, offset: int) -> pd.DataFrame:
    """Heads read here as ``status_parser.ENTRY_COLUMNS`` (text columns left as objects:
    the file's frame gives them their dtype once, see ``multi_output._concat``)."""
    out = {"entry": heads["pos"] + offset}
    for c in status_parser.HEAD_FIELDS:
        v = heads[c]
        out[c] = pd.Series(v, dtype=object) if v.dtype == object else v
    return pd.DataFrame(out)


def _prints_frame(hashes: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame({"h1": hashes[:, 0], "h2": hashes[:, 1]})


def _line_prints(status: StatusLines, taken) -> np.ndarray:
    """The fingerprints of the entries whose lines (all read here) are ``status``'s lines
    ``taken`` (the texts' hashes, folded per entry in C)."""
    return np.frombuffer(
        _status_scan.entry_hashes(
            np.ascontiguousarray(status.hashes[taken]).tobytes(),
            np.ascontiguousarray(status.nbytes[taken]).tobytes(),
            status.head[taken].astype(np.uint8).tobytes(),
        ),
        dtype=np.uint64,
    ).reshape(-1, 2)


def all_read_here(
    status: StatusLines, offset: int, line_entry: np.ndarray
) -> tuple[pd.DataFrame, Columns, pd.DataFrame]:
    """:func:`block_entries` of a block whose every entry was read here: the entries and
    fingerprints as frames, the measurements as the frame's columns, built once from the
    scanner's columns (no frame per block, no column copied twice)."""
    entries = _entries_frame(status.heads, offset)
    if len(status) and not status.head[0]:   # continuation lines of no entry (a file's start)
        taken = line_entry >= 0
        fingerprints = _prints_frame(_line_prints(status, taken))
    else:
        fingerprints = _prints_frame(_line_prints(status, slice(None)))
    rows = status.rows
    if not _length(rows):
        return entries, pd.DataFrame(columns=["entry", "metric", "count"]), fingerprints
    ids = entries["entry"].to_numpy()
    # the entry of each row: its line's head (rows of lines before the first head: none)
    row_line = rows["pos"] + offset
    at = np.searchsorted(ids, row_line, side="right") - 1
    kept = at >= 0
    if not kept.all():
        if not kept.any():   # (only continuation lines of no entry had rows)
            return entries, pd.DataFrame(columns=["entry", "metric", "count"]), fingerprints
        rows = _named_only({c: v[kept] for c, v in rows.items()}, status, False)
        at = at[kept]
    metric = rows["metric"]
    codes = metric.codes.astype(np.int64)
    out = {
        "entry": ids[at],
        "time": entries["time"].to_numpy()[at],
        "elapsed_s": entries["elapsed_s"].to_numpy()[at],
        "metric": metric,
        **status_parser.metric_parts(codes, np.asarray(metric.categories, dtype=object)),
    }
    out.update((c, v) for c, v in rows.items() if c not in ("pos", "metric"))
    return entries, out, fingerprints


def _by_entry(parts: list[pd.DataFrame]) -> tuple[pd.DataFrame, np.ndarray | None]:
    """The parts (fast and readable) joined in entry order, and the order taken (None: as
    they came); a single part that is in order already (all of a block read here) is not
    sorted again, which would copy every column."""
    if len(parts) == 1 and parts[0]["entry"].is_monotonic_increasing:
        return parts[0], None
    both = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    order = np.argsort(both["entry"].to_numpy(), kind="stable")
    return both.take(order).reset_index(drop=True), order
