"""Real ListAppendWorkload output (cassandra4 on a local Cassandra): single APPEND/READ_LIST
operations, and BATCH_APPEND/BATCH_READ_LIST with their -RECORDS blocks."""

from pathlib import Path

import polars as pl
import pytest
from conftest import LIST_APPEND, by, client_reports, record_statuses
from ycsb_analysis.batched import records_table
from ycsb_analysis.loader import load
from ycsb_analysis.merge import merge_clients
from ycsb_analysis.summary import run_summary


@pytest.fixture(scope="module")
def runs():
    return {r.phase: r for r in load([str(LIST_APPEND)])}


def phase_path(run):
    return Path(run.path)


def test_every_list_append_phase_loads_with_its_hdr_logs(runs):
    assert set(runs) == {"load", "run", "batch-run"}
    for run in runs.values():
        (client,) = run.clients
        assert client.output.has_report and client.hdr_logs and not run.warnings


@pytest.mark.parametrize("op", ["BATCH_APPEND", "BATCH_READ_LIST"])
def test_batched_list_operations_give_records_per_second_from_their_records_blocks(runs, op):
    run = runs["batch-run"]
    rec = by(records_table(run), "operation")[op]
    (report,) = client_reports(phase_path(run))
    statuses = record_statuses(report, op)
    assert rec["records_source"] == "recorded"
    assert rec["records_ok"] == statuses["OK"]
    assert rec["records_not_ok"] == sum(n for s, n in statuses.items() if s != "OK")
    assert rec["records_per_s"] == pytest.approx(
        statuses["OK"] / (report[("OVERALL", "RunTime(ms)")] / 1000)
    )
    assert rec["per_record_latency_us"] == pytest.approx(
        report[(op, "AverageLatency(us)")] * report[(op, "Operations")] / statuses["OK"])


def test_single_list_operations_are_plain_operations_with_their_statuses(runs):
    run = runs["run"]
    assert records_table(run).is_empty()
    returns = merge_clients(run).returns
    (report,) = client_reports(phase_path(run))
    for op in ("APPEND", "READ_LIST"):
        own = {
            m[len("Return=") :]: n
            for (metric, m), n in report.items()
            if metric == op and m.startswith("Return=")
        }
        mine = returns.filter(pl.col("operation") == op)
        assert dict(mine.select("status", "count").rows()) == own
    assert run_summary(run)["main_operation"] in {"APPEND", "READ_LIST"}


def test_the_load_appends_every_record_once(runs):
    ops = by(merge_clients(runs["load"]).operations, "metric")
    assert ops["APPEND"]["operations"] == int(runs["load"].properties["recordcount"])
