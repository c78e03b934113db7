"""A long status log's per-row columns that ``ycsb-report`` reads seldom, kept on disk while
the report is made.

A status log's measurement rows are about as big in memory as the log is on disk (94 bytes a
row: a 1 GB log gives 11.5 M rows, 1 GiB). What the report reads of every row is few columns:
the entry, the metric's names (one-byte codes) and the count — the throughput, the errors, the
steady-state windows. The rest (each row's time and elapsed seconds, min, max, average and
the percentiles: 72 of the 94 bytes) is read by the latency chart (two percentiles and the
time of the rows it draws), by the steady-state latency series (one metric's rows) and by
``status.parquet``. So when ``ycsb-report`` reads a big file (``SPILL_FROM_BYTES``
or more), the parse writes those columns, block by block as it reads, to one file per column
in a directory the report makes beside its output and deletes at the end; the frame in memory
keeps the lean columns (:data:`LEAN`) and the readers take the others from the files
(``ParsedOutput.status_values`` / ``status_frame``), in slices. The values come back exactly
as they were (the columns' bytes as numpy holds them), so every figure, chart and file is the
same as without the files (``tests/test_status_spill.py`` compares whole reports).

``parse_file`` outside ``ycsb-report`` (a notebook) keeps every column in memory, unless it
runs inside :func:`spilling` (the files then go when the ``with`` block ends).
"""

from __future__ import annotations

import contextlib
import contextvars
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

# The columns of a measurement row kept in memory: what the throughput, error and steady-state
# figures read of every row (the average latency is read per metric and per drawn line).
LEAN = frozenset(
    {"entry", "metric", "operation", "failed", "intended", "structure", "format", "count"}
)
# Files from this size on are parsed with their other columns on disk (in ycsb-report). A
# status log of 64 MB keeps ~0.7 M rows, ~65 MiB of columns; below it memory is no concern.
SPILL_FROM_BYTES = 64 * 2**20
# Rows read from a column's file at a time (8 MB of float64).
SLICE_ROWS = 2**20

_DIRECTORY: contextvars.ContextVar[Path | None] = contextvars.ContextVar(
    "status_spill_directory", default=None
)


@contextlib.contextmanager
def spilling(beside: Path) -> Iterator[Path]:
    """While in this block, big files' seldom-read status columns go to a directory made in
    ``beside`` (deleted at the end, also on an error); yields that directory."""
    directory = Path(tempfile.mkdtemp(prefix=".status-columns-", dir=beside))
    token = _DIRECTORY.set(directory)
    try:
        yield directory
    finally:
        _DIRECTORY.reset(token)
        shutil.rmtree(directory, ignore_errors=True)


def directory_for(path: Path) -> Path | None:
    """Where the parse of ``path`` writes its seldom-read status columns: None (in memory)
    unless inside :func:`spilling` and the file is big."""
    directory = _DIRECTORY.get()
    if directory is None:
        return None
    try:
        big = path.stat().st_size >= SPILL_FROM_BYTES
    except OSError:
        return None
    return directory if big else None


class NotSpillable(Exception):
    """A column's blocks do not join as plain numbers of one type (pandas would reconcile
    them): the file is parsed again with every column in memory."""


@dataclass(frozen=True)
class Spilled:
    """The rows ``start:stop`` of the columns a parse wrote to files (``files``: name → path
    and numpy type); ``order``: the whole frame's columns, these and those in memory."""

    files: dict[str, tuple[str, np.dtype]]
    start: int
    stop: int
    with_missing: frozenset[str]   # columns holding a NaT (written as null to Parquet)
    order: tuple[str, ...]

    def __len__(self) -> int:
        return self.stop - self.start

    def read(self, name: str, rows: np.ndarray | slice | None = None) -> np.ndarray:
        """Column ``name`` of every row, or of ``rows`` (positions, or a slice), read slice by
        slice: no more than a slice of the file is in memory besides the result."""
        path, dtype = self.files[name]
        if rows is None or isinstance(rows, slice):
            lo, hi, step = (rows or slice(None)).indices(len(self))
            values = self._span(path, dtype, lo, max(hi, lo))
            return values if step == 1 else values[::step]
        rows = np.asarray(rows, dtype=np.intp)
        out = np.empty(len(rows), dtype=dtype)
        if not len(rows):
            return out
        if (np.diff(rows) < 0).any():   # any order: read in order, put back in place
            order = np.argsort(rows, kind="stable")
            out[order] = self.read(name, rows[order])
            return out
        done = 0
        lo = int(rows[0])
        while done < len(rows):
            hi = min(lo + SLICE_ROWS, len(self))
            k = int(np.searchsorted(rows, hi, side="left"))
            span = self._span(path, dtype, lo, hi)
            out[done:k] = span[rows[done:k] - lo]
            done = k
            if done < len(rows):
                lo = int(rows[done])
        return out

    def slices(self, name: str) -> Iterator[np.ndarray]:
        """Column ``name`` in consecutive slices of SLICE_ROWS rows."""
        path, dtype = self.files[name]
        for lo in range(0, len(self), SLICE_ROWS):
            yield self._span(path, dtype, lo, min(lo + SLICE_ROWS, len(self)))

    def _span(self, path: str, dtype: np.dtype, lo: int, hi: int) -> np.ndarray:
        n = max(hi - lo, 0)
        values = np.fromfile(path, dtype=dtype, count=n, offset=(self.start + lo) * dtype.itemsize)
        if len(values) != n:
            raise OSError(f"{path}: {n} values expected, {len(values)} found (file changed)")
        return values


class Writer:
    """The seldom-read columns of a parse's measurement rows, appended block by block to
    one file per column in a directory of its own."""

    def __init__(self, beside: Path):
        self.directory = Path(tempfile.mkdtemp(prefix="parse-", dir=beside))
        self.rows = 0
        self.files: dict[str, tuple[str, np.dtype]] = {}
        self.with_missing: set[str] = set()

    def split(self, block: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Write a block's seldom-read columns (numbers and times, one numpy type per column
        across blocks) to their files; return the other columns. A float column missing from
        a block (or from the blocks before it) is NaN there, as joining the frames gives."""
        n = len(next(iter(block.values()))) if block else 0
        kept = {}
        for name, values in block.items():
            if name in LEAN or not self._spills(values):
                if name in self.files:
                    raise NotSpillable(name)
                kept[name] = values
                continue
            if name not in self.files:
                if self.rows and values.dtype.kind != "f":
                    raise NotSpillable(name)
                path = str(self.directory / f"{len(self.files)}.bin")
                self.files[name] = (path, values.dtype)
                if self.rows:
                    self._append(name, np.full(self.rows, np.nan, dtype=values.dtype))
            if self.files[name][1] != values.dtype:
                raise NotSpillable(name)
            self._append(name, values)
        for name, (_, dtype) in self.files.items():
            if name not in block and n:
                if dtype.kind != "f":
                    raise NotSpillable(name)
                self._append(name, np.full(n, np.nan, dtype=dtype))
        self.rows += n
        return kept

    @staticmethod
    def _spills(values) -> bool:
        return isinstance(values, np.ndarray) and values.dtype.kind in "fiuM"

    def _append(self, name: str, values: np.ndarray) -> None:
        path, _ = self.files[name]
        if values.dtype.kind == "M" and np.isnat(values).any():
            self.with_missing.add(name)
        with open(path, "ab") as f:
            np.ascontiguousarray(values).tofile(f)

    def keep(self, rows: np.ndarray) -> None:
        """Keep only ``rows`` (a mask over the rows written), rewriting each file from its
        first dropped row on (YCSB's repeated last entry: the files' last rows)."""
        dropped = np.flatnonzero(~rows)
        if not len(dropped):
            return
        first = int(dropped[0])
        for path, dtype in self.files.values():
            size = dtype.itemsize
            with open(path, "r+b") as f:
                write = first
                for lo in range(first, self.rows, SLICE_ROWS):
                    hi = min(lo + SLICE_ROWS, self.rows)
                    values = np.fromfile(path, dtype=dtype, count=hi - lo, offset=lo * size)
                    values = values[rows[lo:hi]]
                    f.seek(write * size)
                    values.tofile(f)
                    write += len(values)
                f.truncate(write * size)
        self.rows = int(np.count_nonzero(rows))

    def rows_of(self, start: int, stop: int, order: list[str]) -> Spilled:
        """The rows ``start:stop`` (after :meth:`keep`) of every column written; ``order``:
        the frame's columns."""
        return Spilled(dict(self.files), start, stop, frozenset(self.with_missing), tuple(order))

    def discard(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def whole_frame(
    lean: pd.DataFrame,
    spilled: Spilled | None,
    rows: np.ndarray | slice | None = None,
    columns: list[str] | None = None,
) -> pd.DataFrame:
    """The measurement rows as the parse gives them without files: the ``lean`` frame's
    columns and ``spilled``'s, in the frame's order (of ``rows``, positions or a slice, and
    ``columns`` when given; index 0..n-1)."""
    order = list(spilled.order) if spilled is not None else list(lean.columns)
    if columns is not None:
        wanted = set(columns)
        order = [c for c in order if c in wanted]
    out = {}
    for c in order:
        if c in lean:
            col = lean[c] if rows is None else lean[c].iloc[rows]
            out[c] = col.reset_index(drop=True)
        elif spilled is not None and c in spilled.files:
            out[c] = pd.Series(spilled.read(c, rows))
    n = len(lean) if rows is None else len(range(len(lean))[rows]) if isinstance(
        rows, slice) else len(rows)
    return pd.DataFrame(out, index=pd.RangeIndex(n), copy=False)
