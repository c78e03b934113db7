"""Trials as the unit of a comparison (trials.py), the measured window's trend check
(stability.still_trends) and loads judged as whole jobs (steady_state.finite_job)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from conftest import FIXTURES, read_csv
from ycsb_analysis import stability
from ycsb_analysis.cli import main
from ycsb_analysis.loader import load
from ycsb_analysis.model import WindowKind
from ycsb_analysis.summary import runs_summary
from ycsb_analysis.trials import paired_ratio, pairs_needed, unpaired_ratio
from ycsb_analysis.uncertainty import t95
from ycsb_analysis.verdicts import aggregate, between_databases


def test_a_paired_ratio_is_the_t_interval_of_the_pairs_log_ratios():
    a = {1: 110.0, 2: 121.0, 3: 100.0, 4: 118.0}
    b = {1: 100.0, 2: 104.0, 3: 95.0, 4: 100.0}
    r = paired_ratio(a, b)
    d = np.log([a[k] / b[k] for k in (1, 2, 3, 4)])
    half = t95(3) * d.std(ddof=1) / 2
    assert r.pairs == 4 and r.ratio == pytest.approx(math.exp(d.mean()))
    assert (r.low, r.high) == pytest.approx((r.ratio * math.exp(-half), r.ratio * math.exp(half)))
    assert r.significant and r.precision == pytest.approx(math.sinh(half))


def test_pairing_cancels_a_drift_that_hits_both_members_of_a_block():
    # the machine slows down 30% per block; A is 10% faster than B in every block
    drift = {1: 1.0, 2: 0.7, 3: 0.49, 4: 0.343}
    a = {k: 110.0 * f for k, f in drift.items()}
    b = {k: 100.0 * f for k, f in drift.items()}
    paired, unpaired = paired_ratio(a, b), unpaired_ratio(a, b)
    assert paired.significant and paired.low == pytest.approx(1.1)
    assert not unpaired.significant  # the drift swamps the difference when pairs are ignored


def test_one_trial_on_a_side_has_no_interval():
    r = paired_ratio({1: 110.0}, {1: 100.0})
    assert r.ratio == pytest.approx(1.1) and not r.known and not r.significant
    assert not unpaired_ratio({1: 110.0, 2: 111.0}, {1: 100.0}).known


def test_trials_needed_for_a_precision():
    assert pairs_needed(0.0, 0.05) == 2
    k = pairs_needed(0.05, 0.05)
    assert t95(k - 1) * 0.05 / math.sqrt(k) <= math.asinh(0.05)
    assert t95(k - 2) * 0.05 / math.sqrt(k - 1) > math.asinh(0.05)
    assert pairs_needed(5.0, 0.01) is None


def test_a_measured_window_that_climbs_clearly_still_trends_and_a_noisy_flat_one_does_not():
    rng = np.random.default_rng(7)
    climb = list(np.linspace(2000, 3000, 15) + rng.normal(0, 50, 15))
    flat = list(2500 + rng.normal(0, 500, 15))
    assert stability.still_trends(climb)
    assert not stability.still_trends(flat)
    assert not stability.still_trends([1.0, 2.0])  # too few samples to say


def _rows(values: dict, database: str, steady=True) -> list[dict]:
    return [{"scenario": "s4", "timestamp": "t", "phase": "p", "database": database,
             "run": f"{database}:p #{k}", "repeat": k, "window": "w", "steady": steady,
             "throughput_ops_per_s": v} for k, v in values.items()]


def test_between_databases_pairs_trials_by_number_and_says_so():
    c = {1: 1100.0, 2: 1150.0, 3: 1080.0}
    h = {1: 1000.0, 2: 1010.0, 3: 990.0}
    v = between_databases(aggregate(pl.DataFrame(_rows(c, "cassandra") + _rows(h, "hbase"))))
    (row,) = v.to_dicts()
    assert row["ratio"] == pytest.approx(paired_ratio(c, h).ratio)
    assert row["ratio_low"] == pytest.approx(paired_ratio(c, h).low)
    assert row["trials"] == "3/3" and row["pairs"] == 3
    assert row["verdict"].startswith("cassandra: throughput")
    assert "3 paired trials" in row["verdict"]


def test_a_two_stage_run_draws_its_interval_from_the_first_stage_spread():
    # trials_design (metadata.json) of run-scenario --precision: the first 2 pairs fixed n = 4;
    # the interval is Stein's, mean of all 4 log ratios +- t(1) s0 / sqrt(4)
    c = {1: 1100.0, 2: 1150.0, 3: 1000.0, 4: 1300.0}
    h = {1: 1000.0, 2: 1010.0, 3: 990.0, 4: 1005.0}
    rows = [dict(r, first_stage=2) for r in _rows(c, "cassandra") + _rows(h, "hbase")]
    (row,) = between_databases(aggregate(pl.DataFrame(rows))).to_dicts()
    d = np.log([c[k] / h[k] for k in (1, 2, 3, 4)])
    half = t95(1.0) * d[:2].std(ddof=1) / 2
    assert row["ratio"] == pytest.approx(math.exp(d.mean()))
    assert row["ratio_low"] == pytest.approx(math.exp(d.mean() - half))
    assert row["ratio_high"] == pytest.approx(math.exp(d.mean() + half))
    assert "4 paired trials, the spread of the first 2 (two-stage)" in row["verdict"]
    # without the design the same trials give the ordinary interval (another width)
    (plain,) = between_databases(aggregate(pl.DataFrame(
        _rows(c, "cassandra") + _rows(h, "hbase")))).to_dicts()
    assert plain["ratio_low"] == pytest.approx(paired_ratio(c, h).low)
    assert plain["ratio_low"] != pytest.approx(row["ratio_low"])


def test_a_trial_that_was_not_steady_takes_the_verdict_away():
    rows = _rows({1: 1100.0, 2: 1150.0}, "cassandra") + _rows({1: 1000.0}, "hbase")
    rows += [dict(_rows({2: 990.0}, "hbase", steady=False)[0], window="w (NOT steady)")]
    (row,) = between_databases(aggregate(pl.DataFrame(rows))).to_dicts()
    assert row["verdict"].startswith("not judged: hbase trial 2: w (NOT steady)")
    assert not row["significant"]


def test_a_load_is_judged_as_a_whole_job_with_ycsbs_own_figures():
    runs = [r for r in load([str(FIXTURES / "results" / "fixture-sweep")])
            if r.phase in ("load", "batch-load")]
    assert len(runs) == 2
    s = runs_summary(runs)
    for row in s.iter_rows(named=True):
        assert row["window"].startswith("whole job") and row["steady"]
        assert row["window_kind"] == WindowKind.WHOLE_JOB == "whole_job"
        assert row["throughput_ops_per_s"] == row["throughput_ops_per_s_whole_run"]


def test_one_trial_of_each_database_on_real_outputs_shows_figures_and_no_verdict(tmp_path):
    # the quickstart's results of one trial each (real, fixtures/warm-s4-s1)
    out = tmp_path / "report"
    assert main([str(FIXTURES / "warm-s4-s1"), "-o", str(out)]) == 0
    v = read_csv(out / "verdicts.csv")
    assert len(v) and not v["significant"].any()
    for text in v["verdict"]:  # (the secondary figures' start "secondary: <figure>: ")
        assert "one trial: no verdict" in text or "not judged" in text, text
    summary = read_csv(out / "summary.csv")
    run = summary.filter(pl.col("phase") == "update-heavy-threads-8")
    assert (run["throughput_ops_per_s_ci_low"] < run["throughput_ops_per_s"]).all()


def test_the_precision_headlines_are_the_run_phases_not_the_loads():
    from ycsb_analysis.precision import headlines
    found = headlines(str(FIXTURES / "trials-s4"), 0.05)
    assert [h.phase for h in found.headlines] == ["update-heavy-threads-4"]
    assert found.headlines[0].what == "cassandra/hbase throughput"


def test_a_real_window_that_declines_after_a_steady_warm_up_is_said_not_vetoed():
    """A real Cassandra trial (fixtures/declining-window): the measured window falls by about a
    fifth (the trend test flags it), which is the database's own course after the warm-up, not
    a warm-up that ended too early: the run stays steady and says so; a climb is vetoed."""
    (row,) = runs_summary(load([str(FIXTURES / "declining-window")], skipped=[])).to_dicts()
    assert row["steady"], row["window"]
    assert "declines across the measured window (-2" in row["window"], row["window"]
    assert "STILL TRENDS" not in row["window"]
    assert stability.still_trends([1.0, 1.02, 1.05, 1.09, 1.12, 1.16, 1.2, 1.25, 1.28, 1.33])
