"""Does the order of the trials keep a drift of the machine out of the verdict? A seeded
simulation of A/A experiments: one configuration as both sides, so every "significant" is false.

The runner runs each pair of trials A,B or B,A (ycsbpack.runner.run_scenario.block_order) and
the analysis draws the interval of A/B from the pairs' log ratios (ycsb_analysis.trials
.paired_ratio, at the first stage's 4 pairs, where most experiments end). Each trial's log
throughput is the machine's drift at its place in the run order plus the trial's own noise (CV
2%, HBase's between-trial spread; Cassandra's is 3-9%). The drifts:

* linear: the machine slows by 10% across the experiment;
* rise and fall: 10% faster at both ends than in the middle (a curved drift);
* a peak inside every block of four trials: +10% at the middle two places (the pattern of the
  Cassandra A/A false call of 2026-12-07, docs/benchmarks/trials.md);
* a random walk: each trial's speed moves from the last one's by 2%.

The pack's order (Thue-Morse: A,B, B,A, B,A, A,B) keeps the false calls at most 7% under every
drift; the order it replaced (A,B,B,A repeated) is the control and fails under the peak (teeth).

`python scripts/tests/test_trial_order.py [REPLICATIONS]` prints the false-call rates.
"""

import math
import sys

import numpy as np
import pytest
from ycsb_analysis.trials import paired_ratio
from ycsbpack.runner.run_scenario import alternating

PAIRS, CV, SIZE = 4, 0.02, 0.10
REPLICATIONS = 4000


def _places(order: list) -> tuple:
    """The run-order places of A's and of B's trials 1..n, from [(side, trial), ...]."""
    where = {key: i for i, key in enumerate(order)}
    return ([where[("A", t)] for t in range(1, PAIRS + 1)],
            [where[("B", t)] for t in range(1, PAIRS + 1)])


def pack_order() -> tuple:
    return _places(alternating(["A", "B"], PAIRS))


def abba_repeated() -> tuple:
    """The control: A,B then B,A in every block (the order before Thue-Morse)."""
    return _places([(side, t) for t in range(1, PAIRS + 1)
                    for side in (("A", "B") if t % 2 else ("B", "A"))])


def _drift(kind: str, rng, n: int) -> np.ndarray:
    i = np.arange(n, dtype=float)
    if kind == "linear":
        return -SIZE * i / (n - 1)
    if kind == "rise and fall":
        return SIZE * ((i - (n - 1) / 2) / ((n - 1) / 2)) ** 2
    if kind == "peak inside every block":
        return np.where((i % 4 == 1) | (i % 4 == 2), SIZE, 0.0)
    if kind == "random walk":
        return np.cumsum(rng.normal(0, 0.02, n))
    raise ValueError(kind)


DRIFTS = ("linear", "rise and fall", "peak inside every block", "random walk")


def false_calls(order: tuple, drift: str, seed: int, replications: int = REPLICATIONS) -> float:
    """The share of simulated A/A experiments called different at 95%."""
    rng = np.random.default_rng(seed)
    a_at, b_at = order
    called = 0
    for _ in range(replications):
        x = _drift(drift, rng, 2 * PAIRS) + rng.normal(0, CV, 2 * PAIRS)
        a = {t + 1: math.exp(x[p]) for t, p in enumerate(a_at)}
        b = {t + 1: math.exp(x[p]) for t, p in enumerate(b_at)}
        called += paired_ratio(a, b, first_stage=PAIRS).significant
    return called / replications


def test_the_pack_runs_the_pairs_in_the_thue_morse_order():
    a_at, b_at = pack_order()
    assert (a_at, b_at) == ([0, 3, 5, 6], [1, 2, 4, 7])
    # it cancels a linear and a quadratic drift exactly: equal sums of places and of squares
    for power in (1, 2):
        assert sum(p ** power for p in a_at) == sum(p ** power for p in b_at)


@pytest.mark.parametrize("drift", DRIFTS)
def test_no_drift_makes_the_pack_call_an_a_a_difference_more_than_7_percent(drift):
    rate = false_calls(pack_order(), drift, seed=DRIFTS.index(drift))
    assert rate <= 0.07, f"{drift}: {rate:.1%} false calls"


def test_a_b_b_a_repeated_calls_a_peak_inside_every_block_a_difference():
    # the control has teeth: the same check fails the order the pack no longer uses
    assert false_calls(abba_repeated(), "peak inside every block", seed=2) > 0.5


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else REPLICATIONS
    for name, order in (("Thue-Morse (the pack)", pack_order()),
                        ("A,B,B,A repeated", abba_repeated())):
        print(name + ": " + ", ".join(f"{d} {false_calls(order, d, k, n):.1%}"
                                      for k, d in enumerate(DRIFTS)))
