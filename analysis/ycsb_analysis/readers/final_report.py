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

import math
import re
from dataclasses import astuple, dataclass

import polars as pl

from .line_formats import REPORT_LINE

# Long.MAX_VALUE: what YCSB prints as the minimum of an empty histogram.
LONG_MAX = 9223372036854775807

# Two-in-one measurement prefixes (TwoInOneMeasurement names its halves like this).
_STRUCTURE_PREFIX = {"Hdr": "hdrhistogram", "Bucket": "histogram", "Raw": "raw"}
_PERCENTILE_MEASUREMENT = re.compile(r"^(?P<p>\d+(?:\.\d+)?)(?:th)?PercentileLatency\(us\)$")
_RAW_PERCENTILE_MEASUREMENT = re.compile(r"^p(?P<p>\d+(?:\.\d+)?)$")
_GC_PREFIX = "TOTAL_GC"

SUMMARY_COLUMNS = [
    "metric", "operation", "failed", "intended", "structure", "operations",
    "average_latency_us", "min_latency_us", "max_latency_us", "latency_variance_us",
]
_NAME_SCHEMA = {"metric": pl.String, "operation": pl.String, "failed": pl.Boolean,
                "intended": pl.Boolean, "structure": pl.String}
SUMMARY_SCHEMA = _NAME_SCHEMA | {c: pl.Float64 for c in SUMMARY_COLUMNS[5:]}
REPORT_SCHEMA = {"metric": pl.String, "measurement": pl.String, "value": pl.Float64}


def number(text: pl.Expr) -> pl.Expr:
    """YCSB number text to Float64: the JVM locale's decimal comma (``841,93``;
    DecimalFormat("#.##") prints no grouping separator, so a comma is always the decimal
    mark), ``∞`` (a first status interval of 0 ms), 0.12's ``20323.0``; ``NaN`` and anything
    else is missing (null). One line at a time: :func:`.line_formats.ycsb_number`."""
    return (
        text.str.strip_chars().str.replace(",", ".", literal=True)
        .str.replace("∞", "inf", literal=True).cast(pl.Float64, strict=False).fill_nan(None)
    )


def latency(text: pl.Expr) -> pl.Expr:
    """Like :func:`number`; Long.MAX_VALUE (an empty histogram's minimum) is null."""
    value = number(text)
    return pl.when(value >= float(LONG_MAX)).then(None).otherwise(value)


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
    intended = metric.startswith("Intended-")
    name = metric.removeprefix("Intended-")
    structure = ""
    for prefix, kind in _STRUCTURE_PREFIX.items():
        # Only strip when an upper-case op name follows: "Hdr" + "READ", not "Hdrfoo".
        if name.startswith(prefix) and len(name) > len(prefix) and name[len(prefix)].isupper():
            structure, name = kind, name[len(prefix):]
            break
    failed = name.endswith("-FAILED")
    return MetricName(name.removesuffix("-FAILED"), failed, intended, structure)


def percentile_columns(frame) -> list[str]:
    """The percentile columns (``p95``, ``p99.9``, ...) of a frame, rising."""
    return sorted((c for c in frame.columns if c.startswith("p") and c[1:2].isdigit()),
                  key=lambda c: float(c[1:]))


def percentile_of(measurement: str) -> str | None:
    """``99.9PercentileLatency(us)`` or raw's ``p99.9`` → ``"99.9"``; others → None."""
    m = _PERCENTILE_MEASUREMENT.match(measurement) or _RAW_PERCENTILE_MEASUREMENT.match(measurement)
    return m.group("p") if m else None


def float_or_nan(v) -> float:
    """A figure that may be missing (None) as a float: NaN when missing."""
    return math.nan if v is None else float(v)


def overall(report: pl.DataFrame) -> dict[str, float]:
    """``[OVERALL]`` figures: ``runtime_ms`` and ``throughput_ops_per_s`` (NaN when absent)."""
    o = dict(report.filter(pl.col("metric") == "OVERALL").select("measurement", "value").rows())
    return {"runtime_ms": float_or_nan(o.get("RunTime(ms)")),
            "throughput_ops_per_s": float_or_nan(o.get("Throughput(ops/sec)"))}


def gc_figures(report: pl.DataFrame) -> pl.DataFrame:
    """GC and JVM lines (``[TOTAL_GCS_PS_Scavenge], Count, 161`` ...) as figure rows."""
    return report.filter(pl.col("metric").str.starts_with(_GC_PREFIX)).select(
        "metric", "measurement", "value")


def metric_parts(metrics: pl.Series) -> pl.DataFrame:
    """``metric`` and its :func:`split_metric` parts (``operation, failed, intended,
    structure``), one row per entry of ``metrics``."""
    rows = [(m, *astuple(split_metric(m))) for m in metrics.to_list()]
    return pl.DataFrame(rows, schema=_NAME_SCHEMA, orient="row")


def returns(report: pl.DataFrame) -> pl.DataFrame:
    """``[READ], Return=NOT_FOUND, 461`` → ``metric, operation, intended, status, count``.

    YCSB reports statuses under the bare operation name (never under ``-FAILED``), each count a
    whole number: a line whose count is not (``Return=OK, .134``, a mangled line) counts nothing.
    """
    value = pl.col("value")
    r = report.filter(pl.col("measurement").str.starts_with("Return=")
                      & (value.is_null() | (value == value.round())))
    return metric_parts(r["metric"]).select("metric", "operation", "intended").with_columns(
        status=r["measurement"].str.slice(len("Return=")),
        count=r["value"].fill_null(0).cast(pl.Int64))


# The measurements of each summary column: the other types' name, then raw's; the variance:
# histogram only.
_SUMMARY_MEASUREMENTS = {
    "Operations": "operations", "Total Operations": "operations",
    "AverageLatency(us)": "average_latency_us", "Average": "average_latency_us",
    "MinLatency(us)": "min_latency_us", "Min": "min_latency_us",
    "MaxLatency(us)": "max_latency_us", "Max": "max_latency_us",
    "LatencyVariance(us)": "latency_variance_us",
}


def latency_summary(report: pl.DataFrame) -> pl.DataFrame:
    """One row per latency metric: operations, average/min/max/variance and percentiles.

    Percentile columns are named ``p95``, ``p99``, ``p99.9`` ... whatever
    ``hdrhistogram.percentiles`` (or the raw type's fixed list) produced. An empty
    histogram's ``MinLatency(us), 9223372036854775807`` and ``AverageLatency(us), NaN``
    become missing.
    """
    measurement = pl.col("measurement")
    r = report.filter((pl.col("metric") != "OVERALL")
                      & ~pl.col("metric").str.starts_with(_GC_PREFIX)
                      & ~measurement.str.starts_with("Return="))
    columns = {m: _SUMMARY_MEASUREMENTS.get(m) or (f"p{p}" if (p := percentile_of(m)) else None)
               for m in r["measurement"].unique().to_list()}
    r = r.with_columns(col=measurement.replace_strict(columns, default=None,
                                                      return_dtype=pl.String)).drop_nulls("col")
    if r.is_empty():
        return pl.DataFrame(schema=SUMMARY_SCHEMA)
    # (Long.MAX_VALUE: the minimum of an empty histogram)
    r = r.with_columns(pl.when(pl.col("value") >= 9.2e18).then(None).otherwise("value")
                       .alias("value"))
    wide = (r.unique(["metric", "col"], keep="last", maintain_order=True)
            .pivot(on="col", index="metric", values="value"))
    wide = metric_parts(r["metric"].unique(maintain_order=True)).join(
        wide, on="metric", how="left", maintain_order="left")
    wide = wide.with_columns(pl.lit(None, pl.Float64).alias(c) for c in SUMMARY_COLUMNS[5:]
                             if c not in wide.columns)
    return wide.select(SUMMARY_COLUMNS + percentile_columns(wide))


def block_of_line(line: str) -> str | None:
    """``[READ], Operati`` → ``READ``: the metric a (possibly cut) report line belongs to."""
    m = re.match(r"^\[(?P<metric>[^\],\n]+)\]", line.strip())
    return m.group("metric") if m else None


# Lines every latency block of a structure prints, whatever the run (besides the
# percentiles, which are compared with the other blocks of the same report).
_LATENCY_LINES = ("Operations", "AverageLatency(us)", "MinLatency(us)", "MaxLatency(us)")
_BLOCK_MINIMUM = {"": _LATENCY_LINES, "hdrhistogram": _LATENCY_LINES,
                  "histogram": _LATENCY_LINES, "raw": ("Total Operations", "Average", "Min", "Max")}
_OVERALL_LINES = ("RunTime(ms)", "Throughput(ops/sec)")


def incomplete_blocks(report: pl.DataFrame) -> list[str]:
    """Blocks of one final report that lack lines their kind always has, one phrase each:
    ``[UPDATE] lacks 99thPercentileLatency(us)``.

    YCSB prints every latency block of one measurement type with the same lines (the
    ``Return=`` lines aside), so a block with fewer lines than its siblings — or than the
    minimum of its type — was cut short. ``[OVERALL]`` always has run time and throughput.
    """
    problems = []
    blocks: dict[str, list[str]] = {}
    for m, x in report.select("metric", "measurement").rows():
        lines = blocks.setdefault(m, [])
        if not x.startswith("Return="):
            lines.append(x)
    overall_lines = blocks.pop("OVERALL", None)
    if overall_lines is not None:
        missing = [x for x in _OVERALL_LINES if x not in overall_lines]
        if missing:
            problems.append(f"[OVERALL] lacks {', '.join(missing)}")
    by_structure: dict[str, dict[str, list[str]]] = {}
    for metric, lines in blocks.items():
        if metric.startswith(_GC_PREFIX):
            continue
        # measurementtype=raw names no structure
        structure = "raw" if "Total Operations" in lines else split_metric(metric).structure
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
