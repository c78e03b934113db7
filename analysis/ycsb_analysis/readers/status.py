"""Status lines (``-s``, every ``status.interval`` seconds): one row per entry and one row per
entry and metric.

A real entry with the default ``hdrhistogram`` type (stderr, trailing space kept)::

    2020-01-18 14:41:53:180 315 sec: 10000000 operations; 21589.1 current ops/sec; [CLEANUP:
    Count=100, Max=2236415, Min=1, Avg=22356.39, 90=4, 99=24, 99.9=2236415, 99.99=2236415]
    [INSERT: Count=119551, Max=174463, Min=273, Avg=2582.71, 90=3491, 99=16767, ...]

(one physical line). ``histogram``/``timeseries`` print ``[READ AverageLatency(us)=1.8]``,
``raw`` prints ``READ count: 6, average latency(us): 1.00``, and the two-in-one types spread
one entry over several physical lines (``[BucketREAD AverageLatency(us)=671.39] …`` on the
next). Numbers follow the JVM locale (``Avg=841,93``), the first interval may say ``∞ current
ops/sec``, an empty interval says ``Min=9223372036854775807, Avg=NaN``, a ``-l label`` is
glued to the date, and the last entry is often printed twice (it is read once). The patterns:
:mod:`.line_formats`.
"""

from __future__ import annotations

import polars as pl

from .final_report import latency, metric_parts, number, percentile_columns
from .line_formats import EST_MARKER, ESTIMATE_END, PERCENTILE_PAIR, STATUS_HEAD, STATUS_MEASUREMENT

TIME_FORMAT = "%Y-%m-%d %H:%M:%S:%3f"
TEXT_COLUMNS = ["metric", "operation", "structure", "format"]
EMPTY_ENTRIES = {"entry": pl.Int64, "label": pl.String, "time": pl.Datetime("ms"),
                 "elapsed_s": pl.Float64, "operations": pl.Float64,
                 "current_ops_per_s": pl.Float64, "est_completion": pl.String}
ENTRY_COLUMNS = list(EMPTY_ENTRIES)
EMPTY_MEASUREMENTS = {"entry": pl.Int64, "metric": pl.Categorical, "count": pl.Float64}


def joined_entries(lines: pl.DataFrame) -> pl.DataFrame:
    """Status heads and continuation lines (``line, text, head``, in line order) → one row
    per entry: ``entry`` (its head's line number) and its lines joined by spaces.
    Continuation lines before any head are left out (they cannot be placed)."""
    return (
        lines.with_columns(entry=pl.when("head").then("line").forward_fill())
        .drop_nulls("entry")
        .group_by("entry", maintain_order=True)
        .agg(pl.col("text").str.join(" "))
    )


def entries_and_measurements(joined: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Joined entries (``entry, text``) → the entry rows (:data:`ENTRY_COLUMNS` and the two
    ``fingerprint_*`` hashes of the entry's text, which find a repeated entry) and their
    measurement rows (``entry, metric, format, count, min/max/average latency, p…``)."""
    # (the head's groups read from the head alone: a capture over the whole entry is slow)
    head = joined["text"].str.extract_groups(STATUS_HEAD).struct.unnest()
    rest = joined["text"].str.replace(STATUS_HEAD + r"\s?", "")
    estimate = rest.str.strip_prefix(EST_MARKER)
    end = estimate.str.find(ESTIMATE_END)
    entries = pl.DataFrame({"entry": joined["entry"]}).with_columns(
        *head.select(
            "label",
            pl.col("time").str.to_datetime(TIME_FORMAT, time_unit="ms", strict=False),
            number(pl.col("elapsed_s")).alias("elapsed_s"),
            number(pl.col("operations")).alias("operations"),
            number(pl.col("current_ops_per_s")).alias("current_ops_per_s"),
        ),
        *pl.DataFrame({"rest": rest, "estimate": estimate, "end": end}).select(
            pl.when(pl.col("rest").str.starts_with(EST_MARKER)).then(
                pl.when(pl.col("end").is_null()).then(pl.col("estimate").str.strip_chars_end())
                .otherwise(pl.col("estimate").str.head(pl.col("end")))
            ).alias("est_completion"),
            pl.when(~pl.col("rest").str.starts_with(EST_MARKER)).then("rest")
            .when(pl.col("end").is_not_null())
            .then(pl.col("estimate").str.slice(pl.col("end") + 1))
            .str.strip_chars_end().alias("text"),
        ),
        fingerprint_1=joined["text"].hash(seed=1),
        fingerprint_2=joined["text"].hash(seed=2),
    ).filter(pl.col("time").is_not_null())
    return entries.drop("text"), _measurements(entries.select("entry", "text"))


def _measurements(entries: pl.DataFrame) -> pl.DataFrame:
    found = (
        entries.with_columns(pl.col("text").str.extract_all(STATUS_MEASUREMENT))
        .explode("text").drop_nulls("text")
    )
    g = found["text"].str.extract_groups(STATUS_MEASUREMENT).struct.unnest()
    rows = pl.DataFrame({"entry": found["entry"]}).with_columns(g.select(
        pl.coalesce("hdr_metric", "avg_metric", "raw_metric").alias("metric"),
        pl.when(pl.col("hdr_metric").is_not_null()).then(pl.lit("hdrhistogram"))
        .when(pl.col("avg_metric").is_not_null()).then(pl.lit("average"))
        .otherwise(pl.lit("raw")).alias("format"),
        number(pl.coalesce("hdr_count", "raw_count")).alias("count"),
        latency(pl.col("hdr_min")).alias("min_latency_us"),
        latency(pl.col("hdr_max")).alias("max_latency_us"),
        latency(pl.coalesce("hdr_avg", "avg_avg", "raw_avg")).alias("average_latency_us"),
        pl.col("hdr_percentiles"),
    )).with_row_index("row")
    pairs = (
        rows.select("row", pl.col("hdr_percentiles").str.extract_all(PERCENTILE_PAIR))
        .explode("hdr_percentiles").drop_nulls()
        .select("row", pl.col("hdr_percentiles").str.split_exact("=", 1)
                .struct.rename_fields(["p", "v"]).struct.unnest())
    )
    rows = rows.drop("hdr_percentiles")
    if pairs.height:
        named = pairs.with_columns(latency(pl.col("v")).alias("v"),
                                   (pl.lit("p") + pl.col("p")).alias("p"))
        wide = named.pivot(on="p", index="row", values="v", aggregate_function="first")
        rows = rows.join(wide.select("row", *percentile_columns(wide)), on="row", how="left")
    return rows.drop("row")


def entries_frame(entries: pl.DataFrame) -> pl.DataFrame:
    """The status entries, one row each: :data:`ENTRY_COLUMNS` (no label: empty text)."""
    return entries.select(ENTRY_COLUMNS).with_columns(pl.col("label").fill_null(""))


def measurements_frame(rows: pl.DataFrame, entries: pl.DataFrame) -> pl.DataFrame:
    """The measurement rows with each metric name's parts and their entry's ``time`` and
    ``elapsed_s``; text columns as Categoricals."""
    if not rows.height:
        return pl.DataFrame(schema=EMPTY_MEASUREMENTS)
    parts = metric_parts(rows["metric"].unique(maintain_order=True))
    return rows.join(parts, on="metric", how="left", maintain_order="left").join(
        entries.select("entry", "time", "elapsed_s"), on="entry", how="left",
        maintain_order="left",
    ).select(
        "entry", "time", "elapsed_s", "metric", "operation", "failed", "intended", "structure",
        "format", "count", "min_latency_us", "max_latency_us", "average_latency_us",
        *percentile_columns(rows),
    ).with_columns(pl.col(TEXT_COLUMNS).cast(pl.Categorical))
