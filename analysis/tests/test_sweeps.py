"""The knee of a thread sweep: where adding threads stops paying."""

import numpy as np
import polars as pl
import pytest
from conftest import RESULTS
from ycsb_analysis.charts.sweeps import find_knee
from ycsb_analysis.loader import load
from ycsb_analysis.summary import runs_summary


def test_the_knee_of_a_real_capped_sweep_is_the_first_thread_count_on_the_plateau():
    # run-threads-1..8: FixtureDB at ~1,500 ops/s per thread, capped by -target 5000, so the
    # throughput rises with threads and then flattens as a saturated server's does.
    s = runs_summary(load([str(RESULTS)]))
    sweep = s.filter(pl.col("phase").str.starts_with("run-threads-")).sort("threads")
    threads = sweep["threads"].cast(pl.Float64).to_numpy()
    thr = sweep["throughput_ops_per_s"].to_numpy()
    knee = find_knee(threads, thr)
    assert knee is not None
    plateau = 0.9 * thr.max()
    assert thr[knee] >= plateau and (thr[:knee] < plateau).all()


# Pure logic on synthetic curves (not YCSB output).

def test_a_curve_that_keeps_rising_in_proportion_has_no_knee():
    threads = [1, 2, 4, 8, 16]
    assert find_knee(threads, np.log2(threads) * 1000 + 500) is None


def test_the_knee_of_a_synthetic_saturating_curve_is_where_it_bends():
    threads = [1, 2, 4, 8, 16, 32]
    throughput = [1000, 2000, 3900, 4300, 4400, 4420]
    assert threads[find_knee(threads, throughput)] == 4


@pytest.mark.parametrize("throughput", [[100, 200], [np.nan, np.nan, 300], [500, 500, 500]])
def test_too_few_points_or_a_flat_line_have_no_knee(throughput):
    assert find_knee([1, 2, 4][: len(throughput)], throughput) is None


def test_sweeps_of_different_phase_groups_are_not_drawn_as_one():
    # Synthetic summary rows (pure logic): S3 runs an insert and a select sweep over the same
    # threads with the same workload class; the runner's phase_group tells them apart.
    import polars as pl
    from ycsb_analysis.charts.sweeps import SWEEP_KEYS, _groups
    rows = [{"scenario": "s3", "database": "cassandra", "workload": "w", "batchsize": 1,
             "phase_group": group, "threads": t, "throughput_ops_per_s": 100.0 * t}
            for group in ("insert", "select") for t in (4, 16, 64)]
    groups = _groups(pl.DataFrame(rows), "threads", SWEEP_KEYS)
    assert sorted(key[4] for key, _ in groups) == ["insert", "select"]
    assert all(len(g) == 3 for _, g in groups)
