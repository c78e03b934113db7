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
