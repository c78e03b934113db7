"""The ``ycsb-report`` command: :func:`ycsb_analysis.cli.main`, imported with Python's cycle
collector paused and numpy's huge-page advice off.

Importing pandas, matplotlib and pyarrow makes ~100 k objects that live as long as the
process, and the collector ran ~270 times while they were being made, with nothing to
collect: ~0.15 CPU-s of a report that takes ~7 (a 314 MB status log; 8 interleaved imports
each way, 0.99–1.38 against 1.13–1.84 CPU-s).

numpy asks Linux for transparent huge pages (``madvise``) for every array of 4 MB or more.
Where the kernel honours that advice with ``defrag`` set to ``madvise`` (as on the machine
measured), a page fault in such an array then compacts memory to find 2 MB of it, and a long
run's report makes and frees arrays of tens of MB all the time: on a 1,047 MB status log that
was ~2.5 of the report's 13.5 CPU-s, all of it system time (user time the same either way;
314 MB log: ~0.5 of 5.2).
``NUMPY_MADVISE_HUGEPAGE=0``, numpy's own switch, read once when numpy is imported, turns the
advice off; a value the user set is kept. ``python -m ycsb_analysis.cli`` and a notebook's
``import`` still import the ordinary way; the report is the same.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable

HUGE_PAGES = "NUMPY_MADVISE_HUGEPAGE"


def _import_cli() -> Callable[[list[str] | None], int]:
    """``ycsb_analysis.cli.main``, imported with the collector paused (then as it was) and,
    unless the user chose otherwise, numpy's huge-page advice off (the environment as it
    was afterwards)."""
    was_on = gc.isenabled()
    chosen = HUGE_PAGES in os.environ
    gc.disable()
    if not chosen:
        os.environ[HUGE_PAGES] = "0"
    try:
        from .cli import main
    finally:
        if not chosen:
            del os.environ[HUGE_PAGES]
        if was_on:
            gc.enable()
    return main


def main(argv: list[str] | None = None) -> int:
    return _import_cli()(argv)
