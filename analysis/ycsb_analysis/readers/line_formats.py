"""The line formats of YCSB 0.17's output, one definition each (examples of status lines:
:mod:`.status`; of the final report: :mod:`.final_report`).

The readers run these patterns over whole columns of lines (polars); the scenario runner
(ycsbpack/phases/warmup.py, objective_watch.py), the bench scripts and
``scripts/check-list-appends`` match single lines with them as they come (Python's ``re``,
through the functions at the end: both engines read the patterns alike). Standard library
only, so that the runner imports it at its start without loading polars or numpy
(``scripts/tests/test_scripts_warmup.py`` checks that).
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Dict, Iterator, List, NamedTuple, Optional, Tuple

# --- status lines ---
# The head of an entry: label (`-l`, glued to the date), time, elapsed seconds and operations
# so far; the raw loop of bench-harness prints this much and no more (`<time> 2 sec: 4100
# operations;`).
STATUS_PREFIX = (
    r"^(?P<label>.*?)(?P<time>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}:\d{3}) "
    r"(?P<elapsed_s>\d+) sec: (?P<operations>\d+) operations;"
)
# The interval's throughput, once there are operations (before, YCSB prints `1 sec: 0
# operations; est completion in ...`; `∞` for an interval of 0 ms).
CURRENT_THROUGHPUT = r" (?P<current_ops_per_s>\S+) current ops/sec;"
# The head of an entry with operations, up to its current throughput; after it (and one space),
# `est completion in ...` while YCSB can estimate it ("0 second", "3 minutes", "1 hours 2
# minutes"), which ends where the measurements begin (ESTIMATE_END), or at the end.
STATUS_HEAD = STATUS_PREFIX + CURRENT_THROUGHPUT
EST_MARKER = "est completion in "
ESTIMATE_END = r" (?:\[|[\w-]+ count: )"
STATUS_TIME_FORMAT = "%Y-%m-%d %H:%M:%S:%f"  # Python's strptime; polars': status.TIME_FORMAT
# Further physical lines of one entry (TwoInOneMeasurement prints a newline between its two
# summaries): `[BucketREAD AverageLatency(us)=671.39] [HdrUPDATE: Count=39, ...`.
STATUS_CONTINUATION = (
    r"^\s*(?:\[[^\],]+(?:: Count=| AverageLatency\(us\)=)"
    r"|[\w-]+ count: \d+, average latency\(us\): )"
)
# One measurement of an entry, in any of the three summary formats:
#   hdrhistogram:         [READ: Count=14, Max=2175, Min=1, Avg=648.93, 90=1408, 99=2175, ...]
#   histogram/timeseries: [READ AverageLatency(us)=1.8]
#   raw:                  READ count: 6, average latency(us): 1.00
_NUM = r"(?:NaN|-?\d+(?:[.,]\d+)?(?:E-?\d+)?)"
STATUS_MEASUREMENT = (
    r"\[(?P<hdr_metric>[^\]:]+): Count=(?P<hdr_count>\d+), Max=(?P<hdr_max>-?\d+), "
    rf"Min=(?P<hdr_min>-?\d+), Avg=(?P<hdr_avg>{_NUM})"
    r"(?P<hdr_percentiles>(?:, \d+(?:\.\d+)?=-?\d+)*)\]"
    rf"|\[(?P<avg_metric>[^\]]+?) AverageLatency\(us\)=(?P<avg_avg>{_NUM})\]"
    r"|(?P<raw_metric>[\w-]+) count: (?P<raw_count>\d+), "
    rf"average latency\(us\): (?P<raw_avg>{_NUM})"
)
PERCENTILE_PAIR = r"\d+(?:\.\d+)?=-?\d+"

# --- the final report and the other shapes (.lines classifies every line by them) ---
REPORT_LINE = r"^\[(?P<metric>[^\]]+)\], (?P<measurement>[^,]+), (?P<value>\S+)\s*$"
TIMESERIES_LINE = r"^\[[^\]]+\], -?\d+, \S+\s*$"
RAW_DATAPOINT = r"^(?P<metric>[\w-]+),(?P<timestamp_ms>\d{10,}),(?P<latency_us>-?\d+)$"
# YCSB's own messages: known, not data, and not "unknown" either.
YCSB_MESSAGE = (
    r"^(?:Command line: |YCSB Client \d|Loading workload\.\.\.|Starting test\.|DBWrapper: "
    r"|Maximum time elapsed|Stop requested for workload|Could not wait until max specified time"
    r"|Raw data measurement: |[\w-]+ latency raw data: op, timestamp"
    r"|\*{5,} properties \*{5,}|\*{20,}$"
    r'|"[^"]+"="[^"]*"$|\[WARN\] |Workload failed|Error in processing|Exception in thread'
    r"|Connecting to |Connected\.|ERROR: |Property )"
)

_STATUS_LINE = re.compile(STATUS_PREFIX + "(?:" + CURRENT_THROUGHPUT + ")?")
_ESTIMATE_END = re.compile(ESTIMATE_END)
_MEASUREMENT = re.compile(STATUS_MEASUREMENT)
_PERCENTILE_PAIR = re.compile(PERCENTILE_PAIR)
_REPORT_LINE = re.compile(REPORT_LINE)


def ycsb_number(text: str) -> Optional[float]:
    """A number as YCSB prints it, by the rule of :func:`.final_report.number` (a decimal
    comma, ``∞``); None for ``NaN`` and anything else (missing)."""
    try:
        value = float(text.strip().replace(",", ".").replace("∞", "inf"))
    except ValueError:
        return None
    return None if math.isnan(value) else value


class StatusLine(NamedTuple):
    """The head of one status line, and the rest (its estimate and measurements)."""

    time: datetime  # the client's wall clock, in its local time zone (naive)
    elapsed_s: int
    operations: int  # done since the phase began
    # this interval's ops/s; None before the first operation and when not a finite number
    # (`∞` for an interval of 0 ms)
    current_ops_per_s: Optional[float]
    rest: str


def status_line(line: str) -> Optional[StatusLine]:
    """The status line ``line``'s head, or None when it is none."""
    m = _STATUS_LINE.match(line)
    if not m:
        return None
    try:
        time = datetime.strptime(m.group("time"), STATUS_TIME_FORMAT)
    except ValueError:  # digits in the shape of a date that is none: not YCSB's line
        return None
    current = ycsb_number(m.group("current_ops_per_s") or "")
    return StatusLine(time, int(m.group("elapsed_s")), int(m.group("operations")),
                      current if current is not None and math.isfinite(current) else None,
                      line[m.end():])


class HdrMeasurement(NamedTuple):
    """One ``[METRIC: Count=c, Max=m, ..., 90=v, 99=v, ...]`` of a status line (the
    ``hdrhistogram`` type's), latencies in µs."""

    metric: str
    count: int
    max_us: int
    percentiles: List[Tuple[float, int]]  # (percentile, value), as printed


def hdr_measurements(text: str) -> Iterator[HdrMeasurement]:
    """The hdrhistogram measurements in a status line (the other types' are skipped)."""
    for m in _MEASUREMENT.finditer(text):
        if m.group("hdr_metric"):
            pairs = [p.split("=") for p in _PERCENTILE_PAIR.findall(m.group("hdr_percentiles"))]
            yield HdrMeasurement(m.group("hdr_metric"), int(m.group("hdr_count")),
                                 int(m.group("hdr_max")), [(float(q), int(v)) for q, v in pairs])


def replace_estimate(line: str, replacement: str) -> str:
    """A status line with YCSB's completion estimate (:data:`EST_MARKER` up to
    :data:`ESTIMATE_END` or the end of the line) replaced; a line without one as it is."""
    start = line.find(EST_MARKER)
    if start < 0:
        return line
    end = _ESTIMATE_END.search(line, start + len(EST_MARKER))
    return line[:start] + replacement + line[end.start() if end else len(line.rstrip()):]


def report_lines(text: str) -> Iterator[Tuple[str, str, str]]:
    """``(metric, measurement, value)`` of each final report line in ``text``."""
    for line in text.splitlines():
        m = _REPORT_LINE.match(line)
        if m:
            yield m.group("metric"), m.group("measurement"), m.group("value")


def report_value(text: str, metric: str, measurement: str) -> Optional[float]:
    """The value of ``[metric], measurement, value`` in a final report; None if absent."""
    for m, what, value in report_lines(text):
        if m == metric and what == measurement:
            return ycsb_number(value)
    return None


def return_counts(text: str) -> Dict[str, Dict[str, int]]:
    """``{operation: {status: count}}`` from the ``[OP], Return=STATUS, n`` lines of a final
    report (lines repeated, as by two reports in one file, are added up)."""
    counts: Dict[str, Dict[str, int]] = {}
    for metric, measurement, value in report_lines(text):
        if measurement.startswith("Return=") and value.isdigit():
            by_status = counts.setdefault(metric, {})
            status = measurement[len("Return="):]
            by_status[status] = by_status.get(status, 0) + int(value)
    return counts

