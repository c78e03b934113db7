"""Parse, merge, chart and report YCSB 0.17 outputs.

Entry points: :func:`ycsb_analysis.loader.load` (results directories and plain files),
:func:`ycsb_analysis.merge.merge_clients`, :func:`ycsb_analysis.batched.records_table`,
the charts in :mod:`ycsb_analysis.charts`, and the ``ycsb-report`` command
(:mod:`ycsb_analysis.cli`).
"""

__version__ = "0.1.0"


def engines() -> dict[str, str]:
    """Which reader runs for each big input kind: status lines ``"compiled"`` (the C scanner
    ``_status_scan``) or ``"numpy"`` (~4× slower); raw datapoints ``"compiled"`` (``_raw_scan``)
    or ``"pyarrow"``. The C scanners are built by ``pip install -e analysis`` when a C compiler
    and Python's headers are there."""
    from . import fast_raw, fast_status

    return {"status lines": fast_status.engine(), "raw datapoints": fast_raw.engine()}
