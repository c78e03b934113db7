"""The final report: every measurement type, failed/intended blocks, odd numbers."""

import math

import pytest
from conftest import OUTPUTS, SEED
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
        ok = s[(s["operation"] == op) & ~s["failed"]]
        failed = s[(s["operation"] == op) & s["failed"]]
        assert not ok.empty and not failed.empty
        assert (ok["operations"] > 0).all()
        assert (ok["min_latency_us"] <= ok["average_latency_us"]).all()
        assert (ok["average_latency_us"] <= ok["max_latency_us"]).all()


@pytest.mark.parametrize("mtype", MEASUREMENT_TYPES)
def test_return_counts_add_up_to_ok_plus_failed_operations(mtype):
    out = only(OUTPUTS / f"{mtype}.out")
    s, r = out.summary, out.returns
    # Two-in-one types measure every operation twice (Hdr + Bucket/Raw halves): take one half.
    s = s[s["structure"].isin(["", "hdrhistogram"])]
    for op in ("READ", "UPDATE"):
        measured = s.loc[(s["operation"] == op) & ~s["intended"], "operations"].sum()
        assert r.loc[r["operation"] == op, "count"].sum() == measured


def test_overall_throughput_is_operations_over_runtime():
    out = only(OUTPUTS / "hdrhistogram.out")
    o = out.overall
    s = out.summary
    ops = s.loc[s["operation"].isin(["READ", "UPDATE"]), "operations"].sum()
    assert o["throughput_ops_per_s"] == pytest.approx(ops / (o["runtime_ms"] / 1000), rel=1e-9)


def test_histogram_type_reports_latency_variance_and_raw_type_its_fixed_percentiles():
    hist = only(OUTPUTS / "histogram.out").summary
    assert hist.loc[hist["metric"] == "READ", "latency_variance_us"].iloc[0] > 0
    raw = only(OUTPUTS / "raw.out").summary
    assert {"p1", "p5", "p50", "p90", "p99", "p99.9", "p99.99"} <= set(raw.columns)
    row = raw[raw["metric"] == "READ"].iloc[0]
    assert row["p1"] <= row["p50"] <= row["p99"] <= row["p99.99"] <= row["max_latency_us"]


def test_two_in_one_types_are_split_into_their_halves():
    s = only(OUTPUTS / "hdrhistogram+histogram.out").summary
    assert set(s.loc[s["operation"] == "READ", "structure"]) == {"hdrhistogram", "histogram"}
    s = only(OUTPUTS / "hdrhistogram+raw.out").summary
    assert set(s.loc[s["operation"] == "READ", "structure"]) == {"hdrhistogram", "raw"}


def test_interval_both_gives_intended_blocks_and_configured_percentiles():
    s = only(OUTPUTS / "interval-both.out").summary
    intended = s[s["intended"]]
    assert {"READ", "UPDATE"} <= set(intended["operation"])
    # The run used -p hdrhistogram.percentiles=50,95,99,99.9
    assert {"p50", "p95", "p99", "p99.9"} <= set(s.columns)
    row = s[(s["metric"] == "Intended-READ")].iloc[0]
    assert row["p50"] <= row["p95"] <= row["p99"] <= row["p99.9"]


def test_timeseries_rows_are_parsed_apart_from_the_summary():
    out = only(OUTPUTS / "timeseries.out")
    ts = out.timeseries
    assert set(ts["metric"]) >= {"READ", "UPDATE"}
    s = out.summary.set_index("metric")
    for metric, g in ts.groupby("metric"):
        assert (g["average_latency_us"] <= s.loc[metric, "max_latency_us"]).all()
    assert (ts["time_ms"] % 1000 == 0).all()  # default timeseries.granularity=1000


def test_gc_and_jvm_lines_are_kept_as_figures():
    gc = only(SEED / "cassandra-insert-1-client.txt").gc
    total = gc[(gc["metric"] == "TOTAL_GCs") & (gc["measurement"] == "Count")]["value"]
    parts = gc[gc["metric"].str.startswith("TOTAL_GCS_") & (gc["measurement"] == "Count")]["value"]
    assert total.iloc[0] == parts.sum()


def test_seed_cassandra_client_figures_match_the_article():
    out = only(SEED / "cassandra-insert-1-client.txt")
    ins = out.summary.set_index("metric").loc["INSERT"]
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
    s = out.summary.set_index("metric")
    assert s.loc["READ", "operations"] == 1000
    assert math.isnan(s.loc["READ-FAILED", "average_latency_us"])
    assert math.isnan(s.loc["READ-FAILED", "min_latency_us"])


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
        measured = s.loc[s["operation"] == op, "operations"].sum()
        assert r.loc[r["operation"] == op, "count"].sum() == measured
    assert not s["operations"].isna().any()
