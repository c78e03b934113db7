"""Parse, merge, chart and report YCSB 0.17 outputs.

Entry points: :func:`ycsb_analysis.loader.load` (results directories and plain files),
:func:`ycsb_analysis.merge.merge_clients`, :func:`ycsb_analysis.batched.records_table`,
the charts in :mod:`ycsb_analysis.charts`, and the ``ycsb-report`` command
(:mod:`ycsb_analysis.cli`).
"""

__version__ = "0.1.0"


def engine() -> str:
    """Which reader parses status lines: ``"compiled"`` (the C scanner built by
    ``pip install -e analysis`` when a C compiler is there) or ``"numpy"`` (~5× slower)."""
    from .fast_status import engine as status_engine

    return status_engine()
