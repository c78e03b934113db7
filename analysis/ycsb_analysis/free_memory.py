"""Give the C allocator's free pages back to the system while a big frame is being joined.

``multi_output`` keeps a big status log's measurement rows as one small array per block and
column, then joins each column and lets the blocks' arrays go. glibc keeps memory freed in the
middle of its heap (those arrays sit between other blocks' leftovers), so without this the
process holds the freed blocks and the joined frame at once: on a 100 MB status log joining
took the resident size from 313 to 407 MiB; with this the join stays below the peak reached
while reading (364 MiB). ``malloc_trim(0)`` hands the free pages back (``madvise``); elsewhere
than glibc it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools


@functools.cache
def _malloc_trim():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):   # not glibc (musl, macOS, Windows)
        return None


def release() -> None:
    """Return the allocator's free pages to the system (a few ms; call it seldom)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
