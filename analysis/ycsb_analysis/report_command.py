"""The ``ycsb-report`` command: :func:`ycsb_analysis.cli.main`, its imports made with Python's
cycle collector paused.

Importing pandas, matplotlib and pyarrow makes ~100 k objects that live as long as the
process, and the collector ran ~270 times while they were being made, with nothing to
collect: ~0.15 CPU-s of a report that takes ~7 (a 314 MB status log; 8 interleaved imports
each way, 0.99–1.38 against 1.13–1.84 CPU-s). ``python -m ycsb_analysis.cli`` and a notebook's
``import`` still import the ordinary way; the report is the same.
"""

from __future__ import annotations

import gc
from collections.abc import Callable


def _import_cli() -> Callable[[list[str] | None], int]:
    """``ycsb_analysis.cli.main``, imported with the collector paused (then as it was)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        from .cli import main
    finally:
        if was_on:
            gc.enable()
    return main


def main(argv: list[str] | None = None) -> int:
    return _import_cli()(argv)
