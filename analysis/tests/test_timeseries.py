"""Figures over time: several clients' latency merged per interval, batches in records/s."""

import numpy as np
import polars as pl
import pytest
from conftest import OUTPUTS, by, phase_dir
from ycsb_analysis.batched import records_table
from ycsb_analysis.loader import load, load_phase_dir
from ycsb_analysis.readers.hdr import interval_percentiles
from ycsb_analysis.timeseries import (
    latency_lines,
    merged_latency_over_time,
    operation_throughput,
    record_throughput,
)


def test_latency_of_several_clients_is_merged_per_interval_from_their_hdr_logs():
    run = load_phase_dir(phase_dir("run-clients-3"))
    read = merged_latency_over_time(run).filter(pl.col("metric") == "READ")
    # Every operation of every client lands in exactly one merged interval.
    assert read["count"].sum() == sum(by(c.output.summary, "metric")["READ"]["operations"]
                                      for c in run.clients)
    # One merged line, not one per client: each interval merges the three clients' intervals.
    assert len(read) < sum(len(c.hdr_logs["READ"].intervals) for c in run.clients)
    assert (read["clients"] == 3).all()


def test_merging_the_intervals_of_one_client_gives_its_own_interval_percentiles():
    run = load_phase_dir(phase_dir("run-threads-4"))
    read = merged_latency_over_time(run).filter(pl.col("metric") == "READ")
    log = run.clients[0].hdr_logs["READ"]
    own = interval_percentiles(log).filter(log.intervals["count"] > 0)
    assert read["p99"].to_list() == own["p99"].to_list()
    assert read["count"].to_list() == log.intervals.filter(pl.col("count") > 0)["count"].to_list()


def test_batch_operations_over_time_are_in_records_per_second():
    run = load_phase_dir(phase_dir("batch-run"))
    records = record_throughput(run)
    batches = operation_throughput(run)
    rec = by(records_table(run), "operation")
    for op in ("BATCH_READ", "BATCH_UPDATE"):
        r = records.filter(pl.col("operation") == op)["records_per_s"]
        b = batches.filter(pl.col("metric") == op)["ops_per_s"]
        assert len(r) == len(b) > 0
        # Status lines count batches; each is scaled by the phase's OK records per batch.
        assert r.to_numpy() == pytest.approx(
            b.to_numpy() * rec[op]["records_ok"] / rec[op]["batches"]
        )
    assert "READ" not in set(records["operation"])


@pytest.mark.parametrize("name", ["hdrhistogram+histogram.err", "hdrhistogram+raw.err"])
def test_an_operation_measured_in_two_structures_is_drawn_from_one(name):
    """HdrREAD beside BucketREAD (or RawREAD) in every status entry: the latency line of READ
    is the HdrREAD rows alone, each with its percentiles, one per entry."""
    (run,) = load([str(OUTPUTS / name)])
    meas = run.clients[0].output.status_measurements
    lines = latency_lines(run, False, ["average_latency_us", "p99"])
    assert {"READ", "UPDATE"} <= set(lines)
    for op, per_client in lines.items():
        ((_, t_s, values),) = per_client
        hdr = meas.filter((pl.col("metric") == f"Hdr{op}") & (pl.col("count") > 0))
        assert len(t_s) == len(hdr) >= 3 and np.all(np.diff(t_s) > 0)
        assert np.array_equal(values["p99"], hdr["p99"].to_numpy())
        assert not np.isnan(values["p99"]).any()
