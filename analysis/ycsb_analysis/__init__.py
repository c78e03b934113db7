"""Parse, merge, chart and report YCSB 0.17 outputs.

Entry points: :func:`ycsb_analysis.loader.load` (results directories and plain files, as the
runs of :mod:`ycsb_analysis.model`), :func:`ycsb_analysis.readers.output.parse_file` (one file),
:func:`ycsb_analysis.merge.merge_clients`, :func:`ycsb_analysis.batched.records_table`, the
charts in :mod:`ycsb_analysis.charts`, and the ``ycsb-report`` command (:mod:`ycsb_analysis.cli`).
"""

__version__ = "0.1.0"
