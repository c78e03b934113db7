"""Several outputs in one file, foreign log lines between them, files with no output."""

import math

import pytest
from conftest import SEED, by
from ycsb_analysis.errors import UnreadableInput
from ycsb_analysis.readers.output import parse_file


def test_four_pasted_hbase_reports_are_four_clients_and_info_lines_are_counted():
    outs = parse_file(SEED / "hbase-insert-4-clients.txt")
    assert len(outs) == 4
    for out in outs:
        s = by(out.summary, "metric")
        assert s["INSERT"]["operations"] == 1_000_000  # "1 операция = 100 записей", 1M ops each
        assert out.returns["count"].sum() == 1_000_000
        assert out.overall["runtime_ms"] > 1_000_000
    # Three HBase INFO lines sit between each pair of reports.
    assert [o.skipped_lines for o in outs] == [0, 3, 3, 3]


def test_an_output_whose_runtime_line_was_lost_still_starts_a_new_client():
    outs = parse_file(SEED / "hbase-insert-4-clients-first-runtime-missing.txt")
    assert len(outs) == 4
    assert math.isnan(outs[0].overall["runtime_ms"])
    assert outs[0].overall["throughput_ops_per_s"] == pytest.approx(858.06343662987)
    assert all(not math.isnan(o.overall["runtime_ms"]) for o in outs[1:])


def test_status_line_before_a_report_belongs_to_that_report():
    (out,) = parse_file(SEED / "cassandra-insert-1-client.txt")
    assert len(out.status_entries) == 1
    assert out.status_entries["operations"][0] == 10_000_000
    assert set(out.status_measurements["operation"]) == {"CLEANUP", "INSERT"}


def test_a_file_without_ycsb_output_is_an_error_naming_the_file(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("20/01/19 13:19:16 INFO zookeeper.ZooKeeper: Session closed\nhello\n")
    with pytest.raises(UnreadableInput) as e:
        parse_file(p)
    assert str(p) in str(e.value) and "no YCSB output" in str(e.value)


def test_a_broken_json_exporter_file_is_an_error_naming_the_file(tmp_path):
    p = tmp_path / "export.json"
    p.write_text('[ {"metric": "OVERALL", "measurement": "RunTime(ms)", "value": 75 }, {')
    with pytest.raises(UnreadableInput) as e:
        parse_file(p)
    assert str(p) in str(e.value) and "JSON" in str(e.value)
