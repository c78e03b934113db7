"""The `Return=` counts of a YCSB final report, for checks the runner makes itself.

A final report line looks like `[BATCH_INSERT], Return=UNAVAILABLE, 37`: operation, status,
count, read by the analysis's line formats (readers/line_formats.py, standard library only).
"""
from pathlib import Path
from typing import Dict

from ycsb_analysis.readers import line_formats


def return_counts(report: Path) -> Dict[str, Dict[str, int]]:
    """{operation: {status: count}} of one client's stdout (client-<i>.out)."""
    return line_formats.return_counts(report.read_text(errors="replace"))


def phase_return_counts(phase_dir: Path) -> Dict[str, Dict[str, int]]:
    """The clients of a phase directory summed: {operation: {status: count}}."""
    total: Dict[str, Dict[str, int]] = {}
    for out in sorted(phase_dir.glob("client-*.out")):
        for op, by_status in return_counts(out).items():
            mine = total.setdefault(op, {})
            for status, n in by_status.items():
                mine[status] = mine.get(status, 0) + n
    return total
