"""Steady windows, 95% intervals and verdicts, on real outputs.

fixtures/verdicts/ (make_verdict_fixtures.sh): BasicDB runs of one configuration twice and of a
real change (32 instead of 8 threads); fixtures/cold-s4/: the quickstart's S4 phase measured
cold on a fresh local Cassandra and HBase (scripts/bench-warmup --modes cold).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from conftest import FIXTURES, by, read_csv
from ycsb_analysis import stability
from ycsb_analysis.cli import main
from ycsb_analysis.loader import load
from ycsb_analysis.model import WindowKind
from ycsb_analysis.summary import runs_summary
from ycsb_analysis.trials import mean_interval
from ycsb_analysis.uncertainty import Estimate, effective_n, ratio, t95, within_run
from ycsb_analysis.verdicts import aggregate, between_databases

VERDICTS = FIXTURES / "verdicts"
COLD = FIXTURES / "cold-s4"


def compare(tmp_path, current: list[str], baseline: list[str],
            options: tuple = ()) -> dict[str, dict]:
    """ycsb-report of plain outputs (the files under one label are trials of it): the rows of
    comparison.csv by figure."""
    out = tmp_path / "out"
    args = [f"run={VERDICTS / f}" for f in current] + ["-o", str(out), *options, "--baseline"]
    assert main(args + [f"run={VERDICTS / f}" for f in baseline]) == 0
    return by(read_csv(out / "comparison.csv"), "figure")


def _by_database(runs) -> dict[str, dict]:
    return {r["database"]: r for r in runs_summary(runs).to_dicts()}


def test_one_trial_per_side_shows_the_figures_but_draws_no_verdict(tmp_path):
    cmp = compare(tmp_path, ["threads-32.txt"], ["same-a.txt"])
    for figure in ("throughput", "mean latency"):
        row = cmp[figure]
        assert "one trial: no verdict" in row["verdict"], row["verdict"]  # (secondary: ...)
        assert not row["significant"] and math.isnan(row["ratio_low"])
    # the figures are there: 32 threads do about 4x the operations of 8 (BasicDB sleeps)
    assert cmp["throughput"]["ratio"] > 3


def test_the_same_configuration_in_two_trials_a_side_is_no_significant_difference(tmp_path):
    cmp = compare(tmp_path, ["same-c.txt", "same-d.txt"], ["same-a.txt", "same-b.txt"])
    for figure in ("throughput", "mean latency"):
        row = cmp[figure]
        assert "no significant difference" in row["verdict"], row["verdict"]
        assert row["ratio_low"] < 1 < row["ratio_high"]
        assert row["trials"] == "2/2"


def test_four_times_the_threads_is_called_faster_and_the_reverse_slower(tmp_path):
    more, fewer = ["threads-32.txt", "threads-32-b.txt"], ["same-a.txt", "same-c.txt"]
    # (a baseline is another session: its spread must be given for a difference to be called)
    spread = ("--session-spread", "1%")
    up = compare(tmp_path, more, fewer, spread)["throughput"]
    assert up["significant"] and up["ratio_low"] > 2  # (two trials a side: a wide interval)
    assert "higher than baseline (better)" in up["verdict"] and "unpaired" in up["verdict"]
    down = compare(tmp_path / "rev", fewer, more, spread)["throughput"]
    assert down["significant"] and down["ratio_high"] < 0.5
    assert "lower than baseline (worse)" in down["verdict"]


def test_the_interval_of_a_baseline_comparison_is_welchs_on_the_trials_logs(tmp_path):
    more, fewer = ["threads-32.txt", "threads-32-b.txt"], ["same-a.txt", "same-c.txt"]
    row = compare(tmp_path, more, fewer)["throughput"]
    s = runs_summary(load([f"run={VERDICTS / f}" for f in more + fewer]))
    la = np.log(s["throughput_ops_per_s"].to_numpy()[:2])
    lb = np.log(s["throughput_ops_per_s"].to_numpy()[2:])
    va, vb = la.var(ddof=1) / 2, lb.var(ddof=1) / 2
    df = (va + vb) ** 2 / (va**2 + vb**2)
    half = t95(df) * math.sqrt(va + vb)
    assert row["ratio"] == pytest.approx(math.exp(la.mean() - lb.mean()))
    assert row["ratio_low"] == pytest.approx(row["ratio"] * math.exp(-half))
    assert row["ratio_high"] == pytest.approx(row["ratio"] * math.exp(half))


def test_percentiles_without_hdr_logs_are_whole_run_figures(tmp_path):
    compare(tmp_path, ["same-b.txt"], ["same-a.txt"])
    summary = read_csv(tmp_path / "out" / "summary.csv")
    assert "p95/p99 over the whole run (no .hdr logs)" in summary["window"][0]


def test_a_plain_output_is_reported_over_its_steady_window_and_says_which():
    # same-b climbs over its first seconds (2.8k, 3.1k, 3.1k, then ~4.9k ops/s)
    (s,) = runs_summary(load([f"run={VERDICTS / 'same-b.txt'}"])).to_dicts()
    assert s["window"].startswith("steady window") and s["window_start_s"] > 0
    assert s["window_kind"] == WindowKind.STEADY
    # the start-up interval is left out: the steady figure is above YCSB's whole-run one
    assert s["throughput_ops_per_s"] > s["throughput_ops_per_s_whole_run"]
    assert (
        s["throughput_ops_per_s_ci_low"]
        < s["throughput_ops_per_s"]
        < s["throughput_ops_per_s_ci_high"]
    )


def test_skip_overrides_the_steady_window():
    (s,) = runs_summary(load([f"run={VERDICTS / 'same-a.txt'}"]), skip=10).to_dicts()
    assert s["window"].startswith("after the first 10 s (--skip)") and s["window_start_s"] == 10
    assert s["window_kind"] == WindowKind.SKIP
    assert 8 <= s["window_intervals"] <= 11


def test_a_cold_phase_that_climbs_throughout_is_flagged_not_steady():
    s = _by_database(load([str(COLD)]))
    assert s["cassandra"]["window"].startswith("whole run: NO steady window")
    assert s["cassandra"]["window_kind"] == WindowKind.NO_STEADY_WINDOW


def test_cassandra_vs_hbase_phases_that_never_became_steady_get_no_verdict(tmp_path):
    out = tmp_path / "out"
    assert main([str(COLD), "-o", str(out)]) == 0
    thr = by(read_csv(out / "verdicts.csv"), "figure")["throughput"]
    assert thr["ratio"] == pytest.approx(thr["cassandra"] / thr["hbase"])
    # both cold phases climb throughout: no verdict is drawn from them
    assert thr["verdict"].startswith("not judged: cassandra") and not thr["significant"]
    assert "NO steady window" in thr["verdict"]
    html = (out / "report.html").read_text()
    assert "Cassandra vs HBase" in html and "Figures with 95% confidence intervals" in html
    assert "shared one machine" in html


def test_the_runners_cpu_record_becomes_cpu_per_operation():
    s = _by_database(load([str(COLD)]))
    for db in ("cassandra", "hbase"):
        assert s[db]["client_cpu_us_per_op"] > 0 and s[db]["server_cpu_us_per_op"] > 0
        assert 0 < s[db]["client_core_share"] < 1 and s[db]["shared_machine"]


def test_clients_on_a_fleet_have_no_client_cpu_figure_but_keep_the_servers():
    # a Ray fleet's clients run on other machines: the runner records client_cpu_s = None
    runs = load([str(COLD)])
    for r in runs:
        r.metadata["cpu"]["client_cpu_s"] = None
    s = _by_database(runs)
    for db in ("cassandra", "hbase"):
        assert math.isnan(s[db]["client_cpu_us_per_op"]) and s[db]["client_bound"] is None
        assert s[db]["server_cpu_us_per_op"] > 0


def test_the_trend_rule():
    assert stability.trend([1, 2, 3, 4]) == pytest.approx(3 / 2.5)
    assert stability.is_stable([100, 102, 98, 101, 99])
    assert not stability.is_stable([451, 1801, 2384, 4209])  # the climb of the issue
    assert not stability.is_stable([100, 100, 100])  # too few samples
    assert stability.steady_start([10, 50, 100, 101, 99, 100, 102]) == 2
    assert stability.steady_start([1, 2, 3, 4, 5, 6]) is None


def test_t_quantiles_and_effective_sample_size():
    assert t95(1) == pytest.approx(12.706, abs=1e-3) and t95(10) == pytest.approx(2.228, abs=2e-3)
    assert t95(1000) == pytest.approx(1.962, abs=2e-3)
    rng = np.random.default_rng(1)
    ar = [0.0]
    for _ in range(399):
        ar.append(0.8 * ar[-1] + rng.normal())
    assert effective_n(ar) < 0.25 * len(ar)  # strongly autocorrelated
    assert effective_n(rng.normal(size=400)) > 0.8 * 400  # independent


def test_an_autocorrelated_series_gets_a_wider_interval_than_the_naive_one():
    rng = np.random.default_rng(2)
    x = [100.0]
    for _ in range(59):
        x.append(100 + 0.8 * (x[-1] - 100) + rng.normal())
    e = within_run(x)
    naive = np.std(x, ddof=1) / math.sqrt(len(x))
    assert e.se > 1.5 * naive


def test_trials_become_one_row_with_a_t_interval_and_keep_each_trials_figure():
    summary = pl.DataFrame([
        {"scenario": "s4", "timestamp": "t", "phase": "p", "database": "cassandra",
         "run": f"cassandra:p #{k}", "repeat": k, "window": "w", "throughput_ops_per_s": v}
        for k, v in ((1, 100.0), (2, 110.0), (3, 120.0))])
    (row,) = aggregate(summary)
    assert row["trials"] == 3 and row["throughput_ops_per_s"] == 110.0
    assert row["throughput_ops_per_s_ci_high"] - 110.0 == pytest.approx(t95(2) * 10 / math.sqrt(3))
    assert row["run"] == "cassandra:p (3 trials)"
    assert row["throughput_ops_per_s_trials"] == {1: 100.0, 2: 110.0, 3: 120.0}


def test_a_ratio_is_significant_only_when_its_interval_excludes_one():
    assert ratio(Estimate(112, 2, 20), Estimate(100, 2, 20)).significant
    assert not ratio(Estimate(102, 2, 20), Estimate(100, 2, 20)).significant
    assert math.isnan(mean_interval({1: 5.0})[1])  # one value: no interval


def test_between_databases_needs_both_in_the_same_run():
    summary = pl.DataFrame([
        {"scenario": "s4", "timestamp": ts, "phase": "p", "database": db, "run": db[0],
         "throughput_ops_per_s": v}
        for ts, db, v in (("a", "cassandra", 1.0), ("b", "hbase", 2.0))])
    assert between_databases(aggregate(summary)).is_empty()
