"""Merging the clients of a phase (sums, weighted averages, min/max, percentiles) and
records/s of batched phases."""

import math
from datetime import timedelta, timezone

import numpy as np
import polars as pl
import pytest
from conftest import SEED, by, client_reports, phase_dir, record_statuses
from hdrh.histogram import HdrHistogram
from ycsb_analysis.batched import records_table
from ycsb_analysis.loader import load, load_phase_dir
from ycsb_analysis.merge import PERCENTILES_MERGED, merge_clients
from ycsb_analysis.summary import run_summary
from ycsb_analysis.timeseries import record_throughput


def seed_hbase(batchsize=1):
    (run,) = load([f"hbase={SEED / 'hbase-insert-4-clients.txt'}"], batchsize=batchsize)
    return run


def test_four_seed_clients_merge_by_the_rules():
    run = seed_hbase()
    clients = [c.output for c in run.clients]
    m = merge_clients(run)
    ins = by(m.operations, "metric")["INSERT"]
    per = [by(c.summary, "metric")["INSERT"] for c in clients]
    assert ins["operations"] == sum(p["operations"] for p in per)
    assert ins["min_latency_us"] == min(p["min_latency_us"] for p in per)
    assert ins["max_latency_us"] == max(p["max_latency_us"] for p in per)
    weights = [p["operations"] for p in per]
    assert ins["average_latency_us"] == pytest.approx(
        np.average([p["average_latency_us"] for p in per], weights=weights)
    )
    assert m.overall["throughput_ops_per_s"] == pytest.approx(
        sum(c.overall["throughput_ops_per_s"] for c in clients)
    )
    assert m.overall["runtime_ms"] == max(c.overall["runtime_ms"] for c in clients)
    assert by(m.returns, "status")["OK"]["count"] == 4_000_000


def test_percentiles_of_several_clients_without_hdr_logs_are_unavailable_not_averaged():
    ins = by(merge_clients(seed_hbase()).operations, "metric")["INSERT"]
    assert math.isnan(ins["p95"]) and math.isnan(ins["p99"])
    assert ins["percentiles_source"].startswith("unavailable")


def test_percentiles_of_several_clients_come_from_their_merged_hdr_logs():
    run = load_phase_dir(phase_dir("run-clients-3"))
    read = by(merge_clients(run).operations, "metric")["READ"]
    assert read["percentiles_source"] == PERCENTILES_MERGED
    client_p99 = [by(c.output.summary, "metric")["READ"]["p99"] for c in run.clients]
    assert min(client_p99) <= read["p99"] <= max(client_p99)
    assert read["operations"] == sum(
        by(c.output.summary, "metric")["READ"]["operations"] for c in run.clients
    )


@pytest.mark.parametrize("metric", ["BATCH_READ", "BATCH_UPDATE"])
def test_merged_p99_is_the_p99_of_the_clients_added_histograms(metric):
    # Computed here without the package's own decoder: every interval of every client's .hdr
    # log (V2 payloads, HdrHistogram 2.1.12) decoded by the hdrh library and added into one
    # histogram. Java's getValueAtPercentile takes rank ceil(p·N); hdrh rounds, so ask hdrh
    # for the percentile whose rounded rank is exactly that one.
    d = phase_dir("batch-run")
    run = load_phase_dir(d)
    row = by(merge_clients(run).operations, "metric")[metric]
    parts = [
        HdrHistogram.decode(line.split(",")[3])
        for f in sorted((d / "hdr").glob(f"client-*-{metric}.hdr"))
        for line in f.read_text().splitlines()
        if line[:1].isdigit()
    ]
    total = HdrHistogram(
        parts[0].lowest_trackable_value, 3_600_000_000, parts[0].significant_figures
    )
    for h in parts:
        total.add(h)
    n = total.get_total_count()
    assert n == row["operations"]
    expected = total.get_value_at_percentile(max(1, math.ceil(0.99 * n)) * 100 / n)
    assert row["p99"] == expected
    # an average of the clients' own p99 (plain or weighted) is a different figure here
    per = [by(c.output.summary, "metric")[metric] for c in run.clients]
    assert len(per) == 2
    assert expected != pytest.approx(np.mean([p["p99"] for p in per]))
    assert expected != pytest.approx(
        np.average([p["p99"] for p in per], weights=[p["operations"] for p in per])
    )


def test_pooled_variance_of_histogram_clients():
    # Two identical clients: pooled variance equals each client's variance.
    from conftest import OUTPUTS
    from ycsb_analysis.model import Client, Run
    from ycsb_analysis.readers.output import parse_file

    (out,) = parse_file(OUTPUTS / "histogram.out")
    run = Run("x", {"phase": "x", "clients": 2}, [Client(0, out), Client(1, out)])
    ops = by(merge_clients(run).operations, "metric")
    own = by(out.summary, "metric")
    assert ops["READ"]["latency_variance_us"] == pytest.approx(
        own["READ"]["latency_variance_us"]
    )
    assert ops["READ"]["throughput_ops_per_s"] == pytest.approx(
        2 * own["READ"]["operations"] / (out.overall["runtime_ms"] / 1000)
    )


# batch-run: the project's BatchedWorkload (50/50 BATCH_READ/BATCH_UPDATE of 10 records, two
# clients) on basic, which cannot batch: every batch ran as 10 single operations, and FixtureDB
# answered some reads NOT_FOUND and some updates ERROR.


@pytest.mark.parametrize("op", ["BATCH_READ", "BATCH_UPDATE"])
def test_records_per_second_of_a_real_batched_phase_are_its_ok_records_over_run_time(op):
    rec = by(records_table(load_phase_dir(phase_dir("batch-run"))), "operation")[op]
    reports = client_reports("batch-run")
    expected = sum(
        record_statuses(r, op)["OK"] / (r[("OVERALL", "RunTime(ms)")] / 1000) for r in reports
    )
    assert rec["records_source"] == "recorded"
    assert rec["records_per_s"] == pytest.approx(expected)
    assert rec["records_ok"] == sum(record_statuses(r, op)["OK"] for r in reports)


@pytest.mark.parametrize("op", ["BATCH_READ", "BATCH_UPDATE"])
def test_per_record_latency_is_the_time_spent_in_batches_over_the_ok_records(op):
    rec = by(records_table(load_phase_dir(phase_dir("batch-run"))), "operation")[op]
    reports = client_reports("batch-run")
    batch_time_us = sum(r[(op, "AverageLatency(us)")] * r[(op, "Operations")] for r in reports)
    ok_records = sum(record_statuses(r, op)["OK"] for r in reports)
    assert rec["per_record_latency_us"] == pytest.approx(batch_time_us / ok_records)
    assert rec["batches"] == sum(r[(op, "Operations")] for r in reports)


def test_records_not_found_or_failed_are_counted_apart_from_the_ok_records():
    rec = by(records_table(load_phase_dir(phase_dir("batch-run"))), "operation")
    reports = client_reports("batch-run")
    for op, status in (("BATCH_READ", "NOT_FOUND"), ("BATCH_UPDATE", "ERROR")):
        not_ok = sum(n for r in reports for s, n in record_statuses(r, op).items() if s != "OK")
        assert not_ok == sum(record_statuses(r, op).get(status, 0) for r in reports) > 0
        assert rec[op]["records_not_ok"] == not_ok


def test_single_operations_of_a_batch_run_as_singles_are_kept_but_not_taken_as_batches():
    run = load_phase_dir(phase_dir("batch-run"))
    assert set(records_table(run)["operation"]) == {"BATCH_READ", "BATCH_UPDATE"}
    returns = merge_clients(run).returns
    for single, batch in (("READ", "BATCH_READ-RECORDS"), ("UPDATE", "BATCH_UPDATE-RECORDS")):
        # Each record of a batch was one single operation: the same statuses, counted twice.
        def by_status(op):
            return dict(returns.filter(pl.col("operation") == op).select("status", "count").rows())
        assert by_status(single) == by_status(batch)
    summary = run_summary(run)
    assert summary["main_operation"] in {"BATCH_READ", "BATCH_UPDATE"}
    assert summary["records_per_s_whole_run"] == pytest.approx(
        records_table(run)["records_per_s"].sum()
    )


def test_a_batched_load_inserts_every_record_once_in_batches_of_the_batchsize():
    run = load_phase_dir(phase_dir("batch-load"))
    rec = by(records_table(run), "operation")["BATCH_INSERT"]
    # Two clients split the key space with insertstart/insertcount: together, recordcount.
    assert rec["records_ok"] == int(run.properties["recordcount"]) == rec["batches"] * run.batchsize
    over_time = record_throughput(run)
    assert set(over_time["operation"]) == {"BATCH_INSERT"}
    assert (over_time["records_per_batch"] == 10).all()


def test_without_a_records_block_the_batchsize_is_used_and_said():
    run = load_phase_dir(phase_dir("batch-read-unrecorded"))
    rec = by(records_table(run), "operation")["BATCH_READ"]
    assert rec["records_source"] == "batchsize"
    assert rec["records_ok"] == rec["batches"] * run.batchsize == rec["batches"] * 10


def test_seed_hbase_batches_of_100_give_the_articles_records_per_second():
    rec = records_table(seed_hbase(batchsize=100)).row(0, named=True)
    # Seed 001 / S2: "~858 ops/s each = ~343k records/s", "1162 µs (divide by 100)".
    assert rec["records_per_s"] == pytest.approx(343_000, rel=0.01)
    assert rec["per_record_latency_us"] == pytest.approx(1162, rel=0.01)


def test_an_unbatched_phase_has_no_records_table():
    assert records_table(load_phase_dir(phase_dir("run-threads-2"))).is_empty()


def test_throughput_while_every_client_ran_comes_from_the_status_lines_on_one_clock():
    import copy

    from ycsb_analysis.merge import all_running_throughput

    run = load_phase_dir(phase_dir("run-clients-3"))
    got = all_running_throughput(run)
    runtimes = [c.output.overall["runtime_ms"] / 1000 for c in run.clients]
    assert 0 < got["window_s"] <= min(runtimes)
    # by hand: each client's cumulative count at the window's ends, interpolated
    curves = []
    for c in run.clients:
        e = c.output.status_entries.sort("time")
        first = e["time"][0].replace(tzinfo=timezone.utc)
        t = [(x.replace(tzinfo=timezone.utc) - first).total_seconds() for x in e["time"]]
        t0 = first.timestamp() - e["elapsed_s"][0]
        xs = [t0] + [first.timestamp() + d for d in t]
        ys = [0.0] + list(e["operations"].cast(float))
        curves.append((xs, ys))
    w0, w1 = max(x[0] for x, _ in curves), min(x[-1] for x, _ in curves)
    done = sum(np.interp(w1, x, y) - np.interp(w0, x, y) for x, y in curves)
    assert got["throughput_ops_per_s"] == pytest.approx(done / (w1 - w0))
    # a fleet client whose loader clock runs an hour ahead is put back on the coordinator's
    # clock: recorded as such, the window is the same; unrecorded, there is no common window
    ahead = copy.deepcopy(run)
    out = ahead.clients[0].output
    out.status_entries = out.status_entries.with_columns(pl.col("time") + timedelta(hours=1))
    assert math.isnan(all_running_throughput(ahead)["throughput_ops_per_s"])
    ahead.metadata["fleet"] = {
        "clients": [{"client": 0, "utc_offset_s": 0, "clock_offset_s": 3600}]
    }
    assert all_running_throughput(ahead)["throughput_ops_per_s"] == pytest.approx(
        got["throughput_ops_per_s"]
    )


def test_the_docs_merge_rules_table_is_the_one_the_code_declares():
    from pathlib import Path

    from ycsb_analysis.merge import MERGE_RULES

    page = Path(__file__).resolve().parents[2] / "docs" / "analysis.md"
    heading = "## Merge rules (several clients of one phase)"
    section = page.read_text(encoding="utf-8").split(heading, 1)[1]
    rows = [
        line
        for line in section.split("\n\n", 2)[1].splitlines()
        if line.startswith("| ") and not line.startswith(("| figure", "| ---"))
    ]
    table = {}
    for line in rows:
        figure, rule = [c.strip().replace("`", "") for c in line.strip("|").split(" | ")]
        table[figure] = rule
    assert table == MERGE_RULES
