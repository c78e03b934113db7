"""Every YCSB 0.17 output line format, defined once, and the vectorised line classifier.

A YCSB run writes a handful of line shapes to stdout and stderr, mixed with whatever the
binding logs (HBase's ``INFO zookeeper.ZooKeeper`` lines, for instance). This module holds
the regular expressions for each shape and classifies a whole column of lines at once with
pandas' vectorised string methods, so that a multi-hundred-MB status log is never walked by
a per-line Python loop.

Line kinds (values of :data:`LINE_KINDS`):

``report``
    ``[READ], 99thPercentileLatency(us), 1408`` — final report (also ``[OVERALL]``, GC).
``timeseries``
    ``[READ], 0, 623.7826086956521`` — a ``measurementtype=timeseries`` row (ms, avg µs).
``status``
    ``2026-11-22 22:09:44:123 0 sec: 21 operations; ∞ current ops/sec; est completion in
    0 second [READ: Count=14, Max=2175, ...]`` — the first physical line of a status entry.
``status_continuation``
    ``[BucketREAD AverageLatency(us)=671.39] [HdrUPDATE: Count=39, ...]`` — the further
    physical lines of one entry with ``hdrhistogram+histogram`` / ``hdrhistogram+raw``.
``raw_datapoint``
    ``READ,1795385384846,2701`` — one operation of ``measurementtype=raw`` on stdout.
``ycsb_message``
    YCSB's own chatter: ``Loading workload...``, ``DBWrapper: report latency ...``, the
    ``basicdb.verbose`` properties block, ``READ latency raw data: op, ...`` headers.
``blank``
    Empty or whitespace-only lines.
``unknown``
    Anything else (binding logs, scraped page text): skipped and counted.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

LINE_KINDS = (
    "report",
    "timeseries",
    "status",
    "status_continuation",
    "raw_datapoint",
    "ycsb_message",
    "blank",
    "unknown",
)

# `[READ], AverageLatency(us), 477.65714285714284` — metric in brackets, then the measurement
# name, then the value. Raw's `[READ], Below is a summary of latency in microseconds:, -1`
# has a colon and spaces in the measurement, so the measurement is "anything but a comma".
REPORT_LINE = re.compile(r"^\[(?P<metric>[^\]]+)\], (?P<measurement>[^,]+), (?P<value>\S+)\s*$")

# `[READ], 0, 623.7826086956521`: timeseries rows put the interval start (ms) where the
# measurement name would be.
TIMESERIES_MEASUREMENT = re.compile(r"^-?\d+$")

# Status entry head. A `-l label` is printed glued to the date. The date has milliseconds
# after a colon (SimpleDateFormat "yyyy-MM-dd HH:mm:ss:SSS"). `current ops/sec` is `∞` on a
# first interval of 0 ms and uses the JVM's decimal separator. `est completion in ...` is
# only there while YCSB can estimate it ("0 second", "3 minutes", "1 hours 2 minutes").
STATUS_HEAD = re.compile(
    r"^(?P<label>.*?)(?P<time>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}:\d{3}) "
    r"(?P<elapsed_s>\d+) sec: (?P<operations>\d+) operations; "
    r"(?P<current_ops_per_s>\S+) current ops/sec;\s?"
    r"(?:est completion in (?P<est_completion>.*?)(?: (?=\[|[\w-]+ count: )|\s*$))?"
    r"(?P<measurements>.*?)\s*$"
)
STATUS_HEAD_HINT = " sec: "

# Further physical lines of one status entry (TwoInOneMeasurement prints a newline between
# its two summaries): `[BucketREAD AverageLatency(us)=671.39] [HdrUPDATE: Count=39, ...`
# or `RawREAD count: 27, average latency(us): 459.78 [HdrCLEANUP: Count=2, ...`.
STATUS_CONTINUATION = re.compile(
    r"^\s*(?:\[[^\],]+(?:: Count=| AverageLatency\(us\)=)|[\w-]+ count: \d+, average latency\(us\): )"
)

# One measurement inside a status entry, in any of the three summary formats:
#   hdrhistogram:      [READ: Count=14, Max=2175, Min=1, Avg=648.93, 90=1408, 99=2175, ...]
#   histogram/timeseries: [READ AverageLatency(us)=1.8]
#   raw:               READ count: 6, average latency(us): 1.00
_NUM = r"-?\d+(?:[.,]\d+)?(?:E-?\d+)?"
STATUS_MEASUREMENT = re.compile(
    r"\[(?P<hdr_metric>[^\]:]+): Count=(?P<hdr_count>\d+), Max=(?P<hdr_max>-?\d+), "
    r"Min=(?P<hdr_min>-?\d+), Avg=(?P<hdr_avg>NaN|" + _NUM + r")(?P<hdr_percentiles>(?:, \d+(?:\.\d+)?=-?\d+)*)\]"
    r"|\[(?P<avg_metric>[^\]]+?) AverageLatency\(us\)=(?P<avg_avg>NaN|" + _NUM + r")\]"
    r"|(?P<raw_metric>[\w-]+) count: (?P<raw_count>\d+), average latency\(us\): (?P<raw_avg>NaN|" + _NUM + r")"
)
PERCENTILE_PAIR = re.compile(r", (?P<percentile>\d+(?:\.\d+)?)=(?P<value>-?\d+)")

# `READ,1795385384846,2701`: raw measurement datapoints (operation, epoch ms, latency µs).
RAW_DATAPOINT = re.compile(r"^(?P<metric>[\w-]+),(?P<timestamp_ms>\d{10,}),(?P<latency_us>-?\d+)$")

# YCSB's own messages: known, not data, not "unknown" either.
YCSB_MESSAGE = re.compile(
    r"^(?:Command line: |YCSB Client \d|Loading workload\.\.\.|Starting test\.|DBWrapper: "
    r"|Maximum time elapsed|Stop requested for workload|Could not wait until max specified time"
    r"|Raw data measurement: |[\w-]+ latency raw data: op, timestamp|\*{5,} properties \*{5,}|\*{20,}$"
    r'|"[^"]+"="[^"]*"$|\[WARN\] |Workload failed|Error in processing|Exception in thread'
    r"|Connecting to |Connected\.|ERROR: |Property )"
)

# Long.MAX_VALUE: what YCSB prints as the minimum of an empty histogram.
LONG_MAX = 9223372036854775807


def read_lines(path: Path) -> pd.Series:
    """The lines of a text file as a pandas string Series (undecodable bytes replaced)."""
    text = Path(path).read_bytes().decode("utf-8", errors="replace")
    return lines_of(text)


def lines_of(text: str) -> pd.Series:
    """Split text into a Series of lines; str.splitlines runs in C, not a Python loop."""
    return pd.Series(text.splitlines(), dtype=object)


def classify_lines(lines: pd.Series) -> pd.Series:
    """Label every line with one of :data:`LINE_KINDS` (vectorised, one regex pass per kind).

    Cheap prefix tests narrow each regex to the lines that can match it.
    """
    kind = np.full(len(lines), "unknown", dtype=object)
    if len(lines) == 0:
        return pd.Series(kind, index=lines.index, dtype=object)
    s = lines.astype(object)
    bracket = s.str.startswith("[", na=False).to_numpy()

    if bracket.any():
        sub = s[bracket]
        report = sub.str.match(REPORT_LINE.pattern, na=False)
        # Among report-shaped lines, a purely numeric measurement is a timeseries row.
        meas = sub[report].str.extract(REPORT_LINE.pattern)["measurement"]
        is_ts = meas.str.match(TIMESERIES_MEASUREMENT.pattern, na=False)
        idx_report = np.flatnonzero(bracket)[report.to_numpy()]
        kind[idx_report] = np.where(is_ts.to_numpy(), "timeseries", "report")

    maybe_status = s.str.contains(STATUS_HEAD_HINT, regex=False, na=False).to_numpy()
    if maybe_status.any():
        head = s[maybe_status].str.match(STATUS_HEAD.pattern, na=False).to_numpy()
        kind[np.flatnonzero(maybe_status)[head]] = "status"

    blank = s.str.strip().str.len().to_numpy() == 0
    kind[blank & (kind == "unknown")] = "blank"
    undecided = kind == "unknown"
    if undecided.any():
        und = s[undecided]
        cont = und.str.match(STATUS_CONTINUATION.pattern, na=False).to_numpy()
        idx = np.flatnonzero(undecided)
        kind[idx[cont]] = "status_continuation"
        rest = ~cont
        if rest.any():
            und2 = und[rest]
            raw = und2.str.match(RAW_DATAPOINT.pattern, na=False).to_numpy()
            kind[idx[rest][raw]] = "raw_datapoint"
            rest_idx = idx[rest][~raw]
            if len(rest_idx):
                msg = s.iloc[rest_idx].str.match(YCSB_MESSAGE.pattern, na=False).to_numpy()
                kind[rest_idx[msg]] = "ycsb_message"
    return pd.Series(kind, index=lines.index, dtype=object)


def to_number(values: pd.Series) -> pd.Series:
    """YCSB number strings to floats, vectorised.

    Handles the JVM locale's decimal comma (``841,93``; DecimalFormat("#.##") prints no
    grouping separator, so a comma is always the decimal mark), ``∞`` (first status interval
    of 0 ms), ``NaN`` and 0.12's ``20323.0``. Anything unparsable becomes NaN.
    """
    if len(values) == 0:
        return pd.Series([], index=values.index, dtype=float)
    # Fast path: most values are plain numbers; only the ones that fail get the locale and
    # infinity fix-ups (a second vectorised pass over that subset).
    obj = values.astype(object)
    out = pd.to_numeric(obj, errors="coerce").astype(float)
    retry = out.isna() & obj.notna() & (obj != "NaN")
    if retry.any():
        fixed = (obj[retry].astype(str).str.strip().str.replace(",", ".", regex=False)
                 .str.replace("∞", "inf", regex=False))
        out[retry] = pd.to_numeric(fixed, errors="coerce").astype(float)
    return out


def latency_number(values: pd.Series) -> pd.Series:
    """Like :func:`to_number`, but Long.MAX_VALUE (an empty histogram's minimum) is NaN."""
    out = to_number(values)
    return out.mask(out >= float(LONG_MAX))
