"""The final report YCSB prints on stdout when a run ends, as tidy frames.

Every measurement type's report is a list of ``[METRIC], measurement, value`` lines::

    [OVERALL], RunTime(ms), 315539
    [OVERALL], Throughput(ops/sec), 31691.803548848162
    [TOTAL_GC_TIME_%_PS_Scavenge], Time(%), 0.7710615803434757
    [INSERT], 99thPercentileLatency(us), 33439
    [INSERT], Return=OK, 10000000

Metric names carry what the measurement is: ``READ-FAILED`` (latencies of failed reads),
``Intended-READ`` (``measurement.interval=intended|both``), ``HdrREAD``/``BucketREAD``/``RawREAD``
(the two halves of ``hdrhistogram+histogram``/``hdrhistogram+raw``). :func:`split_metric`
turns a metric name into those parts once, for everyone. ``measurementtype=timeseries`` prints
rows of the same shape with the interval's start (ms) where the measurement's name would be:
``[READ], 0, 623.7826086956521``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
import polars as pl

from .line_formats import REPORT_LINE

# Long.MAX_VALUE: what YCSB prints as the minimum of an empty histogram.
LONG_MAX = 9223372036854775807

# Two-in-one measurement prefixes (TwoInOneMeasurement names its halves like this).
_STRUCTURE_PREFIX = {"Hdr": "hdrhistogram", "Bucket": "histogram", "Raw": "raw"}
_PERCENTILE_MEASUREMENT = re.compile(r"^(?P<p>\d+(?:\.\d+)?)(?:th)?PercentileLatency\(us\)$")
_RAW_PERCENTILE_MEASUREMENT = re.compile(r"^p(?P<p>\d+(?:\.\d+)?)$")
_GC_METRIC = re.compile(r"^TOTAL_GC")

SUMMARY_COLUMNS = [
    "metric", "operation", "failed", "intended", "structure", "operations",
    "average_latency_us", "min_latency_us", "max_latency_us", "latency_variance_us",
]


def number(text: pl.Expr) -> pl.Expr:
    """YCSB number text to Float64: the JVM locale's decimal comma (``841,93``;
    DecimalFormat("#.##") prints no grouping separator, so a comma is always the decimal
    mark), ``∞`` (a first status interval of 0 ms), ``NaN``, 0.12's ``20323.0``; anything
    else is null. One line at a time: :func:`.line_formats.ycsb_number` (tested to agree)."""
    return (
        text.str.strip_chars().str.replace(",", ".", literal=True)
        .str.replace("∞", "inf", literal=True).cast(pl.Float64, strict=False)
    )


def latency(text: pl.Expr) -> pl.Expr:
    """Like :func:`number`; Long.MAX_VALUE (an empty histogram's minimum) is null."""
    value = number(text)
    return pl.when(value >= float(LONG_MAX)).then(None).otherwise(value)


def to_pandas_floats(frame: pl.DataFrame) -> pd.DataFrame:
    """A polars frame as pandas, text as objects and missing numbers as NaN."""
    out = frame.to_pandas()
    for name, dtype in frame.schema.items():
        if dtype == pl.String:
            out[name] = out[name].astype(object).where(out[name].notna(), None)
    return out


def report_rows(lines: pl.DataFrame) -> pl.DataFrame:
    """Report lines (``line``, ``text``) → ``line, metric, measurement, value``."""
    parts = lines["text"].str.extract_groups(REPORT_LINE).struct.unnest()
    return pl.DataFrame({
        "line": lines["line"], "metric": parts["metric"], "measurement": parts["measurement"],
        "value": parts.select(number(pl.col("value"))).to_series(),
    })


def timeseries_rows(lines: pl.DataFrame) -> pl.DataFrame:
    """``[READ], 0, 623.78`` rows → ``line, metric, time_ms, average_latency_us``."""
    parts = lines["text"].str.extract_groups(REPORT_LINE).struct.unnest()
    return pl.DataFrame({
        "line": lines["line"], "metric": parts["metric"],
        "time_ms": parts.select(number(pl.col("measurement"))).to_series(),
        "average_latency_us": parts.select(latency(pl.col("value"))).to_series(),
    })


@dataclass(frozen=True)
class MetricName:
    """The parts of a YCSB metric name such as ``Intended-HdrREAD-FAILED``."""

    operation: str  # READ, BATCH_INSERT, BATCH_READ-RECORDS, ...
    failed: bool  # "-FAILED" suffix: latencies of operations whose Status was not OK
    intended: bool  # "Intended-" prefix: latency from the intended start time
    structure: str  # "hdrhistogram", "histogram", "raw" for two-in-one halves, else ""


def split_metric(metric: str) -> MetricName:
    """``Intended-READ-FAILED`` → operation READ, failed, intended; ``BucketREAD`` → histogram."""
    name = metric
    intended = name.startswith("Intended-")
    if intended:
        name = name[len("Intended-"):]
    structure = ""
    for prefix, kind in _STRUCTURE_PREFIX.items():
        # Only strip when an upper-case op name follows: "Hdr" + "READ", not "Hdrfoo".
        if name.startswith(prefix) and len(name) > len(prefix) and name[len(prefix)].isupper():
            structure, name = kind, name[len(prefix):]
            break
    failed = name.endswith("-FAILED")
    if failed:
        name = name[: -len("-FAILED")]
    return MetricName(name, failed, intended, structure)


def percentile_columns(frame) -> list[str]:
    """The percentile columns (``p95``, ``p99.9``, ...) of a pandas or polars frame, rising."""
    return sorted((c for c in frame.columns if c.startswith("p") and c[1:2].isdigit()),
                  key=lambda c: float(c[1:]))


def percentile_of(measurement: str) -> str | None:
    """``99.9PercentileLatency(us)`` or raw's ``p99.9`` → ``"99.9"``; others → None."""
    m = _PERCENTILE_MEASUREMENT.match(measurement) or _RAW_PERCENTILE_MEASUREMENT.match(measurement)
    return m.group("p") if m else None


def overall(report: pd.DataFrame) -> dict[str, float]:
    """``[OVERALL]`` figures: ``runtime_ms`` and ``throughput_ops_per_s`` (NaN when absent)."""
    o = report[report["metric"] == "OVERALL"].set_index("measurement")["value"]
    o = o[~o.index.duplicated(keep="last")]
    return {
        "runtime_ms": float(o.get("RunTime(ms)", np.nan)),
        "throughput_ops_per_s": float(o.get("Throughput(ops/sec)", np.nan)),
    }


def gc_figures(report: pd.DataFrame) -> pd.DataFrame:
    """GC and JVM lines (``[TOTAL_GCS_PS_Scavenge], Count, 161`` ...) as figure rows."""
    gc = report[report["metric"].str.match(_GC_METRIC.pattern, na=False)]
    return gc[["metric", "measurement", "value"]].reset_index(drop=True)


def returns(report: pd.DataFrame) -> pd.DataFrame:
    """``[READ], Return=NOT_FOUND, 461`` → ``metric, operation, intended, status, count``.

    YCSB reports statuses under the bare operation name (never under ``-FAILED``), each count a
    whole number: a line whose count is not (``Return=OK, .134``, a mangled line) counts nothing.
    """
    r = report[report["measurement"].str.startswith("Return=", na=False)]
    r = r[r["value"].isna() | (r["value"] == r["value"].round())]
    names = [split_metric(m) for m in r["metric"]]
    return pd.DataFrame({
        "metric": pd.Series(r["metric"].to_numpy(), dtype=object),
        "operation": pd.Series([n.operation for n in names], dtype=object),
        "intended": pd.Series([n.intended for n in names], dtype=bool),
        "status": pd.Series(r["measurement"].str.slice(len("Return=")).to_numpy(), dtype=object),
        "count": pd.Series(r["value"].fillna(0).to_numpy(), dtype="int64"),
    })


_SUMMARY_MEASUREMENTS = {
    "Operations": "operations",
    "Total Operations": "operations",  # raw
    "AverageLatency(us)": "average_latency_us",
    "Average": "average_latency_us",  # raw
    "MinLatency(us)": "min_latency_us",
    "Min": "min_latency_us",  # raw
    "MaxLatency(us)": "max_latency_us",
    "Max": "max_latency_us",  # raw
    "LatencyVariance(us)": "latency_variance_us",  # histogram
}


def latency_summary(report: pd.DataFrame) -> pd.DataFrame:
    """One row per latency metric: operations, average/min/max/variance and percentiles.

    Percentile columns are named ``p95``, ``p99``, ``p99.9`` ... whatever
    ``hdrhistogram.percentiles`` (or the raw type's fixed list) produced. An empty
    histogram's ``MinLatency(us), 9223372036854775807`` and ``AverageLatency(us), NaN``
    become NaN.
    """
    r = report[
        (report["metric"] != "OVERALL") & ~report["metric"].str.match(_GC_METRIC.pattern, na=False)
    ]
    r = r[~r["measurement"].str.startswith("Return=", na=False)]
    if r.empty:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    field = r["measurement"].map(_SUMMARY_MEASUREMENTS)
    pct = r["measurement"].map(percentile_of)
    col = field.where(field.notna(), "p" + pct.astype(object))
    keep = col.notna()
    r, col = r[keep], col[keep]
    values = r["value"].mask(r["value"] >= 9.2e18)  # Long.MAX_VALUE minimum of an empty histogram
    wide = (
        pd.DataFrame(
            {"metric": r["metric"].to_numpy(), "col": col.to_numpy(), "value": values.to_numpy()}
        )
        .drop_duplicates(["metric", "col"], keep="last")
        .pivot(index="metric", columns="col", values="value")
    )
    wide = wide.reindex(list(dict.fromkeys(r["metric"])))
    wide.columns.name = None
    for c in SUMMARY_COLUMNS[5:]:
        if c not in wide.columns:
            wide[c] = np.nan
    names = [split_metric(m) for m in wide.index]
    wide.insert(0, "structure", [n.structure for n in names])
    wide.insert(0, "intended", [n.intended for n in names])
    wide.insert(0, "failed", [n.failed for n in names])
    wide.insert(0, "operation", [n.operation for n in names])
    wide = wide.reset_index().rename(columns={"index": "metric"})
    return wide[SUMMARY_COLUMNS + percentile_columns(wide)]


def block_of_line(line: str) -> str | None:
    """``[READ], Operati`` → ``READ``: the metric a (possibly cut) report line belongs to."""
    m = re.match(r"^\[(?P<metric>[^\],\n]+)\]", line.strip())
    return m.group("metric") if m else None


# Lines every latency block of a structure prints, whatever the run (besides the
# percentiles, which are compared with the other blocks of the same report).
_BLOCK_MINIMUM = {
    "": ("Operations", "AverageLatency(us)", "MinLatency(us)", "MaxLatency(us)"),
    "hdrhistogram": ("Operations", "AverageLatency(us)", "MinLatency(us)", "MaxLatency(us)"),
    "histogram": ("Operations", "AverageLatency(us)", "MinLatency(us)", "MaxLatency(us)"),
    "raw": ("Total Operations", "Average", "Min", "Max"),
}
_OVERALL_LINES = ("RunTime(ms)", "Throughput(ops/sec)")


def incomplete_blocks(report: pd.DataFrame) -> list[str]:
    """Blocks of one final report that lack lines their kind always has, one phrase each:
    ``[UPDATE] lacks 99thPercentileLatency(us)``.

    YCSB prints every latency block of one measurement type with the same lines (the
    ``Return=`` lines aside), so a block with fewer lines than its siblings — or than the
    minimum of its type — was cut short. ``[OVERALL]`` always has run time and throughput.
    """
    if report.empty:
        return []
    problems = []
    blocks = {
        m: [x for x in g["measurement"] if not x.startswith("Return=")]
        for m, g in report.groupby("metric", sort=False)
    }
    overall_lines = blocks.pop("OVERALL", None)
    if overall_lines is not None:
        missing = [x for x in _OVERALL_LINES if x not in overall_lines]
        if missing:
            problems.append(f"[OVERALL] lacks {', '.join(missing)}")
    by_structure: dict[str, dict[str, list[str]]] = {}
    for metric, lines in blocks.items():
        if _GC_METRIC.match(metric):
            continue
        structure = split_metric(metric).structure
        if "Total Operations" in lines:  # measurementtype=raw names no structure
            structure = "raw"
        by_structure.setdefault(structure, {})[metric] = lines
    for structure, group in by_structure.items():
        expected = list(_BLOCK_MINIMUM.get(structure, ()))
        for lines in group.values():
            expected += [x for x in lines if x not in expected]
        for metric, lines in group.items():
            missing = [x for x in expected if x not in lines]
            if missing:
                problems.append(f"[{metric}] lacks {', '.join(missing)}")
    return problems
