"""A frame as CSV text, the same text as ``DataFrame.to_csv(index=False)``, in a fraction of the
time for the long frames of a long run (a status log's per-interval figures: millions of rows).

pandas formats and writes every field of every row one at a time. Here each column is
factorized, each *distinct* value is formatted once — by ``to_csv`` itself (so number, bool and
quoting rules stay pandas' own), or, for non-negative integers and datetimes, by numpy digit
arithmetic in pandas' format (the date alone when every value is a midnight, else the finest
fraction of a second any value has) — and the rows are assembled in blocks with numpy: each
column's texts as a padded byte matrix, a block's fields gathered by their codes side by side,
the padding masked out. A column whose values cannot safely be factorized (an object column
of mixed types, where ``1 == 1.0 == True`` would share one text; a float column holding
``-0.0``, which factorizes with ``0.0``) and values with a line break are formatted row by row
by pandas, as before. ``tests/test_csv_text.py`` compares the text with pandas' own.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np
import pandas as pd
from pandas.api.types import infer_dtype

from .text_codes import holds_objects, identity_codes

# Bytes of the padded field matrix per block (rows × the widest row): bounds the memory.
BLOCK_BYTES = 32 << 20


def _texts(values: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each value as ``to_csv`` writes it inside a row, as UTF-8 bytes: ``flat, starts,
    lengths`` (a second column keeps a lone empty field from being quoted as a row of its
    own)."""
    text = pd.DataFrame({"v": values.reset_index(drop=True), "z": 0}).to_csv(
        index=False, header=False, lineterminator="\n"
    ).encode("utf-8")
    flat = np.frombuffer(text, dtype=np.uint8)
    ends = np.flatnonzero(flat == ord("\n"))
    if len(ends) != len(values):   # a value with a line break: no line per value
        raise ValueError("line break in a value")
    starts = np.concatenate([[0], ends[:-1] + 1])[: len(ends)].astype(np.intp)
    return flat, starts, ends - starts - 2   # without ",0"


def _factorizable(col: pd.Series) -> bool:
    if col.dtype == object:
        return infer_dtype(col, skipna=True) in ("string", "empty")
    if col.dtype.kind == "f":
        values = col.to_numpy()
        return not bool(np.any((values == 0) & np.signbit(values)))   # -0.0 would become 0.0
    return True


def _digits(v: np.ndarray, width: int) -> np.ndarray:
    """Non-negative integers as ``width`` decimal digits each, zero-padded on the left."""
    out = np.empty((len(v), width), dtype=np.uint8)
    rest = v.astype(np.int64, copy=True)
    for j in range(width - 1, -1, -1):
        rest, d = np.divmod(rest, 10)
        out[:, j] = d + ord("0")
    return out


def _numpy_texts(values: pd.Series) -> tuple[np.ndarray, np.ndarray] | None:
    """``matrix, kept``: the CSV texts of a non-negative integer or time-zone free datetime
    column, as pandas writes them, formatted by numpy into a byte matrix and which of its
    bytes are text (integers are right-aligned); None for any other column."""
    v = values.to_numpy()
    if not len(v) or not isinstance(values.dtype, np.dtype):
        return None
    if values.dtype.kind in "iu":
        if v.min() < 0 or v.max() >= 10**18:
            return None
        width = len(str(v.max()))
        lengths = np.ones(len(v), dtype=np.intp)
        for k in range(1, width):
            lengths += v >= 10**k
        return _digits(v, width), np.arange(width) >= width - lengths[:, None]
    if values.dtype.kind != "M":
        return None
    unit = np.datetime_data(v.dtype)[0]
    per_s = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}.get(unit)
    if per_s is None:
        return None
    ticks = v.view(np.int64)
    days, in_day = np.divmod(ticks, 86_400 * per_s)
    first, last = np.datetime_as_string(np.array([days.min(), days.max()], dtype="M8[D]"))
    if not (first[:4].isdigit() and last[:4].isdigit() and len(first) == len(last) == 10):
        return None   # 4-digit years only
    distinct_days, day_of = np.unique(days, return_inverse=True)
    dates = np.frombuffer(
        "".join(np.datetime_as_string(distinct_days.astype("M8[D]"))).encode(), dtype=np.uint8
    ).reshape(-1, 10)[day_of.reshape(-1)]
    # pandas' choice for the whole column: the date alone when every value is a midnight,
    # else the time with the finest fraction of a second any value has
    if not in_day.any():
        return dates, np.ones(dates.shape, dtype=bool)
    decimals = next(
        (n for n in (0, 3, 6) if n <= {1: 0, 10**3: 3, 10**6: 6}.get(per_s, 9)
         and not (in_day % (per_s // 10**n)).any()),
        {1: 0, 10**3: 3, 10**6: 6, 10**9: 9}[per_s],
    )
    seconds, fraction = np.divmod(in_day, per_s)
    hours, rest = np.divmod(seconds, 3600)
    minutes, secs = np.divmod(rest, 60)
    parts = [dates, np.full((len(v), 1), ord(" "), dtype=np.uint8),
             _digits(hours, 2), np.full((len(v), 1), ord(":"), dtype=np.uint8),
             _digits(minutes, 2), np.full((len(v), 1), ord(":"), dtype=np.uint8),
             _digits(secs, 2)]
    if decimals:
        parts += [np.full((len(v), 1), ord("."), dtype=np.uint8),
                  _digits(fraction // (per_s // 10**decimals), decimals)]
    text = np.hstack(parts)
    return text, np.ones(text.shape, dtype=bool)


def _column(col: pd.Series, alone: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``codes, matrix, kept``: each row's index into the rows of ``matrix``, the CSV texts of
    the column's values (padded bytes), and which bytes of each are text. ``alone``: the frame's
    only column, whose empty fields pandas writes as ``""``."""
    by_identity = identity_codes(col) if holds_objects(col) else None
    if by_identity is not None:   # a handful of shared text objects (their missing ones too)
        codes, first = by_identity
        values, na = col.iloc[first], False
    elif _factorizable(col):
        codes, distinct = pd.factorize(col, use_na_sentinel=True)
        values = pd.Series(distinct, dtype=col.dtype)
        na = bool((codes < 0).any())
        if na:   # NaN, NaT, None: written as the empty string (na_rep)
            codes = np.where(codes < 0, len(values), codes)
    else:
        values, codes, na = col, np.arange(len(col)), False
    # (a lone column's missing values are written as "": the general path below does that)
    fixed = None if alone and na else _numpy_texts(values)
    if fixed is not None:
        m, kept = fixed
        if na:
            m = np.vstack([m, np.zeros((1, m.shape[1]), dtype=np.uint8)])
            kept = np.vstack([kept, np.zeros((1, m.shape[1]), dtype=bool)])
        return codes.astype(np.intp, copy=False), m, kept
    flat, starts, lengths = _texts(values)
    if na:
        starts, lengths = np.append(starts, 0), np.append(lengths, 0)
    if alone and (lengths == 0).any():
        empty = np.flatnonzero(lengths == 0)
        flat = np.concatenate([flat, np.frombuffer(b'""', dtype=np.uint8)])
        starts[empty], lengths[empty] = len(flat) - 2, 2
    width = int(lengths.max()) if len(lengths) else 0
    m = np.zeros((len(lengths), width), dtype=np.uint8)
    inside = np.arange(width) < lengths[:, None]
    m[inside] = flat[(starts[:, None] + np.arange(width))[inside]]
    return codes.astype(np.intp, copy=False), m, inside


def csv_blocks(df: pd.DataFrame, lineterminator: str = os.linesep):
    """Yield the bytes of ``df.to_csv(index=False, lineterminator=...)`` (UTF-8), in blocks."""
    yield pd.DataFrame(columns=df.columns).to_csv(
        index=False, lineterminator=lineterminator
    ).encode("utf-8")
    if not len(df) or not len(df.columns):
        if len(df):   # rows without columns: pandas writes one empty line... per row
            yield df.to_csv(index=False, header=False, lineterminator=lineterminator).encode()
        return
    columns = [_column(col, len(df.columns) == 1) for _, col in df.items()]
    seps = [b","] * (len(columns) - 1) + [lineterminator.encode()]
    # One record per row: each column's padded text and its separator as fixed-size byte
    # fields, so that a block's fields are gathered by their codes as whole items.
    fields, texts = [], []
    for j, ((codes, m, kept), sep) in enumerate(zip(columns, seps)):
        w = m.shape[1]
        if w:
            fields.append((f"t{j}", f"V{w}"))
            texts.append((f"t{j}", codes, np.ascontiguousarray(m).view(f"V{w}")[:, 0],
                          None if kept.all() else
                          np.ascontiguousarray(kept).view(f"V{w}")[:, 0]))
        fields.append((f"s{j}", f"V{len(sep)}"))
    record = np.dtype(fields)
    step = max(1, min(len(df), BLOCK_BYTES // record.itemsize))
    out = np.empty(step, dtype=record)
    keep = np.empty(step, dtype=record)
    keep.view(np.uint8)[:] = 1   # every byte kept (separators included) but the padding
    for j, sep in enumerate(seps):
        out[f"s{j}"] = np.frombuffer(sep, dtype=f"V{len(sep)}")[0]
    for lo in range(0, len(df), step):
        n = min(step, len(df) - lo)
        for name, codes, m, mask in texts:
            c = codes[lo:lo + n]
            out[name][:n] = m[c]
            if mask is not None:
                keep[name][:n] = mask[c]
        yield np.compress(
            keep[:n].view(np.bool_).reshape(-1), out[:n].view(np.uint8).reshape(-1)
        ).tobytes()


def write_csv(df: pd.DataFrame, path: Path, gzip_level: int | None = None) -> None:
    """``df.to_csv(path, index=False)``, gzipped at ``gzip_level`` when given (as pandas
    writes a ``.gz``: the file name in the header, time 0). Falls back to pandas when a
    value holds a line break."""
    try:
        blocks = csv_blocks(df)
        first = next(blocks)
        if gzip_level is None:
            with open(path, "wb") as f:
                f.write(first)
                for b in blocks:
                    f.write(b)
        else:
            with gzip.GzipFile(filename=str(path), mode="wb", compresslevel=gzip_level,
                               mtime=0) as f:
                f.write(first)
                for b in blocks:
                    f.write(b)
    except ValueError:
        df.to_csv(
            path, index=False,
            compression=None if gzip_level is None else {
                "method": "gzip", "compresslevel": gzip_level, "mtime": 0},
        )
