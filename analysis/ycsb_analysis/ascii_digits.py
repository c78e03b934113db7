"""ASCII digits read eight at a time: a big-endian 64-bit word of digit bytes → its value.

Shared by the raw-datapoint and status-line fast paths (``fast_raw``, ``fast_status``), which
read millions of numbers per block without making a Python string of any of them.
"""

from __future__ import annotations

import numpy as np

ONES = np.uint64(0x0101010101010101)


def eight_digits(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Words of 8 byte values (first digit in the highest byte) → their decimal value, and
    whether every byte was 0-9. Pairs, then quads, then the octet are combined in place."""
    ok = ((t & (ONES * np.uint64(0xF0))) == 0) & (
        ((t + ONES * np.uint64(6)) & (ONES * np.uint64(0x10))) == 0
    )
    t = ((t >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) * np.uint64(10) + (
        t & np.uint64(0x00FF00FF00FF00FF)
    )
    t = ((t >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) * np.uint64(100) + (
        t & np.uint64(0x0000FFFF0000FFFF)
    )
    t = (t >> np.uint64(32)) * np.uint64(10000) + (t & np.uint64(0xFFFFFFFF))
    return t, ok


_ZEROS = np.uint64(0x3030303030303030)


def _le_word_values(words8: np.ndarray, end: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The value of the ``length`` (0..8) ASCII digits before each ``end``: the 8 bytes are
    loaded as one little-endian word (last digit in the highest byte), the bytes before the
    number shifted out, and the digits combined pairwise (simdjson's eight-digit method)."""
    t = words8[end] ^ _ZEROS
    shift = np.uint64(8) * (np.uint64(8) - length.astype(np.uint64))
    with np.errstate(over="ignore"):
        t = np.where(length > 0, (t >> shift) << shift, np.uint64(0))
        t = t * np.uint64(10) + (t >> np.uint64(8))
        t = (
            (t & np.uint64(0x000000FF000000FF)) * np.uint64(100 + (1000000 << 32))
            + ((t >> np.uint64(16)) & np.uint64(0x000000FF000000FF)) * np.uint64(1 + (10000 << 32))
        ) >> np.uint64(32)
    return t


def digits_before(words8: np.ndarray, end: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The value (uint64) of the ``length`` (0..19) ASCII digits before each ``end``.

    ``words8[k]`` must be the little-endian word of the 8 bytes ending just before ``k`` (a
    view of the bytes with a stride of one byte), with at least 16 bytes before ``end``."""
    value = _le_word_values(words8, end, np.minimum(length, 8))
    long = np.flatnonzero(length > 8)
    if len(long):
        mid = _le_word_values(words8, end[long] - 8, np.clip(length[long] - 8, 0, 8))
        hi = _le_word_values(words8, end[long] - 16, np.clip(length[long] - 16, 0, 8))
        with np.errstate(over="ignore"):
            value[long] += mid * np.uint64(10**8) + hi * np.uint64(10**16)
    return value
