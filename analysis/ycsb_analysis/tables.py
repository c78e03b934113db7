"""The report's tables as polars frames, and its data files: CSV, gzipped CSV, JSON, Parquet.

The per-run tables (readers, merge) are polars frames from the start. The report's small
tables (a row per run, per phase and figure compared, per difference found) are built a row at
a time as dicts and made frames by :func:`frame`. Two spellings keep the files as they were
first written, so a script that reads them is not surprised: ``True``/``False`` for flags, and
an empty field for empty text as for a missing value.
"""

from __future__ import annotations

import gzip
import json
from datetime import date, datetime
from pathlib import Path

import polars as pl

DATETIME_FORMAT = "%Y-%m-%d %H:%M:%S%.3f"


def _column(name: str, values: list) -> pl.Series:
    """One column: its values' own type (NaN stays NaN: a figure not measured; it is written as
    an empty field), else numbers as floats, else text (a column of mixed kinds)."""
    try:
        return pl.Series(name, values, strict=True)
    except (TypeError, ValueError, OverflowError, pl.exceptions.PolarsError):
        pass
    kinds = {type(v) for v in values if v is not None}
    if kinds and all(issubclass(k, int | float) and not issubclass(k, bool) for k in kinds):
        return pl.Series(name, [None if v is None else float(v) for v in values], pl.Float64)
    # (text with a NaN among it: a figure's NaN carried into a text column)
    return pl.Series(name, [None if v is None or v != v else str(v) for v in values], pl.String)


def frame(rows: list[dict], columns: list[str] | None = None) -> pl.DataFrame:
    """``rows`` (a dict each) as a frame: ``columns``, else every key in the order first seen;
    a key a row lacks is null there."""
    names = columns if columns is not None else list(dict.fromkeys(k for r in rows for k in r))
    return pl.DataFrame([_column(c, [r.get(c) for r in rows]) for c in names])


def by_key(rows: list[dict], keys: list[str]) -> dict[tuple, list[dict]]:
    """The rows grouped on ``keys``, groups and rows in the order first seen."""
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault(tuple(r.get(k) for k in keys), []).append(r)
    return groups


def labelled(df: pl.DataFrame, **values) -> pl.DataFrame:
    """``df`` with a column of each of ``values`` (a run's label, a client's number) in front."""
    return df.select(
        *[pl.repeat(v, df.height, dtype=pl.Int64 if isinstance(v, int) else pl.String)
          .alias(k) for k, v in values.items()], pl.exclude(*values))


def as_written(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` in the files' spelling (see the module's docstring)."""
    return frame.with_columns(
        [pl.when(pl.col(c)).then(pl.lit("True")).when(pl.col(c).is_not_null())
         .then(pl.lit("False")).alias(c)
         for c, t in frame.schema.items() if t == pl.Boolean]
        + [pl.col(c).cast(pl.String).replace("", None).alias(c)
           for c, t in frame.schema.items() if t in (pl.String, pl.Categorical, pl.Enum)
           or isinstance(t, pl.Enum | pl.Categorical)]
        + [pl.col(c).fill_nan(None) for c, t in frame.schema.items() if t.is_float()]
    )


def write_csv(df: pl.DataFrame, path: Path, compressed: bool = False) -> None:
    """``df`` as CSV (gzipped at its fastest level when ``compressed``: ~10× smaller)."""
    with gzip.open(path, "wb", compresslevel=1) if compressed else open(path, "wb") as f:
        as_written(df).write_csv(f, datetime_format=DATETIME_FORMAT)


def write_parquet(frames: list[pl.DataFrame], path: Path) -> None:
    """The frames, one after the other (a column one lacks is missing there), as Parquet
    (zstd): a long run's status figures at ~1/50 of their log."""
    pl.concat(frames, how="diagonal_relaxed").write_parquet(path, compression="zstd",
                                                            compression_level=1)


def _json_value(v):
    if isinstance(v, datetime | date):
        return v.isoformat()
    raise TypeError(f"{type(v).__name__} in a data file")


def write_json(df: pl.DataFrame, path: Path) -> None:
    """``df`` as a JSON array of one object per row (a missing figure null)."""
    rows = df.with_columns(pl.col(c).fill_nan(None)
                           for c, t in df.schema.items() if t.is_float()).to_dicts()
    path.write_text(json.dumps(rows, indent=1, default=_json_value))
