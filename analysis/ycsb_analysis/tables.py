"""The report's data files, written by polars: CSV, gzipped CSV and Parquet.

The tables are polars frames (the summary and the comparisons, still built in pandas, are
handed over). Two spellings keep the files as they were when pandas wrote them, so a script
that reads them is not surprised: ``True``/``False`` for flags, and an empty field for empty
text as for a missing value.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pandas as pd
import polars as pl

DATETIME_FORMAT = "%Y-%m-%d %H:%M:%S%.3f"


def polars_frame(df: pd.DataFrame | pl.DataFrame) -> pl.DataFrame:
    """``df`` as a polars frame (a pandas column of mixed objects as text)."""
    if isinstance(df, pl.DataFrame):
        return df
    mixed = [c for c in df.columns if df[c].dtype == object
             and len({type(v) for v in df[c].dropna()}) > 1]
    return pl.from_pandas(df.astype({c: str for c in mixed}) if mixed else df)


def labelled(df: pd.DataFrame | pl.DataFrame, **values) -> pl.DataFrame:
    """``df`` as polars with a column of each of ``values`` (a run's label, a client's
    number) in front."""
    frame = polars_frame(df)
    return frame.select(
        *[pl.repeat(v, frame.height, dtype=pl.Int64 if isinstance(v, int) else pl.String)
          .alias(k) for k, v in values.items()], pl.exclude(*values))


def as_polars(df: pd.DataFrame | pl.DataFrame) -> pl.DataFrame:
    """``df`` as a polars frame in the files' spelling (see the module's docstring)."""
    frame = polars_frame(df)
    return frame.with_columns(
        [pl.when(pl.col(c)).then(pl.lit("True")).when(pl.col(c).is_not_null())
         .then(pl.lit("False")).alias(c)
         for c, t in frame.schema.items() if t == pl.Boolean]
        + [pl.col(c).cast(pl.String).replace("", None).alias(c)
           for c, t in frame.schema.items() if t in (pl.String, pl.Categorical, pl.Enum)
           or isinstance(t, pl.Enum | pl.Categorical)]
    )


def write_csv(df: pd.DataFrame | pl.DataFrame, path: Path, compressed: bool = False) -> None:
    """``df`` as CSV (gzipped at its fastest level when ``compressed``: ~10× smaller)."""
    frame = as_polars(df)
    if not compressed:
        frame.write_csv(path, datetime_format=DATETIME_FORMAT)
        return
    with gzip.open(path, "wb", compresslevel=1) as f:
        frame.write_csv(f, datetime_format=DATETIME_FORMAT)


def write_parquet(frames: list[pl.DataFrame], path: Path) -> None:
    """The frames, one after the other (a column one lacks is missing there), as Parquet
    (zstd): a long run's status figures at ~1/50 of their log."""
    joined = pl.concat(frames, how="diagonal_relaxed")
    joined.write_parquet(path, compression="zstd", compression_level=1)


def write_json(df: pd.DataFrame | pl.DataFrame, path: Path) -> None:
    """``df`` as a JSON array of one object per row (the CSV file's figures, for a script)."""
    polars_frame(df).to_pandas().to_json(path, orient="records", indent=1, date_format="iso")
