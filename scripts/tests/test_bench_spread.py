"""scripts/bench-spread (ycsbpack.bench.bench_spread) on a kept real run of trials
(analysis/tests/fixtures/trials-s4): its per-trial figures are the report's, and the window
noise it predicts follows its formula."""

import math
import shutil
from pathlib import Path

import pytest
from ycsbpack.bench import bench_spread
from ycsbpack.core.errors import ScriptError
from ycsbpack.core.paths import REPO_ROOT

TRIALS = REPO_ROOT / "analysis" / "tests" / "fixtures" / "trials-s4"


def test_the_trials_figures_are_the_reports_and_the_noise_follows_the_formula():
    from ycsb_analysis.loader import load
    from ycsb_analysis.summary import runs_summary
    found = bench_spread.spread(TRIALS)
    summary = runs_summary(load([str(TRIALS)], skipped=[]))
    assert {(s["side"], s["phase"]) for s in found} == {
        ("cassandra", "update-heavy-threads-4"), ("hbase", "update-heavy-threads-4")}
    for s in found:
        rows = [r["throughput_ops_per_s"] for r in summary.to_dicts()
                if (r["database"], r["phase"]) == (s["side"], s["phase"])]
        assert sorted(s["figures"]) == pytest.approx(sorted(rows))
        r = max(0.0, s["r1"])
        assert s["noise"] == pytest.approx(
            s["tick_cv"] / math.sqrt(s["ticks"]) * math.sqrt((1 + r) / (1 - r)))
        # twice the window, the noise over sqrt(2)
        assert s["noise_at"][40] == pytest.approx(s["noise_at"][20] / math.sqrt(2))


def test_a_directory_without_trials_says_so(tmp_path):
    with pytest.raises(ScriptError, match="no measured run phase with 2 or more trials"):
        bench_spread.main([str(tmp_path)])



def test_each_trials_server_cpu_and_work_per_cpu_second_come_from_its_window(tmp_path):
    # the kept trials with a servers.csv added to Cassandra's: node A 1.5 and 1.2 cores busy in
    # trials 1 and 2 (cpu_ms_total rising 3,000 and 2,400 ms every 2 s), node B 0.5 in both; a
    # last sample long after the window (at 10 cores) does not count
    from ycsb_analysis.loader import load
    from ycsb_analysis.servers import origin_s
    trials = tmp_path / "trials"
    shutil.copytree(TRIALS, trials)
    busy = {1: 1.5, 2: 1.2}
    for run in load([str(trials)], skipped=[]):
        if (run.database, run.phase) != ("cassandra", "update-heavy-threads-4"):
            continue
        t0, lines = origin_s(run), ["t_ms,node,metric,value"]
        for node, cores in (("a", busy[int(run.metadata["repeat"])]), ("b", 0.5)):
            lines += [f"{round((t0 + 2 * k) * 1000)},{node},cpu_ms_total,{2000 * cores * k:.0f}"
                      for k in range(200)]
            lines.append(f"{round((t0 + 10_000) * 1000)},{node},cpu_ms_total,{4_000_000}")
        (Path(run.path) / "servers.csv").write_text("\n".join(lines) + "\n")
    found = {s["side"]: s for s in bench_spread.spread(trials)}
    cassandra = found["cassandra"]
    assert sorted(cassandra["server_cores"]) == pytest.approx([1.7, 2.0])
    per_cpu = [f / c for f, c in zip(cassandra["figures"], cassandra["server_cores"])]
    assert cassandra["ops_per_cpu_s"] == pytest.approx(per_cpu)
    assert cassandra["ops_per_cpu_s_cv"] == pytest.approx(
        abs(per_cpu[0] - per_cpu[1]) / math.sqrt(2) / (sum(per_cpu) / 2))
    assert math.isnan(found["hbase"]["cores_cv"])  # no servers.csv: nothing to say
