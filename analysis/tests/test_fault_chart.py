"""S2's fault timelines, both databases side by side, from a real CI-scale run's verdicts
(fixtures/fault-s2: scripts/run-scenario S2 --db both --scale ci, node 3 crashed with SIGKILL
on each database; the phase directories keep metadata.json and the final report, not the .err
and .hdr files, so the fixture lives outside fixtures/results, whose phases are complete)."""

from pathlib import Path

from ycsb_analysis.charts import ALL_CHARTS, fault_timelines
from ycsb_analysis.charts.fault import fault_verdicts
from ycsb_analysis.loader import load

FIXTURE = Path(__file__).parent / "fixtures" / "fault-s2"


def test_both_fault_verdicts_are_found_next_to_their_phases():
    verdicts = fault_verdicts(load([str(FIXTURE)]))
    assert sorted(verdicts) == ["cassandra", "hbase"]
    assert all(v["signal"] == "SIGKILL" and v["failed"] == [] for v in verdicts.values())
    assert len(verdicts["hbase"]["client_timeline"]) > 20


def test_the_side_by_side_chart_is_drawn_and_part_of_every_report(tmp_path):
    charts = fault_timelines(load([str(FIXTURE)]), tmp_path)
    assert [c.name for c in charts] == ["fault-timelines"]
    assert charts[0].png.stat().st_size > 10_000 and charts[0].svg.exists()
    svg = charts[0].svg.read_text()
    assert "node 3 crash (SIGKILL)" in svg and "regions reopening" in svg
    assert fault_timelines in ALL_CHARTS


def test_runs_without_a_fault_phase_draw_no_fault_chart(tmp_path):
    runs = [r for r in load([str(FIXTURE)]) if r.database == "cassandra"]
    for r in runs:
        r.metadata["phase"] = "read-batch1"
    assert fault_timelines(runs, tmp_path) == []
