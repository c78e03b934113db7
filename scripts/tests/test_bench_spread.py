"""scripts/bench-spread (ycsbpack.bench.bench_spread) on a kept real run of trials
(analysis/tests/fixtures/trials-s4): its per-trial figures are the report's, and the window
noise it predicts follows its formula."""

import math

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
