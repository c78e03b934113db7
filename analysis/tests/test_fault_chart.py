"""S2's fault timelines, both databases side by side, from a real CI-scale run's verdicts
(fixtures/fault-s2: scripts/run-scenario S2 --db both --scale ci, node 3 crashed with SIGKILL
on each database; the phase directories keep metadata.json and the final report, not the .err
and .hdr files, so the fixture lives outside fixtures/results, whose phases are complete)."""

from pathlib import Path

from ycsb_analysis.charts import ALL_CHARTS, fault_timelines
from ycsb_analysis.charts.fault import fault_verdicts
from ycsb_analysis.loader import load

FIXTURE = Path(__file__).parent / "fixtures" / "fault-s2"
# the crash and the pause on Cassandra only (run-scenario S2 --db cassandra --scale ci --faults
# crash,pause, 2026-12-07), whose fault traffic measured intended latency too
# (measurement.interval=both: each second's p99 in the verdicts' client_timeline)
INTENDED = Path(__file__).parent / "fixtures" / "fault-s2-intended"


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


def test_with_intended_latency_each_database_gets_a_latency_row_under_its_batches(tmp_path):
    (verdict,) = fault_verdicts(load([str(INTENDED)])).values()
    seconds = [r["intended_p99_us"] for r in verdict["client_timeline"]]
    assert sum(1 for p in seconds if p) > 10
    crash, pause = fault_timelines(load([str(INTENDED)]), tmp_path)
    assert (crash.name, pause.name) == ("fault-timelines", "fault-pause-timelines")
    svg = crash.svg.read_text()
    assert "p99 of intended latency (ms)" in svg and "writes: p99 of intended latency" in svg
    # the pause's chart: each pause shaded, time 0 its first pause
    assert "paused 3 s" in pause.svg.read_text() and "paused 25 s" in pause.svg.read_text()
    # a run without intended latency keeps its one row
    (tmp_path / "old").mkdir()
    (old,) = fault_timelines(load([str(FIXTURE)]), tmp_path / "old")
    assert "p99 of intended latency" not in old.svg.read_text()
