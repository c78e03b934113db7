"""The `Return=` counts of a YCSB final report, for checks the runner makes itself.

A final report line looks like `[BATCH_INSERT], Return=UNAVAILABLE, 37`: operation, status,
count. (The analysis package parses everything else; scripts stay on the standard library.)
"""
import re
from pathlib import Path
from typing import Dict

_RETURN = re.compile(r"^\[(?P<op>[^\]]+)\], Return=(?P<status>[^,]+), (?P<n>\d+)\s*$", re.M)


def return_counts(report: Path) -> Dict[str, Dict[str, int]]:
    """{operation: {status: count}} of one client's stdout (client-<i>.out)."""
    counts: Dict[str, Dict[str, int]] = {}
    for m in _RETURN.finditer(report.read_text(errors="replace")):
        by_status = counts.setdefault(m.group("op"), {})
        by_status[m.group("status")] = by_status.get(m.group("status"), 0) + int(m.group("n"))
    return counts


def phase_return_counts(phase_dir: Path) -> Dict[str, Dict[str, int]]:
    """The clients of a phase directory summed: {operation: {status: count}}."""
    total: Dict[str, Dict[str, int]] = {}
    for out in sorted(phase_dir.glob("client-*.out")):
        for op, by_status in return_counts(out).items():
            mine = total.setdefault(op, {})
            for status, n in by_status.items():
                mine[status] = mine.get(status, 0) + n
    return total
