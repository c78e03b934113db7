"""The final report: every measurement type, failed/intended blocks, odd numbers."""

import math

import polars as pl
import pytest
from conftest import OUTPUTS, SEED, by
from ycsb_analysis.readers.final_report import split_metric
from ycsb_analysis.readers.output import parse_file, parse_text

MEASUREMENT_TYPES = ["hdrhistogram", "histogram", "timeseries", "raw", "hdrhistogram+histogram",
                     "hdrhistogram+raw"]


def only(path):
    (out,) = parse_file(path)
    return out


@pytest.mark.parametrize("mtype", MEASUREMENT_TYPES)
def test_every_measurement_type_yields_ok_and_failed_latencies_for_reads_and_updates(mtype):
    out = only(OUTPUTS / f"{mtype}.out")
    s = out.summary
    for op in ("READ", "UPDATE"):
        ok = s.filter((pl.col("operation") == op) & ~pl.col("failed"))
        failed = s.filter((pl.col("operation") == op) & pl.col("failed"))
        assert ok.height and failed.height
        assert (ok["operations"] > 0).all()
        assert (ok["min_latency_us"] <= ok["average_latency_us"]).all()
        assert (ok["average_latency_us"] <= ok["max_latency_us"]).all()


@pytest.mark.parametrize("mtype", MEASUREMENT_TYPES)
def test_return_counts_add_up_to_ok_plus_failed_operations(mtype):
    out = only(OUTPUTS / f"{mtype}.out")
    s, r = out.summary, out.returns
    # Two-in-one types measure every operation twice (Hdr + Bucket/Raw halves): take one half.
    s = s.filter(pl.col("structure").is_in(["", "hdrhistogram"]))
    for op in ("READ", "UPDATE"):
        measured = s.filter((pl.col("operation") == op) & ~pl.col("intended"))["operations"].sum()
        assert r.filter(pl.col("operation") == op)["count"].sum() == measured


def test_overall_throughput_is_operations_over_runtime():
    out = only(OUTPUTS / "hdrhistogram.out")
    o = out.overall
    s = out.summary
    ops = s.filter(pl.col("operation").is_in(["READ", "UPDATE"]))["operations"].sum()
    assert o["throughput_ops_per_s"] == pytest.approx(ops / (o["runtime_ms"] / 1000), rel=1e-9)


def test_histogram_type_reports_latency_variance_and_raw_type_its_fixed_percentiles():
    hist = only(OUTPUTS / "histogram.out").summary
    assert by(hist, "metric")["READ"]["latency_variance_us"] > 0
    raw = only(OUTPUTS / "raw.out").summary
    assert {"p1", "p5", "p50", "p90", "p99", "p99.9", "p99.99"} <= set(raw.columns)
    row = by(raw, "metric")["READ"]
    assert row["p1"] <= row["p50"] <= row["p99"] <= row["p99.99"] <= row["max_latency_us"]


def test_two_in_one_types_are_split_into_their_halves():
    s = only(OUTPUTS / "hdrhistogram+histogram.out").summary
    assert set(s.filter(pl.col("operation") == "READ")["structure"]) == {"hdrhistogram",
                                                                         "histogram"}
    s = only(OUTPUTS / "hdrhistogram+raw.out").summary
    assert set(s.filter(pl.col("operation") == "READ")["structure"]) == {"hdrhistogram", "raw"}


def test_interval_both_gives_intended_blocks_and_configured_percentiles():
    s = only(OUTPUTS / "interval-both.out").summary
    intended = s.filter("intended")
    assert {"READ", "UPDATE"} <= set(intended["operation"])
    # The run used -p hdrhistogram.percentiles=50,95,99,99.9
    assert {"p50", "p95", "p99", "p99.9"} <= set(s.columns)
    row = by(s, "metric")["Intended-READ"]
    assert row["p50"] <= row["p95"] <= row["p99"] <= row["p99.9"]


def test_timeseries_rows_are_parsed_apart_from_the_summary():
    out = only(OUTPUTS / "timeseries.out")
    ts = out.timeseries
    assert set(ts["metric"]) >= {"READ", "UPDATE"}
    s = by(out.summary, "metric")
    for (metric,), g in ts.group_by("metric"):
        assert (g["average_latency_us"] <= s[metric]["max_latency_us"]).all()
    assert (ts["time_ms"] % 1000 == 0).all()  # default timeseries.granularity=1000


def test_gc_and_jvm_lines_are_kept_as_figures():
    gc = only(SEED / "cassandra-insert-1-client.txt").gc
    count = pl.col("measurement") == "Count"
    total = gc.filter((pl.col("metric") == "TOTAL_GCs") & count)["value"]
    parts = gc.filter(pl.col("metric").str.starts_with("TOTAL_GCS_") & count)["value"]
    assert total[0] == parts.sum()


def test_seed_cassandra_client_figures_match_the_article():
    out = only(SEED / "cassandra-insert-1-client.txt")
    ins = by(out.summary, "metric")["INSERT"]
    # Seed 001 / scenarios.md S2: 31,692 ops/s, avg 3114 µs, p95 5007 µs, p99 33,439 µs.
    assert round(out.overall["throughput_ops_per_s"]) == 31692
    assert round(ins["average_latency_us"]) == 3114
    assert (ins["p95"], ins["p99"]) == (5007, 33439)


def test_old_integer_style_nan_and_long_max_are_understood():
    text = "\n".join([
        "[OVERALL], RunTime(ms), 20323.0",        # YCSB 0.12 printed longs like this
        "[OVERALL], Throughput(ops/sec), 49.20533386803129",
        "[READ], Operations, 1000.0",
        "[READ-FAILED], Operations, 0",
        "[READ-FAILED], AverageLatency(us), NaN",
        "[READ-FAILED], MinLatency(us), 9223372036854775807",
        "[READ-FAILED], MaxLatency(us), 0",
    ])
    (out,) = parse_text(text)
    assert out.overall["runtime_ms"] == 20323
    s = by(out.summary, "metric")
    assert s["READ"]["operations"] == 1000
    assert math.isnan(s["READ-FAILED"]["average_latency_us"])
    assert math.isnan(s["READ-FAILED"]["min_latency_us"])


@pytest.mark.parametrize("name, expected", [
    ("READ", ("READ", False, False, "")),
    ("READ-FAILED", ("READ", True, False, "")),
    ("Intended-UPDATE-FAILED", ("UPDATE", True, True, "")),
    ("HdrREAD", ("READ", False, False, "hdrhistogram")),
    ("BucketSCAN", ("SCAN", False, False, "histogram")),
    ("RawINSERT", ("INSERT", False, False, "raw")),
    ("BATCH_READ-RECORDS", ("BATCH_READ-RECORDS", False, False, "")),
    ("Hdrfoo", ("Hdrfoo", False, False, "")),
])
def test_metric_names_split_into_operation_failed_intended_structure(name, expected):
    m = split_metric(name)
    assert (m.operation, m.failed, m.intended, m.structure) == expected


@pytest.mark.parametrize("exporter", ["exporter-json.json", "exporter-json-array.json"])
def test_json_exporters_give_the_same_frame_as_a_text_report(exporter):
    out = only(OUTPUTS / exporter)
    assert out.overall["runtime_ms"] > 0
    s = out.summary
    assert {"READ", "UPDATE"} <= set(s["operation"])
    r = out.returns
    for op in ("READ", "UPDATE"):
        measured = s.filter(pl.col("operation") == op)["operations"].sum()
        assert r.filter(pl.col("operation") == op)["count"].sum() == measured
    assert not s["operations"].is_null().any()
