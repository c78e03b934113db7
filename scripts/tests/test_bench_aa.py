"""scripts/bench-aa's tally (ycsbpack.bench.bench_aa): the exact binomial interval of a false-call
rate, and a clear sentence when there is nothing to tally. Its reading of a real experiment is
tested on real servers (test_s4_trials_on_own_servers.py, the --aa test)."""

import math
from pathlib import Path

import numpy as np
import pytest
from ycsbpack.bench.bench_aa import between_invocations, clopper_pearson, session_cv, tally
from ycsbpack.core.errors import ScriptError

BETWEEN = Path(__file__).parent / "fixtures" / "aa-between"


def test_the_false_call_rate_has_the_exact_binomial_interval():
    # 0 of 10: the upper end solves (1 - p)^10 = 0.025
    low, high = clopper_pearson(0, 10)
    assert low == 0 and high == pytest.approx(1 - 0.025 ** 0.1)
    # 10 of 10 mirrors it; 1 of 10: the beta quantiles (0.25% to 44.5%)
    assert clopper_pearson(10, 10) == pytest.approx((0.025 ** 0.1, 1.0))
    low, high = clopper_pearson(1, 10)
    assert low == pytest.approx(1 - 0.975 ** 0.1, rel=1e-3) and high == pytest.approx(0.445, 1e-3)
    # wider with fewer experiments: 1 of 20 is not the same claim as 1 of 100
    assert clopper_pearson(1, 20)[1] > clopper_pearson(5, 100)[1] > 0.05
    assert not math.isnan(clopper_pearson(3, 7)[0])


def test_nothing_to_tally_says_where_it_looked_and_what_to_do(tmp_path):
    with pytest.raises(ScriptError, match=f"no A/A experiment in {tmp_path} .*--experiments N"):
        tally(tmp_path)


def _experiments(rng, n, session_cv, trial_cv=0.04, trials=4):
    """n invocations: each its own offset (log-normal, session_cv), then its trials' noise."""
    found = []
    for _ in range(n):
        level = 10_000 * math.exp(rng.normal(0, session_cv))
        found.append({"a_figures": list(level * np.exp(rng.normal(0, trial_cv, trials)))})
    return found


@pytest.mark.parametrize("truth", [0.0, 0.05, 0.10])
def test_the_spread_between_invocations_is_recovered_beyond_the_trials_own(truth):
    # seeded: 400 sets of 10 invocations of 4 trials (4% between trials); the estimate's median
    # is within 1.5 points of the truth, and with no session effect it says ~0 most of the time
    rng = np.random.default_rng(45)
    estimates = np.array([session_cv(_experiments(rng, 10, truth)) for _ in range(400)])
    assert abs(np.median(estimates) - truth) < 0.015, np.median(estimates)
    if truth == 0:
        assert np.mean(estimates < 0.02) > 0.75


def test_the_spread_between_invocations_needs_three_of_them():
    rng = np.random.default_rng(1)
    assert math.isnan(session_cv(_experiments(rng, 2, 0.05)))


def test_two_invocations_are_compared_on_the_experiments_phase_not_on_the_load():
    # a real --baseline comparison of two warm Cassandra A/A invocations (its throughput rows):
    # the load is primary too, one trial a side; the pair is the update-heavy phase's side A
    def experiment(name):
        return {"dir": BETWEEN / name, "phase": "update-heavy-threads-8", "judged": True,
                "trial_servers": "warm"}
    (pair,) = between_invocations([experiment("20261206T151759Z"),
                                   experiment("20261206T152851Z")])
    assert pair["ratio"] == pytest.approx(1.04266, rel=1e-4)
    assert pair["low"] < 1 < pair["high"] and not pair["called"]
