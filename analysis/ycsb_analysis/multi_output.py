"""One file, several YCSB outputs: split them apart and parse each one.

Seed 001 quotes four HBase clients' final reports pasted one after another, with the HBase
client's own log lines between them::

    [INSERT], Return=OK, 1000000
    20/01/19 13:19:16 INFO client.ConnectionManager$HConnectionImplementation: Closing zookeeper ...
    20/01/19 13:19:16 INFO zookeeper.ZooKeeper: Session: 0x36f98ad0a4ad8cc closed
    [OVERALL], RunTime(ms), 1165806

An output starts at an ``[OVERALL]`` line that follows a non-``[OVERALL]`` report line (or
starts the file); this also catches an output whose ``RunTime(ms)`` line was lost (the
seed's second copy of that quote begins at ``Throughput(ops/sec)``). Status lines and raw
datapoints are printed while a run goes on, so they belong to the next report after them.
"""

from __future__ import annotations

import codecs
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from pandas.api.types import union_categoricals

from . import exporters, fast_status, free_memory, report_parser, status_parser, status_spill
from .errors import UnreadableInput
from .fast_raw import Piece, piece_of
from .fast_status import block_entries
from .line_formats import (
    LINE_KINDS,
    RAW_DATAPOINT,
    RAW_DATAPOINT_SCANNER,
    classify_lines,
    columns_of,
    latency_number,
    scan,
    to_number,
)
from .raw_intervals import COLUMNS as RAW_INTERVAL_COLUMNS
from .raw_intervals import NotExact, RawIntervalCounts

_JSON_START = re.compile(r"^\s*(?:\{|\[\s*\{)")


@dataclass
class ParsedOutput:
    """Everything one YCSB client printed for one run (possibly from two files: .out + .err)."""

    source: str
    report: pd.DataFrame  # metric, measurement, value (every final-report figure)
    status_entries: pd.DataFrame  # one row per status entry
    status_measurements: pd.DataFrame  # one row per status entry and metric (see status_spill)
    timeseries: pd.DataFrame  # metric, time_ms, average_latency_us (timeseries type)
    raw_datapoints: pd.DataFrame  # metric, timestamp_ms, latency_us (raw type; see below)
    line_counts: dict[str, int] = field(default_factory=dict)
    # Raw datapoints summed up per second while reading (``raw_intervals.raw_intervals``'s
    # columns, exact), how many there were and how many had a negative latency. The rows
    # themselves are kept only up to MAX_KEPT_RAW_ROWS per file unless asked for
    # (``parse_file(raw_rows=True)``): otherwise ``raw_datapoints`` is empty though
    # ``raw_total`` is not.
    raw_summary: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=RAW_INTERVAL_COLUMNS)
    )
    raw_total: int = 0
    raw_negative: int = 0
    # Completeness, in the reader's words: a last line without its newline (not read as data,
    # see :func:`parse_file`), the blocks of the final report it or a short block leaves
    # incomplete, and the text encoding when it was not UTF-8.
    cut_line: str | None = None
    incomplete_blocks: list[str] = field(default_factory=list)
    encoding: str = "utf-8"
    # ycsb-report's parse of a big file: the measurement columns not in status_spill.LEAN are
    # in files, not in status_measurements; read them with status_values / status_frame.
    status_files: status_spill.Spilled | None = None

    @property
    def status_columns(self) -> list[str]:
        """Every column of the status measurements, in memory or in files."""
        if self.status_files is None:
            return list(self.status_measurements.columns)
        return list(self.status_files.order)

    def status_values(self, name: str, rows: np.ndarray | slice | None = None) -> np.ndarray:
        """Column ``name`` of the status measurements (of ``rows``, positions or a slice, when
        given), from memory or read from its file. Raises KeyError for a column not there."""
        if name in self.status_measurements:
            values = self.status_measurements[name].to_numpy()
            return values if rows is None else values[rows]
        if self.status_files is not None and name in self.status_files.files:
            return self.status_files.read(name, rows)
        raise KeyError(name)

    def status_frame(
        self, rows: np.ndarray | slice | None = None, columns: list[str] | None = None
    ) -> pd.DataFrame:
        """The status measurements with every column (of ``rows`` and ``columns`` when given),
        as ``parse_file`` gives them, whether or not some columns are in files."""
        if self.status_files is None and rows is None and columns is None:
            return self.status_measurements
        return status_spill.whole_frame(self.status_measurements, self.status_files, rows, columns)

    @property
    def skipped_lines(self) -> int:
        """Lines that were neither YCSB data nor YCSB's own messages."""
        return int(self.line_counts.get("unknown", 0))

    @property
    def has_report(self) -> bool:
        return not self.report.empty

    @property
    def summary(self) -> pd.DataFrame:
        return report_parser.latency_summary(self.report)

    @property
    def returns(self) -> pd.DataFrame:
        return report_parser.returns(self.report)

    @property
    def overall(self) -> dict[str, float]:
        return report_parser.overall(self.report)

    @property
    def gc(self) -> pd.DataFrame:
        return report_parser.gc_figures(self.report)

    def combined_with(self, other: "ParsedOutput") -> "ParsedOutput":
        """Join a client's stdout and stderr parses (report from one, status from the other)."""

        def cat(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
            if a.empty:
                return b
            if b.empty:
                return a
            return pd.concat([a, b], ignore_index=True)

        entries_b = other.status_entries
        meas_a, meas_b = self.status_measurements, other.status_measurements
        files = self.status_files if meas_b.empty else other.status_files if meas_a.empty \
            else None
        if files is None and not meas_a.empty and not meas_b.empty:
            # (status lines in both files: rare) every column in memory
            meas_a, meas_b = self.status_frame(), other.status_frame()
        if not self.status_entries.empty and not entries_b.empty:
            # Keep entry ids unique across the two files (new entry columns, the others
            # shared: a long run's frame is not copied).
            shift = int(self.status_entries["entry"].max()) + 1
            entries_b = entries_b.assign(entry=entries_b["entry"] + shift)
            if not meas_b.empty:
                meas_b = meas_b.assign(entry=meas_b["entry"] + shift)
        counts = dict(self.line_counts)
        for k, v in other.line_counts.items():
            counts[k] = counts.get(k, 0) + v
        return ParsedOutput(
            source=f"{self.source} + {other.source}",
            report=cat(self.report, other.report),
            status_entries=cat(self.status_entries, entries_b),
            status_measurements=cat(meas_a, meas_b),
            status_files=files,
            timeseries=cat(self.timeseries, other.timeseries),
            raw_datapoints=cat(self.raw_datapoints, other.raw_datapoints),
            line_counts=counts,
            # (a client's stdout and stderr never both hold raw datapoints of one second)
            raw_summary=cat(self.raw_summary, other.raw_summary),
            raw_total=self.raw_total + other.raw_total,
            raw_negative=self.raw_negative + other.raw_negative,
            cut_line=self.cut_line if self.cut_line is not None else other.cut_line,
            incomplete_blocks=self.incomplete_blocks + other.incomplete_blocks,
            encoding=self.encoding if self.encoding != "utf-8" else other.encoding,
        )

    @property
    def completeness_problems(self) -> list[str]:
        """Why this output's figures are not all there, one phrase each (empty when complete)."""
        problems = []
        if self.cut_line is not None:
            shown = self.cut_line if len(self.cut_line) <= 60 else self.cut_line[:57] + "..."
            problems.append(f"its last line {shown!r} has no line end (the file was cut): not read")
        if self.incomplete_blocks:
            problems.append("final report incomplete: " + "; ".join(self.incomplete_blocks))
        return problems


# Raw datapoints kept as rows per file (~28 bytes each) unless all are asked for; beyond this
# only their per-second summary (exact, RawIntervalCounts) is kept, so memory does not grow
# with a long raw run. ycsb-report writes rows as plain CSV up to the same number (~10 MB).
MAX_KEPT_RAW_ROWS = 250_000

# Big files are parsed in blocks of about this many bytes (whole lines), so that memory
# holds one block's intermediate columns, not the whole file's. 8 MB, not 4: each block has a
# fixed cost in Python and pandas calls, and with the compiled scanners that cost was ~10% of a
# status log's parse (314 MB log: 3.8 -> 3.45 CPU-s median of 3, interleaved; raw outputs
# unchanged), for ~18 MiB more peak.
BLOCK_BYTES = 8 * 2**20


def segment_starts(
    is_report: np.ndarray, metrics: np.ndarray, after_overall: bool, seen_report: bool
) -> np.ndarray:
    """Which report lines start a new output: an ``[OVERALL]`` line that follows a
    non-``[OVERALL]`` report line, or the first report line of the file.

    ``after_overall``/``seen_report`` carry the state of the lines before this block.
    """
    start = np.zeros(len(is_report), dtype=bool)
    if not is_report.any():
        return start
    rep_idx = np.flatnonzero(is_report)
    is_overall = metrics[rep_idx] == "OVERALL"
    prev_overall = np.concatenate([[after_overall], is_overall[:-1]])
    first = np.zeros(len(rep_idx), dtype=bool)
    first[0] = not seen_report
    start[rep_idx[(is_overall & ~prev_overall) | first]] = True
    return start


def _empty(columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=object) for c in columns})


def _parse_raw_datapoints(lines: pd.Series) -> pd.DataFrame:
    if lines.empty:
        return _empty(["metric", "timestamp_ms", "latency_us"])
    metric, timestamp, latency = columns_of(
        scan(RAW_DATAPOINT_SCANNER, lines.astype(object).tolist()), 3
    )
    if len(metric) != len(lines):  # not all raw datapoints (only when called with other lines)
        p = lines.astype(object).str.extract(RAW_DATAPOINT.pattern)
        metric, timestamp, latency = (
            p[c].to_numpy(dtype=object) for c in ("metric", "timestamp_ms", "latency_us")
        )
    return pd.DataFrame(
        {
            "metric": pd.Series(metric, index=lines.index, dtype=object),
            "timestamp_ms": to_number(pd.Series(timestamp, index=lines.index, dtype=object)),
            "latency_us": latency_number(pd.Series(latency, index=lines.index, dtype=object)),
        }
    )


def _concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate blocks' frames; text columns get the dtype pandas infers for the whole
    column (as if parsed in one piece), not what a block of only missing values had."""
    out = pd.concat(frames, ignore_index=True)
    for c, col in out.items():
        if col.dtype == object or isinstance(col.dtype, pd.StringDtype):
            out[c] = pd.DataFrame({c: col.to_numpy(dtype=object)})[c]
    return out


def _own_columns(frame: pd.DataFrame) -> dict[str, np.ndarray]:
    """A block's frame as one array per column, each its own copy: a column of all blocks
    can then be joined and the blocks' parts let go (a view of a frame's 2-D block would
    keep the whole block alive)."""
    return {
        c: col.array.copy()
        if isinstance(col.dtype, pd.CategoricalDtype)
        else col.to_numpy(dtype=object)
        if _is_text(col)
        else col.to_numpy(copy=True)
        for c, col in frame.items()
    }


def _is_text(col: pd.Series) -> bool:
    return col.dtype == object or isinstance(col.dtype, pd.StringDtype)


def _all_used(col: pd.Categorical) -> bool:
    """Whether every category of ``col`` occurs in it (as ``status_parser.categorical``
    leaves a column)."""
    codes = col.codes
    return bool(np.bincount(codes[codes >= 0] if (codes < 0).any() else codes,
                            minlength=len(col.categories)).all())


def _joined(pieces: list[np.ndarray], keep: np.ndarray | None, sizes: list[int]) -> np.ndarray:
    """The blocks' arrays of one column joined, of the rows ``keep`` (all when None); the kept
    rows of each block copied straight into their place, when the column is numbers."""
    if keep is None or pieces[0].dtype == object:
        return np.concatenate(pieces)
    out = np.empty(int(np.count_nonzero(keep)), dtype=pieces[0].dtype)
    start = end = 0
    for piece, n in zip(pieces, sizes):
        mask = keep[start:start + n]
        k = int(np.count_nonzero(mask))
        np.compress(mask, piece, out=out[end:end + k])
        start, end = start + n, end + k
    return out


def _concat_owned(
    parts: list[dict[str, np.ndarray]], keep: np.ndarray | None, order: list[str]
) -> pd.DataFrame:
    """What ``_concat`` gives for the blocks' frames (then rows ``keep``, columns in
    ``order``), joined one column at a time and emptying ``parts`` as it goes, so the peak
    holds the result and one column more, not the blocks and the result."""
    sizes = [len(next(iter(p.values()))) if p else 0 for p in parts]
    out = {}
    for c in order:
        pieces = [p.pop(c, None) for p in parts]
        dtypes = {x.dtype for x in pieces if x is not None}
        gather = keep   # the rows still to pick from the joined column
        if all(isinstance(x, pd.Categorical) for x in pieces):
            # the status text columns (status_parser.categorical): codes joined, the few
            # names unified and kept sorted (recoded only if a block kept a name it no
            # longer uses: every row's code is gathered once more then)
            joined = union_categoricals(pieces, sort_categories=True)
            col = (
                pd.Categorical.from_codes(   # the names as objects, as categorical() gives
                    joined.codes, pd.Index(np.asarray(joined.categories), dtype=object)
                )
                if _all_used(joined)
                else status_parser.categorical(joined.codes, joined.categories)
            )
            whole = None
        elif all(x is not None for x in pieces) and len(dtypes) == 1:
            col = _joined(pieces, keep, sizes)
            whole = None
            if col.dtype != object:
                gather = None   # (the kept rows only, already: no second copy of the column)
        else:  # a block without the column, or dtypes to reconcile: pandas' own rules
            whole = pd.concat(
                [
                    pd.Series(x) if x is not None else pd.Series(np.nan, index=range(n))
                    for x, n in zip(pieces, sizes)
                ],
                ignore_index=True,
            )
            col = None
        del pieces
        free_memory.release()   # the blocks' arrays of this column: see free_memory
        if col is not None and col.dtype == object:
            whole = pd.DataFrame({c: col})[c]
            col = None
        if gather is not None:
            if whole is not None:
                whole = whole[gather].reset_index(drop=True)
            else:
                col = col[gather]
        if isinstance(col, pd.Categorical) and keep is not None:   # (categorical(): all used)
            col = col.remove_unused_categories()
        out[c] = whole if whole is not None else col
    return pd.DataFrame(out, copy=False)


# Kinds of line a block's feed reads (not only counts): those of report_parser, fast_raw
# and status_parser.
_READ_KINDS = np.array(
    ["report", "timeseries", "status", "status_continuation", "raw_datapoint"], dtype=object
)


def _status_and_messages_only(piece: Piece, kinds: pd.Series) -> bool:
    """Whether the compiled scanner read every status line of ``piece`` and its other lines
    (``kinds``) are only counted: see ``_FileParse._feed_status_and_messages``."""
    return (
        not len(piece.raw_pos)
        and len(piece.status) > 0
        and fast_status.engine() == "compiled"
        and not np.isin(kinds.to_numpy(), _READ_KINDS).any()
    )


def _repeated(fingerprints: pd.DataFrame) -> np.ndarray:
    """``fingerprints.duplicated(keep="first")`` of the (h1, h2) pairs, hashing one column:
    only the few rows whose h1 repeats are compared as pairs."""
    maybe = np.flatnonzero(fingerprints["h1"].duplicated(keep=False).to_numpy())
    repeated = np.zeros(len(fingerprints), dtype=bool)
    if len(maybe):
        repeated[maybe] = fingerprints.iloc[maybe].duplicated(keep="first").to_numpy()
    return repeated


class _FileParse:
    """The parse of one text, fed block by block (whole lines, in order); :meth:`outputs`
    then gives exactly what parsing the whole text at once gives.

    What crosses block boundaries: line numbers, which output a line belongs to (the
    ``[OVERALL]`` state), YCSB's repeated last status line (dropped by fingerprint, see
    ``status_parser.entry_fingerprints``), and a status entry's continuation lines — the
    caller keeps the lines from a block's last status head for the next block.
    """

    def __init__(
        self, source: str, raw_rows: bool = False, close_intervals: bool = True,
        spill: status_spill.Writer | None = None,
    ):
        self.source = source
        self.keep_raw = True
        self.all_raw_rows = raw_rows
        self.raw_counts = RawIntervalCounts(close=close_intervals)
        self.n_lines = 0
        self.n_starts = 0
        self.after_overall = False
        self.seen_report = False
        self.report_lines: list[pd.Series] = []
        self.timeseries_lines: list[pd.Series] = []
        # Raw datapoints as per-block numpy columns, with their output (segment) instead of a
        # line-number index: ~28 bytes a datapoint, and one column at a time is joined at the end.
        self.raw: dict[str, list[np.ndarray]] = {
            "metric": [],
            "timestamp_ms": [],
            "latency_us": [],
            "segment": [],
        }
        self.entries: list[pd.DataFrame] = []
        self.fingerprints: list[pd.DataFrame] = []
        self.measurements: list[dict[str, np.ndarray]] = []  # see _own_columns
        self.column_names: dict[str, None] = {}   # of the measurements, in order
        self.spill = spill   # where seldom-read columns go (None: kept in memory)
        self.column_order: list[str] = []   # of the joined measurements, set by _status()
        self.counts: list[pd.DataFrame] = []
        self.line_segment: list[pd.Series] = []  # segment of report/timeseries/raw lines

    def feed(self, piece: Piece, kinds: pd.Series | None = None) -> None:
        """Parse the next block of lines (``kinds`` of ``piece.lines`` from ``classify_lines``,
        if known); ``piece.n`` lines in all, its raw datapoints already read."""
        n = piece.n
        if n == 0:
            return
        if len(piece.raw_pos) == n:   # raw datapoints only (most blocks of a raw output)
            raw_segment = np.full(n, self.n_starts, dtype=np.int64)
            self.counts.append(
                pd.DataFrame({"segment": [self.n_starts], "kind": ["raw_datapoint"], "n": [n]})
            )
            self._add_raw(piece, pd.Series([], dtype=object), pd.Series([], dtype="int64"),
                          raw_segment)
            self.n_lines += n
            return
        kinds = kinds_of(piece) if kinds is None else kinds
        if _status_and_messages_only(piece, kinds):
            self._feed_status_and_messages(piece, kinds)
            return
        line_pos, texts, kind = piece.line_pos, np.asarray(piece.lines, dtype=object), kinds
        kind = kinds.to_numpy()
        if len(piece.status):
            # the lines fast_status read join the others in line order, their text None (made
            # by block_entries only for an entry read the readable way)
            status = piece.status
            line_pos = np.concatenate([line_pos, status.pos])
            order = np.argsort(line_pos, kind="stable")
            line_pos = line_pos[order]
            texts = np.concatenate([texts, np.full(len(status), None, dtype=object)])[order]
            kind = np.concatenate(
                [kind, np.where(status.head, "status", "status_continuation").astype(object)]
            )[order]
        index = pd.Index(line_pos + self.n_lines)
        lines_s = pd.Series(texts, index=index, dtype=object)
        kinds = pd.Series(kind, index=index, dtype=object)

        report_lines = lines_s[kind == "report"]
        ts_lines = lines_s[kind == "timeseries"]
        is_report = (kind == "report") | (kind == "timeseries")
        metrics = np.full(len(kind), "", dtype=object)
        if len(report_lines):
            metrics[kind == "report"] = report_parser.parse_report_lines(report_lines)[
                "metric"
            ].to_numpy()
        if len(ts_lines):
            metrics[kind == "timeseries"] = report_parser.parse_timeseries_lines(ts_lines)[
                "metric"
            ].to_numpy()
        start = segment_starts(is_report, metrics, self.after_overall, self.seen_report)
        starts_upto = np.cumsum(start) + self.n_starts
        # Status lines and raw datapoints are printed while a run goes on: they belong to
        # the next report. Clipped to the real number of outputs in outputs().
        segment = np.where(is_report, starts_upto - 1, starts_upto).astype("int64")
        # A raw datapoint read by fast_raw (never a report line) belongs with the report
        # lines started before it.
        before = np.searchsorted(piece.line_pos, piece.raw_pos)
        raw_segment = np.where(
            before > 0, starts_upto[np.maximum(before - 1, 0)] if len(kind) else 0, self.n_starts
        ).astype("int64")
        if is_report.any():
            self.after_overall = bool(metrics[np.flatnonzero(is_report)[-1]] == "OVERALL")
            self.seen_report = True
        if len(kind):
            self.n_starts = int(starts_upto[-1])
        segments = pd.Series(segment, index=index)

        # lines per (segment, kind): a handful of pairs, counted on integer codes
        kind_code, kind_names = pd.factorize(kind)
        pair, n_pair = np.unique(segment * len(LINE_KINDS) + kind_code, return_counts=True)
        self.counts.append(
            pd.DataFrame(
                {
                    "segment": pair // len(LINE_KINDS),
                    "kind": np.asarray(kind_names, dtype=object)[pair % len(LINE_KINDS)],
                    "n": n_pair,
                }
            )
        )
        if len(raw_segment):
            seg, n_raw = np.unique(raw_segment, return_counts=True)
            self.counts.append(pd.DataFrame({"segment": seg, "kind": "raw_datapoint", "n": n_raw}))
        self.report_lines.append(report_lines)
        self.timeseries_lines.append(ts_lines)
        self._add_raw(piece, lines_s[kind == "raw_datapoint"], segments, raw_segment)
        line_segment = segments[is_report]
        self.line_segment.append(line_segment)

        if (kind == "status").any():
            entries, measurements, fingerprints = block_entries(
                lines_s, kinds, piece.status, self.n_lines
            )
            if len(entries):
                self._keep_measurements(measurements)
                entries["segment"] = segments.reindex(entries["entry"]).to_numpy()
                self.entries.append(entries)
                self.fingerprints.append(fingerprints)
        self.n_lines += n

    def _feed_status_and_messages(self, piece: Piece, kinds: pd.Series) -> None:
        """:meth:`feed` of a block whose status lines the compiled scanner read, all of
        them, and whose other lines are only counted (messages, blank, unknown): a status
        log's usual block. No report line, so every line is in the current output and the
        lines per kind are a few numbers; no per-line object is made for the status lines,
        and the entries are :func:`fast_status.all_read_here`'s, as ``block_entries`` gives."""
        status, offset = piece.status, self.n_lines
        n_heads = int(np.count_nonzero(status.head))
        other, n_other = np.unique(kinds.to_numpy(dtype=object), return_counts=True)
        self.counts.append(
            pd.DataFrame(
                {
                    "segment": self.n_starts,
                    "kind": ["status", "status_continuation", *other],
                    "n": [n_heads, len(status) - n_heads, *n_other.tolist()],
                }
            )
        )
        # each line's entry: the last head at or before it (-1: continuation lines of none)
        line_entry = np.maximum.accumulate(np.where(status.head, status.pos + offset, -1))
        entries, measurements, fingerprints = fast_status.all_read_here(
            status, offset, line_entry
        )
        if len(entries):
            self._keep_measurements(measurements)
            entries["segment"] = np.full(len(entries), self.n_starts, dtype=np.int64)
            self.entries.append(entries)
            self.fingerprints.append(fingerprints)
        self.n_lines += piece.n

    def _keep_measurements(self, measurements: dict[str, np.ndarray] | pd.DataFrame) -> None:
        """Keep a block's measurement rows: as columns of their own (see ``_own_columns``),
        their seldom-read ones written to files when spilling (``status_spill``)."""
        if not isinstance(measurements, dict):   # (a frame: the readable path's)
            if not len(measurements):
                return
            measurements = _own_columns(measurements)
        self.column_names.update(dict.fromkeys(measurements))
        if self.spill is not None:
            measurements = self.spill.split(measurements)
        self.measurements.append(measurements)

    def _add_raw(
        self, piece: Piece, raw_lines: pd.Series, segments: pd.Series, raw_segment: np.ndarray
    ) -> None:
        """Count a block's raw datapoints (and keep them as rows while allowed): those
        ``fast_raw`` read (``raw_segment``: the output of each) and the readable path's
        ``raw_lines`` (``segments``: the output of each line), in line order."""
        if len(raw_lines):  # the readable path's raw datapoints, merged in line order
            slow = _parse_raw_datapoints(raw_lines)
            line = np.concatenate([raw_lines.index.to_numpy(), piece.raw_pos + self.n_lines])
            order = np.argsort(line, kind="stable")
            columns = {
                "metric": np.concatenate([slow["metric"].to_numpy(dtype=object), piece.raw_metric])[
                    order
                ],
                "timestamp_ms": np.concatenate(
                    [slow["timestamp_ms"].to_numpy(), piece.raw_timestamp_ms]
                )[order],
                "latency_us": np.concatenate([slow["latency_us"].to_numpy(), piece.raw_latency_us])[
                    order
                ],
                "segment": np.concatenate([segments[raw_lines.index].to_numpy(), raw_segment])[
                    order
                ],
            }
            names = None
        else:   # metrics as indices of piece.raw_names: names made per row only if rows are kept
            columns = {
                "metric": piece.raw_code,
                "timestamp_ms": piece.raw_timestamp_ms,
                "latency_us": piece.raw_latency_us,
                "segment": raw_segment,
            }
            names = piece.raw_names
        if len(columns["metric"]):
            self.raw_counts.add(
                columns["metric"], columns["timestamp_ms"], columns["latency_us"],
                columns["segment"], names=names,
            )
            if (
                self.keep_raw
                and not self.all_raw_rows
                and len(self.raw_counts) > MAX_KEPT_RAW_ROWS
            ):
                self.keep_raw = False     # from now on only the summary
                self.raw = {name: [] for name in self.raw}
        if len(columns["metric"]) and self.keep_raw:
            if names is not None:
                columns["metric"] = piece.raw_metric
            for name, values in columns.items():
                self.raw[name].append(values.astype(np.int32) if name == "segment" else values)

    def _status(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        if not self.entries:
            return _empty(status_parser.ENTRY_COLUMNS + ["segment"]), _empty(
                ["entry", "metric", "count"]
            )
        # The blocks' parts are let go as soon as they are joined (outputs() is called once).
        # The measurements (the bulk) are joined first, while the entries are still the
        # blocks' small frames: the peak holds one copy of the bulk, not the bulk and a
        # second copy of the entries.
        fingerprints, self.fingerprints = self.fingerprints, []
        repeated = _repeated(pd.concat(fingerprints, ignore_index=True))
        del fingerprints
        free_memory.release()
        parts, self.entries = self.entries, []
        measurements = pd.DataFrame(columns=["entry", "metric", "count"])
        if self.measurements:
            names = list(self.column_names)
            pct = sorted(
                [c for c in names if c.startswith("p") and c[1:2].isdigit()],
                key=lambda c: float(c[1:]),
            )
            self.column_order = [c for c in names if c not in pct] + pct
            keep = None
            if repeated.any():
                kept = np.concatenate([p["entry"].to_numpy() for p in parts])[~repeated]
                keep = np.isin(np.concatenate([p["entry"] for p in self.measurements]), kept)
                if self.spill is not None:
                    self.spill.keep(keep)
            rows, self.measurements = self.measurements, []
            in_memory = dict.fromkeys(c for p in rows for c in p)
            measurements = _concat_owned(
                rows, keep, [c for c in self.column_order if c in in_memory]
            )
        entries = _concat(parts)
        del parts
        if repeated.any():
            entries = entries[~repeated].reset_index(drop=True)
        return entries, measurements

    def _raw(self, n_segments: int) -> tuple[pd.DataFrame, np.ndarray]:
        """All raw datapoints (``metric, timestamp_ms, latency_us``) and each one's output;
        the blocks' columns are let go one column at a time, so the peak holds one extra
        column, not a second copy of everything."""
        if not self.raw["metric"]:
            return _empty(["metric", "timestamp_ms", "latency_us"]), np.empty(0, dtype=np.int32)
        joined = {}
        for name in list(self.raw):
            joined[name] = np.concatenate(self.raw[name])
            self.raw[name] = []
        segment = joined.pop("segment").clip(0, n_segments - 1)
        joined["metric"] = pd.Series(joined["metric"], dtype=object)
        return pd.DataFrame(joined, copy=False), segment

    def outputs(self) -> list[ParsedOutput]:
        """One :class:`ParsedOutput` per YCSB output found in the text fed so far."""
        n_segments = max(self.n_starts, 1)
        lines = pd.concat(self.report_lines) if self.report_lines else pd.Series([], dtype=object)
        report = report_parser.parse_report_lines(lines)
        ts_lines = (
            pd.concat(self.timeseries_lines)
            if self.timeseries_lines
            else pd.Series([], dtype=object)
        )
        timeseries = (
            report_parser.parse_timeseries_lines(ts_lines)
            if len(ts_lines)
            else _empty(["metric", "time_ms", "average_latency_us"])
        )
        raw, raw_segment = self._raw(n_segments)
        line_segment = (
            pd.concat(self.line_segment) if self.line_segment else pd.Series([], dtype="int64")
        ).clip(0, n_segments - 1)
        entries, measurements = self._status()
        entry_segment = entries.pop("segment").to_numpy(dtype="int64").clip(0, n_segments - 1)
        if self.counts:
            counts = pd.concat(self.counts, ignore_index=True)
            counts["segment"] = counts["segment"].clip(0, n_segments - 1)
            counts = counts.groupby(["segment", "kind"])["n"].sum()
        else:
            counts = pd.Series(dtype="int64")

        outputs = []
        for seg in range(n_segments):

            def pick(df: pd.DataFrame) -> pd.DataFrame:
                if df.empty or n_segments == 1:  # one output: every line is its own
                    return df.reset_index(drop=True)
                return df[line_segment.reindex(df.index).to_numpy() == seg].reset_index(drop=True)

            rows = slice(0, len(measurements))
            if n_segments == 1:  # everything belongs to the one output: no filtered copies
                ents = entries.reset_index(drop=True)
                meas = (
                    measurements.reset_index(drop=True) if not measurements.empty else measurements
                )
            else:
                ents = entries[entry_segment == seg].reset_index(drop=True)
                mine = np.flatnonzero(measurements["entry"].isin(ents["entry"]).to_numpy()) \
                    if not measurements.empty else np.empty(0, dtype=np.intp)
                meas = (
                    measurements.iloc[mine].reset_index(drop=True)
                    if not measurements.empty
                    else measurements
                )
                # (an output's rows are consecutive: outputs follow each other in the text)
                rows = slice(int(mine[0]), int(mine[-1]) + 1) if len(mine) else slice(0, 0)
            spilled = (
                self.spill.rows_of(rows.start, rows.stop, self.column_order)
                if self.spill is not None and self.spill.files and len(meas)
                else None
            )
            if spilled is not None and len(spilled) != len(meas):   # (never seen): in memory
                every = self.spill.rows_of(0, self.spill.rows, self.column_order)
                meas = status_spill.whole_frame(measurements, every, rows=mine)
                spilled = None
            line_counts = {k: int(counts.get((seg, k), 0)) for k in LINE_KINDS}
            outputs.append(
                ParsedOutput(
                    source=self.source if n_segments == 1 else f"{self.source}#{seg + 1}",
                    report=pick(report).drop(columns=["value_text"], errors="ignore"),
                    status_entries=ents,
                    status_measurements=meas,
                    status_files=spilled,
                    timeseries=pick(timeseries),
                    raw_datapoints=raw.reset_index(drop=True)
                    if raw.empty or n_segments == 1
                    else raw[raw_segment == seg].reset_index(drop=True),
                    line_counts=line_counts,
                    raw_summary=self.raw_counts.intervals(
                        None if n_segments == 1 else seg, last=seg == n_segments - 1
                    ),
                    raw_total=int(counts.get((seg, "raw_datapoint"), 0)),
                    raw_negative=self.raw_counts.negative_in(
                        None if n_segments == 1 else seg, last=seg == n_segments - 1
                    ),
                )
            )
        return outputs


def kinds_of(piece: Piece) -> pd.Series:
    """The kind of each of ``piece.lines`` (``line_formats.classify_lines``; the status lines
    ``fast_status`` read are not among them)."""
    return classify_lines(pd.Series(piece.lines, dtype=object))


def _last_head(piece: Piece, kinds: pd.Series) -> int | None:
    """The line number of the piece's last status head, if any."""
    heads = piece.line_pos[kinds.to_numpy() == "status"]
    read = piece.status.pos[piece.status.head]
    last = max(heads[-1] if len(heads) else -1, read[-1] if len(read) else -1)
    return None if last < 0 else int(last)


def _parse_blocks(
    blocks: Iterator[str | bytes], source: str, raw_rows: bool = False,
    close_intervals: bool = True, spill: status_spill.Writer | None = None,
) -> list[ParsedOutput]:
    """Parse text given as consecutive blocks of whole lines.

    A block's lines from its last status head on wait for the next block, so an entry's
    continuation lines always meet their head (a block whose only head is its first line
    waits whole: text without another status head grows the block).
    """
    parse = _FileParse(source, raw_rows, close_intervals, spill)
    pending = Piece.of_lines([])
    block = next(blocks, None)
    while block is not None:
        following = next(blocks, None)
        piece = pending + piece_of(block)
        kinds = kinds_of(piece)
        cut = piece.n
        if following is not None:
            last = _last_head(piece, kinds)
            if last is not None:
                cut = last
        head, pending = piece.split(cut)
        if cut:
            parse.feed(head, kinds.iloc[: len(head.lines)])
        block = following
    parse.feed(pending)
    return parse.outputs()


def parse_text(text: str, source: str = "<text>") -> list[ParsedOutput]:
    """Parse YCSB text (report and/or status lines, any mix) into one ParsedOutput per output."""
    try:
        return _parse_blocks(iter([text]), source)
    except NotExact:
        return _parse_blocks(iter([text]), source, close_intervals=False)


def text_encoding(head: bytes) -> str:
    """The encoding of a file from its first bytes: UTF-16 with a byte-order mark (what
    PowerShell's ``>`` writes), UTF-16 without one (a NUL in every other byte of ASCII
    text), UTF-8 with or without a BOM."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if head.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    even, odd = head[0::2], head[1::2]
    if len(head) >= 8 and odd.count(0) > 0.8 * len(odd) and even.count(0) < 0.2 * len(even):
        return "utf-16-le"
    if len(head) >= 8 and even.count(0) > 0.8 * len(even) and odd.count(0) < 0.2 * len(odd):
        return "utf-16-be"
    return "utf-8"


def text_blocks(
    path: Path, block_bytes: int = BLOCK_BYTES, encoding: str = "utf-8"
) -> Iterator[str | bytes]:
    """The file's text in blocks of whole lines: UTF-8 as bytes (cut after a newline byte,
    which never occurs inside a UTF-8 character; ``fast_raw.piece_of`` decodes what it makes
    text of, undecodable bytes replaced). Other encodings (UTF-16) go through an incremental
    decoder, as text cut after a newline character."""
    if encoding not in ("utf-8", "utf-8-sig"):
        decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        rest = ""
        with path.open("rb") as f:
            while True:
                data = f.read(block_bytes)
                text = rest + decoder.decode(data, final=not data)
                if not data:
                    if text:
                        yield text
                    break
                cut = text.rfind("\n") + 1
                rest = text[cut:]
                if cut:
                    yield text[:cut]
        return
    with path.open("rb") as f:
        if encoding == "utf-8-sig":
            f.read(3)
        while True:
            data = f.read(block_bytes)
            if not data:
                break
            if not data.endswith(b"\n"):
                # the rest of the block's last line (to the file's end if it has no line
                # end): one copy of the block, not two (joined with the rest, then cut)
                data += f.readline()
            yield data   # decoded by piece_of where it needs text


def _withhold_unterminated_line(
    blocks: Iterator[str | bytes], cut: list[str]
) -> Iterator[str | bytes]:
    """Pass the blocks on, except a last line that has no line end: it goes into ``cut``.

    YCSB ends every line it prints with a newline, so a file whose last line lacks one was
    cut (a disk filled, a copy interrupted, a client killed mid-write): ``[OVERALL],
    RunTime(ms), 40`` may be the first digits of 400. Such a line is never read as data.
    """
    for block in blocks:
        nl, cr = ("\n", "\r") if isinstance(block, str) else (b"\n", b"\r")
        if block.endswith((nl, cr)):
            yield block
            continue
        start = max(block.rfind(nl), block.rfind(cr)) + 1
        rest = block[start:]
        if isinstance(rest, bytes):
            rest = rest.decode("utf-8", errors="replace")
        if rest.strip():
            cut.append(rest)
        if start:
            yield block[:start]


def block_of_cut(line: str) -> str | None:
    """The report block (metric) a cut line belongs to; None for other lines."""
    return report_parser.block_of_line(line)


# Files from this size on are worth a word when status lines are read the slow way.
SLOW_ENGINE_NOTICE_BYTES = 32 * 2**20


def _say_if_slow(path: Path) -> None:
    """Say once (a warning) that a big file is parsed without the compiled status scanner."""
    if fast_status.engine() == "compiled" or fast_status.SLOW_ENGINE_SAID:
        return
    try:
        big = path.stat().st_size >= SLOW_ENGINE_NOTICE_BYTES
    except OSError:
        return
    if big:
        fast_status.SLOW_ENGINE_SAID = True
        warnings.warn(
            "ycsb-analysis: status lines are read by the numpy reader, ~5x slower than the "
            "compiled scanner, which was not built (no C compiler or Python headers when the "
            "package was installed); install gcc and python3-dev, then `pip install -e "
            "analysis` again",
            RuntimeWarning,
            stacklevel=3,
        )


def _parse_text_file(
    path: Path, block_bytes: int, encoding: str, raw_rows: bool, cut: list[str]
) -> list[ParsedOutput]:
    """``_parse_blocks`` of a text file, read again when the first way cannot be exact: raw
    datapoints out of time order (counts kept open), or measurement columns that do not
    join as plain numbers in files (every column in memory then)."""
    spill_beside = status_spill.directory_for(path)
    close_intervals = True
    while True:
        spill = status_spill.Writer(spill_beside) if spill_beside is not None else None
        cut.clear()
        try:
            return _parse_blocks(
                _withhold_unterminated_line(text_blocks(path, block_bytes, encoding), cut),
                source=str(path),
                raw_rows=raw_rows,
                close_intervals=close_intervals,
                spill=spill,
            )
        except NotExact:   # raw datapoints out of time order: read again, keeping counts
            if not close_intervals:
                raise
            close_intervals = False
        except status_spill.NotSpillable:
            spill_beside = None
        if spill is not None:
            spill.discard()


def parse_file(
    path: Path | str, block_bytes: int = BLOCK_BYTES, raw_rows: bool = False
) -> list[ParsedOutput]:
    """Parse one YCSB output file: text (stdout/stderr, any number of outputs) or a JSON
    exporter file. Raises :class:`UnreadableInput` when it holds no YCSB output at all.

    Text is read and parsed in blocks of about ``block_bytes``; the result is the same for
    any block size. Raw datapoints are kept as rows up to MAX_KEPT_RAW_ROWS, all of them with
    ``raw_rows``; their per-second summary always."""
    path = Path(path)
    cut: list[str] = []
    _say_if_slow(path)
    try:
        with path.open("rb") as f:
            head_bytes = f.read(200)
        encoding = text_encoding(head_bytes)
        head = head_bytes.decode(encoding, errors="replace")
        if _JSON_START.match(head):
            text = path.read_bytes().decode(encoding, errors="replace")
        else:
            outputs = _parse_text_file(path, block_bytes, encoding, raw_rows, cut)
    except OSError as e:
        raise UnreadableInput(path, f"cannot be read ({e.strerror or e})") from e
    if _JSON_START.match(head):
        try:
            report = exporters.parse_exporter_text(text)
        except ValueError as e:
            raise UnreadableInput(
                path, f"looks like a YCSB JSON exporter file but is not valid: {e}"
            ) from e
        return [
            ParsedOutput(
                source=str(path),
                report=report,
                status_entries=_empty(status_parser.ENTRY_COLUMNS),
                status_measurements=_empty(["entry", "metric", "count"]),
                timeseries=_empty(["metric", "time_ms", "average_latency_us"]),
                raw_datapoints=_empty(["metric", "timestamp_ms", "latency_us"]),
                line_counts={"report": len(report)},
            )
        ]
    if not any(
        o.has_report
        or not o.status_entries.empty
        or not o.timeseries.empty
        or not o.raw_datapoints.empty
        or o.raw_total
        for o in outputs
    ):
        if not head_bytes and not cut:
            raise UnreadableInput(
                path, "is empty (a client that failed or was killed before printing anything)"
            )
        if cut and block_of_cut(cut[0]) is not None:
            raise UnreadableInput(
                path,
                f"holds only {cut[0].strip()!r} without a line end: the file was cut "
                "before its first complete line, and a number at the cut is not read",
            )
        total = sum(sum(o.line_counts.values()) for o in outputs)
        raise UnreadableInput(
            path,
            f"no YCSB output found ({total} lines read as {encoding}, none is a "
            "final-report '[OVERALL], RunTime(ms), ...' line or a status line)",
        )
    for o in outputs:
        o.encoding = encoding
        o.incomplete_blocks = report_parser.incomplete_blocks(o.report)
    if cut:
        last = outputs[-1]
        last.cut_line = cut[0]
        block = block_of_cut(cut[0])
        if block is not None:
            # The block the cut line belongs to lost that line (and whatever followed it).
            last.incomplete_blocks = [
                b for b in last.incomplete_blocks if not b.startswith(f"[{block}] ")
            ]
            last.incomplete_blocks.append(f"[{block}] cut at {cut[0].strip()!r}")
    return outputs
