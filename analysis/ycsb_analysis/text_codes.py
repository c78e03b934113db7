"""Codes of a text column by the identity of its objects: what a factorize costs when the
column holds a handful of distinct texts in millions of rows.

A status log's text columns (metric, operation, structure, format, the run's label) hold a few
distinct texts, each shared as one Python object by the parser and by ``assign``. Hashing each
string (``pd.factorize``) costs ~65 ns a row; the objects' addresses are integers that factorize
several times faster. Equal texts held by different objects get different codes here, so the
callers read each code's object once: the CSV writer formats it (equal texts, equal output),
the grouping factorizes the few objects by value (:func:`value_codes`).
"""

from __future__ import annotations

import ctypes

import numpy as np
import pandas as pd


def holds_objects(col: pd.Series) -> bool:
    """Whether ``col`` keeps its texts as Python objects (object or python-storage strings,
    not pyarrow's: those are made anew on every read, and factorize fast by value anyway)."""
    return col.dtype == object or (
        isinstance(col.dtype, pd.StringDtype) and col.dtype.storage == "python"
    )


def identity_codes(values) -> tuple[np.ndarray, np.ndarray] | None:
    """``codes, first``: each element's code by the identity of its object, codes numbered in
    order of first appearance, and the position of each code's first element; None when
    ``values`` is not an object column (or not worth it: mostly distinct objects)."""
    arr = values.to_numpy(dtype=object) if isinstance(values, pd.Series) else values
    if not isinstance(arr, np.ndarray) or arr.dtype != object or arr.ndim != 1 or not len(arr):
        return None
    arr = np.ascontiguousarray(arr)
    # the array's object pointers, read in place (the array stays alive meanwhile)
    addresses = np.ctypeslib.as_array(
        (ctypes.c_size_t * len(arr)).from_address(arr.ctypes.data)
    ).copy()
    codes, distinct = pd.factorize(addresses)
    if len(distinct) > max(1000, len(arr) // 100):
        return None
    first = np.flatnonzero(np.diff(np.maximum.accumulate(codes), prepend=-1))
    return codes.astype(np.intp, copy=False), first


def value_codes(values: np.ndarray, by_identity: bool) -> tuple[np.ndarray, np.ndarray]:
    """``codes, uniques`` of ``values`` by value, as ``pd.factorize`` gives them (missing
    values -1), found by the objects' identity first when ``by_identity`` (see
    :func:`holds_objects`)."""
    arr = values
    by_identity = identity_codes(arr) if by_identity else None
    if by_identity is None:
        codes, uniques = pd.factorize(arr, use_na_sentinel=True)
        return codes, np.asarray(uniques)
    codes, first = by_identity
    of_object, uniques = pd.factorize(arr[first], use_na_sentinel=True)
    return of_object[codes], np.asarray(uniques, dtype=object)
