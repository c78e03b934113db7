"""Long frames as one Parquet file, written part by part without joining them first.

A long run's status log holds millions of per-interval figures (3.45 M rows from a 314 MB
log): as CSV that is ~420 MB of text — seconds to assemble and compress, and the report's
largest copy in memory. As Parquet each part (one client of one run) is handed to pyarrow
column by column without a copy (numbers and times as they are, NaN stays NaN, ``-0.0``
stays ``-0.0``), text columns as dictionary codes (a metric's name stored once per column
chunk), the ``run``/``client`` labels added as constant dictionary columns, and compressed
with zstd: ~1 s and a few MB instead of ~6 s and ~40 MB. ``pandas.read_parquet`` gives the
same values back, text columns as Categoricals (``tests/test_big_outputs.py`` compares them
value by value with the parsed frames).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from pandas.api.types import infer_dtype

# zstd's level 1: the benchmark's status log compresses ~50x at ~0.6 s for 3.45 M rows;
# level 3 was a fifth smaller in the same time there, but a real log repeats itself far less,
# and there each level costs more time per byte.
COMPRESSION = "zstd"
COMPRESSION_LEVEL = 1


def _code_type(n_values: int) -> np.dtype:
    """The narrowest signed integer that numbers ``n_values`` (what pandas' Categorical codes
    are): the codes are then handed over as they are, not widened (a 1 GB status log: 4
    text columns of 11.5 M rows, 138 MB more as int32)."""
    for t in (np.int8, np.int16, np.int32):
        if n_values <= np.iinfo(t).max:
            return np.dtype(t)
    return np.dtype(np.int64)


def _dictionary(codes: np.ndarray, values: list) -> pa.DictionaryArray:
    """A dictionary column: ``codes`` (−1 = missing) into ``values`` (text). Parts whose
    code widths differ are widened to one by ``write_parquet``'s schema."""
    codes = np.asarray(codes, dtype=_code_type(len(values)))
    missing = codes < 0
    indices = pa.array(codes, mask=missing if missing.any() else None)
    return pa.DictionaryArray.from_arrays(indices, pa.array(values, type=pa.string()))


def _column(col: pd.Series) -> pa.Array:
    if isinstance(col.dtype, pd.CategoricalDtype):
        return _dictionary(col.cat.codes.to_numpy(), [str(v) for v in col.cat.categories])
    if isinstance(col.dtype, np.dtype) and col.dtype.kind in "fiubMm":
        return pa.array(col.to_numpy())   # no copy for numbers and times; NaN stays a NaN
    if pd.api.types.is_string_dtype(col.dtype) and (
        col.dtype != object or infer_dtype(col, skipna=True) in ("string", "empty")
    ):   # text: coded, each distinct text stored once
        codes, uniques = pd.factorize(col, use_na_sentinel=True)
        return _dictionary(codes, [str(v) for v in uniques])
    return pa.array(col, from_pandas=True)   # anything else as pyarrow converts it


def holds_missing(col: pd.Series) -> bool:
    """Whether ``col`` has a value written as missing (null) to Parquet."""
    return _column(col).null_count > 0


def part_table(frame: pd.DataFrame, labels: dict[str, object]) -> pa.Table:
    """``frame`` with ``labels`` as leading constant columns (each one dictionary value)."""
    n = len(frame)
    columns = {
        name: pa.DictionaryArray.from_arrays(
            pa.array(np.zeros(n, dtype=np.int8)), pa.array([value])
        )
        for name, value in labels.items()
    }
    columns.update({str(c): _column(frame[c]) for c in frame.columns})
    return pa.table(columns)


# Rows per row group, and per slice of a part given in slices (:class:`InSlices`), so the
# file is the same either way. A quarter of pyarrow's default: a slice of a 1 GB status log's
# rows made and converted at a time then costs ~50 MiB of the report's peak, not ~250 (the
# 314 MB log's file is 0.8% bigger for it, written in the same time).
ROW_GROUP_ROWS = 2**18


@dataclass(frozen=True)
class InSlices:
    """A part too big to hold whole (a long status log whose columns are partly in files,
    see ``status_spill``): ``rows`` rows, given by ``slice_of(lo, hi)`` ROW_GROUP_ROWS at a
    time; ``with_missing``: the columns that hold a missing value somewhere."""

    rows: int
    slice_of: Callable[[int, int], pd.DataFrame]
    with_missing: frozenset[str]

    def tables(self, labels: dict[str, object]) -> Iterator[pa.Table]:
        for lo in range(0, self.rows, ROW_GROUP_ROWS):
            yield part_table(self.slice_of(lo, min(lo + ROW_GROUP_ROWS, self.rows)), labels)


def write_parquet(
    parts: list[tuple[dict[str, object], pd.DataFrame | InSlices]], path: Path
) -> int:
    """Write every ``(labels, frame)`` part into one Parquet file at ``path`` (one or more row
    groups per part, in order); return the rows written. Parts whose column types differ (a
    column of integers in one, of floats in another) are cast to one schema. A part may come
    :class:`InSlices`."""
    parts = [(labels, frame) for labels, frame in parts if (frame.rows if isinstance(
        frame, InSlices) else len(frame))]
    if not parts:
        return 0
    # per part: its table (None for one in slices), its schema (of the first slice) and
    # which of its columns hold a missing value
    tables, schemas, missing = [], [], []
    for labels, frame in parts:
        if isinstance(frame, InSlices):
            table = None
            schemas.append(
                part_table(frame.slice_of(0, min(ROW_GROUP_ROWS, frame.rows)), labels).schema
            )
            missing.append(set(frame.with_missing))
        else:
            table = part_table(frame, labels)
            schemas.append(table.schema)
            missing.append({f.name for f in table.schema if table.column(f.name).null_count})
        tables.append(table)
    schema = pa.unify_schemas(schemas, promote_options="permissive")
    # A column no part leaves empty anywhere is written as required: no definition levels
    # to encode (a 314 MB status log's file in 0.38 instead of 0.63 CPU-s; read back alike)
    schema = pa.schema([
        f.with_nullable(any(f.name not in s.names or f.name in m
                            for s, m in zip(schemas, missing)))
        for f in schema
    ])
    text = [f.name for f in schema if pa.types.is_dictionary(f.type)]
    with pq.ParquetWriter(
        path, schema, compression=COMPRESSION, compression_level=COMPRESSION_LEVEL,
        use_dictionary=text,   # numbers are not worth a dictionary's hashing
        # no min/max statistics per column chunk: they only let a query skip row groups, and
        # were a fifth of the writing time
        write_statistics=False,
    ) as writer:
        rows = 0
        for (labels, frame), whole in zip(parts, tables):
            for table in [whole] if whole is not None else frame.tables(labels):
                absent = [f for f in schema if f.name not in table.column_names]
                for f in absent:
                    table = table.append_column(f, pa.nulls(len(table), f.type))
                writer.write_table(table.select(schema.names).cast(schema), ROW_GROUP_ROWS)
                rows += len(table)
    return rows
