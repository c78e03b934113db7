"""scripts/bench-aa's tally (ycsbpack.bench.bench_aa): the exact binomial interval of a false-call
rate, and a clear sentence when there is nothing to tally. Its reading of a real experiment is
tested on real servers (test_scenarios_on_real_servers.py, the --aa test)."""

import math

import pytest
from ycsbpack.bench.bench_aa import clopper_pearson, tally
from ycsbpack.core.errors import ScriptError


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
