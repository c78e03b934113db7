"""What of a run's final reports is missing: named in ``run.unused`` (exit status 3) or, for
what loses no workload figure, in ``run.warnings``."""

from __future__ import annotations

import polars as pl

from .model import Run, is_workload_operation
from .readers.final_report import split_metric


def check_completeness(run: Run) -> None:
    """Name, in ``run.unused``, every client whose final report is cut short or absent."""
    for c in run.clients:
        o = c.output
        for problem in o.completeness_problems:
            run.unused.append(f"{o.file_names}: {problem}")
        if o.has_report:
            measured = o.status_measurements.filter(pl.col("count").fill_null(1) > 0)["metric"]
            missing = sorted(set(measured.cast(pl.String)) - set(o.report["metric"].to_list()))
            # CLEANUP (the binding's cleanup() calls) is no workload figure: its block missing
            # (seed 001's Cassandra quote ends before it) is flagged, the run still complete.
            lost = [m for m in missing if is_workload_operation(split_metric(m).operation)]
            if lost:
                run.unused.append(f"{o.file_names}: the final report has no block for "
                                  f"{', '.join(lost)}, which its status lines measured "
                                  "(report cut?)")
            others = [m for m in missing if m not in lost]
            if others:
                run.warnings.append(f"{o.file_names}: the final report has no "
                                    f"{', '.join(others)} block, which its status lines "
                                    "measured (a quote or file that ends early?)")
        if o.encoding not in ("utf-8", "utf-8-sig"):
            run.warnings.append(f"{o.file_names} was read as {o.encoding.upper()} "
                                "(e.g. PowerShell's '>')")
    if run.metadata.get("_plain_file") and run.clients and not any(
            c.output.has_report for c in run.clients):
        run.unused.append("no final report ('[OVERALL], RunTime(ms), ...'): only status lines "
                          "were found, so run time, totals and the per-operation summary are "
                          "missing (did the client finish?)")
