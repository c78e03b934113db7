"""Every YCSB 0.17 output line format, defined once, and the vectorised line classifier.

A YCSB run writes a handful of line shapes to stdout and stderr, mixed with whatever the
binding logs (HBase's ``INFO zookeeper.ZooKeeper`` lines, for instance). This module holds
the regular expressions for each shape and classifies a whole block of lines at once with
one regex pass (:data:`LINE_SCANNER`), so that a multi-hundred-MB status log is never walked
by a per-line Python loop.

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

# Every pattern below is also run over many lines joined by "\n" (see LINE_SCANNER), so none
# may cross a line end: whitespace is written `[^\S\n]`, negated classes exclude `\n`. On a
# single line that changes nothing.

# `[READ], AverageLatency(us), 477.65714285714284` — metric in brackets, then the measurement
# name, then the value. Raw's `[READ], Below is a summary of latency in microseconds:, -1`
# has a colon and spaces in the measurement, so the measurement is "anything but a comma".
REPORT_LINE = re.compile(
    r"^\[(?P<metric>[^\]\n]+)\], (?P<measurement>[^,\n]+), (?P<value>\S+)[^\S\n]*$"
)

# `[READ], 0, 623.7826086956521`: timeseries rows put the interval start (ms) where the
# measurement name would be.
TIMESERIES_MEASUREMENT = re.compile(r"^-?\d+$")

# Status entry head. A `-l label` is printed glued to the date. The date has milliseconds
# after a colon (SimpleDateFormat "yyyy-MM-dd HH:mm:ss:SSS"). `current ops/sec` is `∞` on a
# first interval of 0 ms and uses the JVM's decimal separator. `est completion in ...` is
# only there while YCSB can estimate it ("0 second", "3 minutes", "1 hours 2 minutes");
# `est_marker` tells an empty estimate from none.
STATUS_HEAD = re.compile(
    r"^(?P<label>.*?)(?P<time>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}:\d{3}) "
    r"(?P<elapsed_s>\d+) sec: (?P<operations>\d+) operations; "
    r"(?P<current_ops_per_s>\S+) current ops/sec;[^\S\n]?"
    r"(?:(?P<est_marker>est completion in )(?P<est_completion>.*?)"
    r"(?: (?=\[|[\w-]+ count: )|[^\S\n]*$))?"
    # up to the last non-blank: greedy is faster than .*?
    r"(?P<measurements>(?:.*\S)?)[^\S\n]*$"
)
STATUS_HEAD_HINT = " sec: "

# Further physical lines of one status entry (TwoInOneMeasurement prints a newline between
# its two summaries): `[BucketREAD AverageLatency(us)=671.39] [HdrUPDATE: Count=39, ...`
# or `RawREAD count: 27, average latency(us): 459.78 [HdrCLEANUP: Count=2, ...`.
STATUS_CONTINUATION = re.compile(
    r"^[^\S\n]*(?:\[[^\],\n]+(?:: Count=| AverageLatency\(us\)=)"
    r"|[\w-]+ count: \d+, average latency\(us\): )"
)

# One measurement inside a status entry, in any of the three summary formats:
#   hdrhistogram:      [READ: Count=14, Max=2175, Min=1, Avg=648.93, 90=1408, 99=2175, ...]
#   histogram/timeseries: [READ AverageLatency(us)=1.8]
#   raw:               READ count: 6, average latency(us): 1.00
_NUM = r"-?\d+(?:[.,]\d+)?(?:E-?\d+)?"
STATUS_MEASUREMENT = re.compile(
    r"\[(?P<hdr_metric>[^\]:\n]+): Count=(?P<hdr_count>\d+), Max=(?P<hdr_max>-?\d+), "
    r"Min=(?P<hdr_min>-?\d+), Avg=(?P<hdr_avg>NaN|"
    + _NUM
    + r")(?P<hdr_percentiles>(?:, \d+(?:\.\d+)?=-?\d+)*)\]"
    r"|\[(?P<avg_metric>[^\]\n]+?) AverageLatency\(us\)=(?P<avg_avg>NaN|" + _NUM + r")\]"
    r"|(?P<raw_metric>[\w-]+) count: (?P<raw_count>\d+), average latency\(us\): (?P<raw_avg>NaN|"
    + _NUM
    + r")"
)
PERCENTILE_PAIR = re.compile(r", (?P<percentile>\d+(?:\.\d+)?)=(?P<value>-?\d+)")

# `READ,1795385384846,2701`: raw measurement datapoints (operation, epoch ms, latency µs).
RAW_DATAPOINT = re.compile(r"^(?P<metric>[\w-]+),(?P<timestamp_ms>\d{10,}),(?P<latency_us>-?\d+)$")

# YCSB's own messages: known, not data, not "unknown" either.
YCSB_MESSAGE = re.compile(
    r"^(?:Command line: |YCSB Client \d|Loading workload\.\.\.|Starting test\.|DBWrapper: "
    r"|Maximum time elapsed|Stop requested for workload|Could not wait until max specified time"
    r"|Raw data measurement: |[\w-]+ latency raw data: op, timestamp"
    r"|\*{5,} properties \*{5,}|\*{20,}$"
    r'|"[^"\n]+"="[^"\n]*"$|\[WARN\] |Workload failed|Error in processing|Exception in thread'
    r"|Connecting to |Connected\.|ERROR: |Property )"
)


def _body(rx: re.Pattern) -> str:
    """A line pattern without its ``^`` and named groups, to embed in a bigger pattern."""
    return re.sub(r"\(\?P<\w+>", "(?:", rx.pattern.removeprefix("^"))


# The line classifier: ONE regex run over a whole block of lines joined by "\n" (multiline
# mode), which yields one match per line. Each alternative is a lookahead for one line kind,
# in the order of precedence, then captures the line's first character under that kind's
# name (a one-character capture costs no copy of the line); a blank line captures nothing.
# A status head's lookahead is tried only on a line with " sec: " in it: its lazy label
# would otherwise look for a date at every character of every other line (a client's log
# lines: 3/4 of the time this pass takes on them).
LINE_SCANNER = re.compile(
    r"^(?:"
    rf"(?=[^\n]* sec: )(?={_body(STATUS_HEAD)})(?P<status>.)"
    rf"|(?=\[[^\]\n]+\], -?\d+, \S+[^\S\n]*$)(?P<timeseries>.)"
    rf"|(?={_body(REPORT_LINE)})(?P<report>.)"
    rf"|(?={_body(STATUS_CONTINUATION)})(?P<status_continuation>.)"
    rf"|(?={_body(RAW_DATAPOINT)})(?P<raw_datapoint>.)"
    rf"|(?={_body(YCSB_MESSAGE)})(?P<ycsb_message>.)"
    r"|(?=[^\S\n]*$)"
    r"|(?P<unknown>.)"
    r")?.*$",
    re.MULTILINE,
)
_SCANNED_KINDS = list(LINE_SCANNER.groupindex)

# The same patterns over many entries / summaries joined by "\n": a match of the separator
# alternative ends one entry, so matches can be numbered by entry without a Python loop.
STATUS_HEAD_SCANNER = re.compile(STATUS_HEAD.pattern, re.MULTILINE)
RAW_DATAPOINT_SCANNER = re.compile(RAW_DATAPOINT.pattern, re.MULTILINE)
STATUS_MEASUREMENT_SCANNER = re.compile(STATUS_MEASUREMENT.pattern + r"|(?P<end_of_entry>\n)")
PERCENTILE_SCANNER = re.compile(PERCENTILE_PAIR.pattern + r"|(?P<end_of_entry>\n)")

# Long.MAX_VALUE: what YCSB prints as the minimum of an empty histogram.
LONG_MAX = 9223372036854775807


def read_lines(path: Path) -> pd.Series:
    """The lines of a text file as a pandas string Series (undecodable bytes replaced)."""
    text = Path(path).read_bytes().decode("utf-8", errors="replace")
    return lines_of(text)


def lines_of(text: str) -> pd.Series:
    """Split text into a Series of lines; str.splitlines runs in C, not a Python loop."""
    return pd.Series(text.splitlines(), dtype=object)


def scan(rx: re.Pattern, texts) -> list[tuple]:
    """``rx.findall`` over ``texts`` joined by newlines: one regex pass in C over a whole block."""
    return rx.findall("\n".join(texts))


def columns_of(matches: list, n_groups: int) -> list[np.ndarray]:
    """findall's row tuples → one object array per group ('' where a group did not take part)."""
    if not matches:
        return [np.empty(0, dtype=object) for _ in range(n_groups)]
    table = np.empty((len(matches), n_groups), dtype=object)
    table[:] = matches if n_groups > 1 else [[m] for m in matches]
    return [table[:, i] for i in range(n_groups)]


def classify_lines(lines: pd.Series) -> pd.Series:
    """Label every line with one of :data:`LINE_KINDS` in one regex pass (:data:`LINE_SCANNER`).

    Precedence when a line fits several shapes: status head, timeseries row, report line,
    status continuation, raw datapoint, YCSB message; whitespace-only lines are blank,
    anything else unknown.
    """
    if len(lines) == 0:
        return pd.Series(np.empty(0, dtype=object), index=lines.index, dtype=object)
    found = columns_of(scan(LINE_SCANNER, lines.astype(object).tolist()), len(_SCANNED_KINDS))
    if len(found[0]) != len(lines):  # cannot happen for lines from str.splitlines
        raise AssertionError(f"line scanner matched {len(found[0])} times for {len(lines)} lines")
    conditions = [col != "" for col in found]
    kind = np.select(conditions, np.array(_SCANNED_KINDS, dtype=object), default="blank").astype(
        object
    )
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
    missing = np.flatnonzero(np.isnan(out.to_numpy()))
    if len(missing):
        texts = obj.iloc[missing]
        retry = missing[(texts.notna() & (texts != "NaN")).to_numpy()]
        if len(retry):
            out.iloc[retry] = (
                pd.to_numeric(_locale_fixed(obj.iloc[retry]), errors="coerce")
                .astype(float)
                .to_numpy()
            )
    return out


_OUTER_BLANKS = re.compile(r"^[^\S\n]+|[^\S\n]+$", re.MULTILINE)


def _locale_fixed(values: pd.Series) -> pd.Series:
    """Stripped, decimal comma → point, ``∞`` → ``inf``: on all values joined into one
    string (three C-level passes instead of three Python calls per value)."""
    texts = values.tolist()
    if all(type(t) is str for t in texts):
        joined = _OUTER_BLANKS.sub("", "\n".join(texts)).replace(",", ".").replace("∞", "inf")
        fixed = joined.split("\n")
        if len(fixed) == len(texts):
            return pd.Series(fixed, index=values.index, dtype=object)
    return (
        values.astype(str)
        .str.strip()
        .str.replace(",", ".", regex=False)
        .str.replace("∞", "inf", regex=False)
    )


def latency_number(values: pd.Series) -> pd.Series:
    """Like :func:`to_number`, but Long.MAX_VALUE (an empty histogram's minimum) is NaN."""
    out = to_number(values)
    return out.mask(out >= float(LONG_MAX))
