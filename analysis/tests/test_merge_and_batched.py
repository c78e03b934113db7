"""Merging the clients of a phase (sums, weighted averages, min/max, percentiles) and
records/s of batched phases."""

import math
import re

import numpy as np
import pytest

from conftest import SEED, phase_dir
from ycsb_analysis.batched import records_table
from ycsb_analysis.loader import load, load_phase_dir
from ycsb_analysis.merge import PERCENTILES_MERGED, merge_clients


def seed_hbase(batchsize=1):
    (run,) = load([f"hbase={SEED / 'hbase-insert-4-clients.txt'}"], batchsize=batchsize)
    return run


def test_four_seed_clients_merge_by_the_rules():
    run = seed_hbase()
    clients = [c.output for c in run.clients]
    m = merge_clients(run)
    ins = m.operations.set_index("metric").loc["INSERT"]
    per = [c.summary.set_index("metric").loc["INSERT"] for c in clients]
    assert ins["operations"] == sum(p["operations"] for p in per)
    assert ins["min_latency_us"] == min(p["min_latency_us"] for p in per)
    assert ins["max_latency_us"] == max(p["max_latency_us"] for p in per)
    weights = [p["operations"] for p in per]
    assert ins["average_latency_us"] == pytest.approx(np.average([p["average_latency_us"] for p in per],
                                                                 weights=weights))
    assert m.overall["throughput_ops_per_s"] == pytest.approx(sum(c.overall["throughput_ops_per_s"] for c in clients))
    assert m.overall["runtime_ms"] == max(c.overall["runtime_ms"] for c in clients)
    assert m.returns.set_index("status").loc["OK", "count"] == 4_000_000


def test_percentiles_of_several_clients_without_hdr_logs_are_unavailable_not_averaged():
    ins = merge_clients(seed_hbase()).operations.set_index("metric").loc["INSERT"]
    assert math.isnan(ins["p95"]) and math.isnan(ins["p99"])
    assert ins["percentiles_source"].startswith("unavailable")


def test_percentiles_of_several_clients_come_from_their_merged_hdr_logs():
    run = load_phase_dir(phase_dir("run-clients-3"))
    ops = merge_clients(run).operations.set_index("metric")
    read = ops.loc["READ"]
    assert read["percentiles_source"] == PERCENTILES_MERGED
    client_p99 = [c.output.summary.set_index("metric").loc["READ", "p99"] for c in run.clients]
    assert min(client_p99) <= read["p99"] <= max(client_p99)
    assert read["operations"] == sum(c.output.summary.set_index("metric").loc["READ", "operations"]
                                     for c in run.clients)


def test_pooled_variance_of_histogram_clients():
    # Two identical clients: pooled variance equals each client's variance.
    from ycsb_analysis.loader import Client, Run
    from conftest import OUTPUTS
    from ycsb_analysis.multi_output import parse_file
    (out,) = parse_file(OUTPUTS / "histogram.out")
    run = Run("x", {"phase": "x", "clients": 2}, [Client(0, out), Client(1, out)])
    ops = merge_clients(run).operations.set_index("metric")
    own = out.summary.set_index("metric")
    assert ops.loc["READ", "latency_variance_us"] == pytest.approx(own.loc["READ", "latency_variance_us"])
    assert ops.loc["READ", "throughput_ops_per_s"] == pytest.approx(
        2 * own.loc["READ", "operations"] / (out.overall["runtime_ms"] / 1000))


def _records_ok_and_runtime(path):
    text = path.read_text()
    ok = int(re.search(r"^\[BATCH_READ-RECORDS\], Return=OK, (\d+)$", text, re.M).group(1))
    runtime = float(re.search(r"^\[OVERALL\], RunTime\(ms\), (\d+)$", text, re.M).group(1))
    return ok, runtime


def test_records_per_second_of_a_batched_phase_uses_the_recorded_records():
    d = phase_dir("batch-read")
    run = load_phase_dir(d)
    rec = records_table(run).set_index("operation").loc["BATCH_READ"]
    expected = sum(ok / (rt / 1000) for ok, rt in map(_records_ok_and_runtime, sorted(d.glob("client-*.out"))))
    assert rec["records_source"] == "recorded"
    assert rec["records_per_s"] == pytest.approx(expected)
    assert rec["records_not_ok"] > 0      # the fixture workload reports some NOT_FOUND records
    assert rec["per_record_latency_us"] == pytest.approx(
        rec["batch_average_latency_us"] * rec["batches"] / rec["records_ok"])


def test_without_a_records_block_the_batchsize_is_used_and_said():
    run = load_phase_dir(phase_dir("batch-read-unrecorded"))
    rec = records_table(run).set_index("operation").loc["BATCH_READ"]
    assert rec["records_source"] == "batchsize"
    assert rec["records_ok"] == rec["batches"] * run.batchsize == rec["batches"] * 10


def test_seed_hbase_batches_of_100_give_the_articles_records_per_second():
    rec = records_table(seed_hbase(batchsize=100)).iloc[0]
    # Seed 001 / S2: "~858 ops/s each = ~343k records/s", "1162 µs (divide by 100)".
    assert rec["records_per_s"] == pytest.approx(343_000, rel=0.01)
    assert rec["per_record_latency_us"] == pytest.approx(1162, rel=0.01)


def test_an_unbatched_phase_has_no_records_table():
    assert records_table(load_phase_dir(phase_dir("run-threads-2"))).empty
