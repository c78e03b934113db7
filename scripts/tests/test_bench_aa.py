"""scripts/bench-aa's tally (ycsbpack.bench.bench_aa): the exact binomial interval of a false-call
rate, the ledger that keeps each experiment's figures when its raw results are gone, and a clear
sentence when there is nothing to tally. Its reading of a real experiment is
tested on real servers (test_s4_trials_on_own_servers.py, the --aa test)."""

import math
from pathlib import Path

import numpy as np
import pytest
from ycsbpack.bench import aa_ledger
from ycsbpack.bench.bench_aa import (
    between_invocations,
    clopper_pearson,
    power_target,
    session_cv,
    tally,
)
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
    ledger = tmp_path / "ledger.csv"
    with pytest.raises(ScriptError, match=f"no A/A experiment in {ledger} nor in {tmp_path} "
                                          ".*--experiments N"):
        tally(tmp_path, ledger)


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
        return {"dir": BETWEEN / name, "experiment": name, "phase": "update-heavy-threads-8",
                "judged": True, "trial_servers": "warm"}
    (pair,) = between_invocations([experiment("20261206T151759Z"),
                                   experiment("20261206T152851Z")])
    assert pair["ratio"] == pytest.approx(1.04266, rel=1e-4)
    assert pair["low"] < 1 < pair["high"] and not pair["called"]


def _experiment(name, ratio, significant, db="hbase", a=(), b=()):
    return {"db": db, "kind": "aa", "experiment": name, "commit": "abc1234",
            "phase": "update-heavy-threads-8", "ratio": ratio, "low": ratio - 0.04,
            "high": ratio + 0.04, "pairs": 4, "resolves": 4.0, "cv": 0.02,
            "significant": significant, "judged": True, "seconds": 640,
            "design": "two-stage (Stein)", "trial_servers": "warm", "a_figures": list(a),
            "b_figures": list(b), "verdict": "A/A: ...", "source": "bench-aa"}


def test_the_tally_reads_the_ledger_when_the_raw_results_are_gone(tmp_path):
    # three experiments recorded on another machine: none of their directories is here
    ledger = tmp_path / "ledger.csv"
    found = [_experiment("20261207T040000Z", 1.01, False, a=[12000.5, 12100.0], b=[11900, 12050]),
             _experiment("20261207T041500Z", 1.05, True), _experiment("20261207T043000Z", 0.99,
                                                                      False)]
    assert aa_ledger.add(ledger, found) == 3
    assert aa_ledger.add(ledger, found[:1]) == 0  # held already: not twice
    back = aa_ledger.read(ledger)
    assert [e["experiment"] for e in back] == [e["experiment"] for e in found]
    assert back[0]["a_figures"] == [12000.5, 12100.0] and back[0]["figures"][2:] == [11900, 12050]
    assert back[1]["significant"] and back[2]["ratio"] == 0.99 and back[2]["seconds"] == 640
    text = tally(tmp_path / "raw", ledger)
    assert "hbase: 1 false call(s) in 3 independent A/A experiment(s) with a verdict = 33%" in text
    assert "3 experiment(s) with no raw results on this machine take no part" in text
    assert "20261207T041500Z: A/B 1.050 (95% CI 1.010 to 1.090)" in text and "cassandra" not in text


def test_a_failed_or_unfinished_invocation_is_named_and_not_counted(tmp_path):
    ledger = tmp_path / "ledger.csv"
    aa_ledger.add(ledger, [_experiment("20261207T040000Z", 1.0, False)])
    failed = tmp_path / "hbase" / "20261207T050000Z"
    failed.mkdir(parents=True)
    (failed / "bench-aa.json").write_text('{"seconds": 80, "exit": 2}\n')
    # a power check cut short by hand: its scenario-run.json is there, bench-aa.json is not
    # (read as an experiment, it would have entered the ledger with the pairs it had so far)
    cut = tmp_path / "hbase-power" / "20261207T060000Z"
    cut.mkdir(parents=True)
    (cut / "scenario-run.json").write_text('{"trials": 6, "stopped": null}\n')
    (tmp_path / "hbase-power" / "20261207T060000Z.log").write_text("console\n")
    text = tally(tmp_path, ledger)
    assert "0 false call(s) in 1 independent" in text
    assert "not counted: 20261207T050000Z: its invocation failed (see its .log)" in text
    assert "not counted: 20261207T060000Z: its invocation never ended (running, or cut short)" \
        in text
    assert [e["experiment"] for e in aa_ledger.read(ledger)] == ["20261207T040000Z"]


def test_a_ledger_row_that_does_not_parse_is_named_by_its_line(tmp_path):
    ledger = tmp_path / "ledger.csv"
    aa_ledger.add(ledger, [_experiment("20261207T040000Z", 1.0, False)])
    ledger.write_text(ledger.read_text().replace("1.0000", "one", 1))
    with pytest.raises(ScriptError, match=r"ledger.csv line 2: ratio 'one' is not a number"):
        aa_ledger.read(ledger)
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    with pytest.raises(ScriptError, match="not an A/A ledger .*give another --ledger"):
        aa_ledger.read(other)


def test_the_packs_own_ledger_reads_back():
    # docs/benchmarks/aa-ledger.csv: the record behind docs/benchmarks/trials.md's tally
    found = aa_ledger.read(Path(__file__).parents[2] / "docs" / "benchmarks" / "aa-ledger.csv")
    assert {e["db"] for e in found} == {"cassandra", "hbase"}
    assert all(e["low"] <= e["ratio"] <= e["high"] and e["pairs"] >= 2 for e in found)
    assert len({(e["db"], e["kind"], e["experiment"]) for e in found}) == len(found)


def test_the_power_check_takes_its_rate_from_this_machines_experiments_only(tmp_path):
    ledger = tmp_path / "ledger.csv"
    aa_ledger.add(ledger, [_experiment("20261206T150000Z", 1.0, False, a=[12000], b=[12000]),
                           _experiment("20261207T040000Z", 1.0, False, a=[9000], b=[8000])])
    with pytest.raises(ScriptError, match="on this machine .*run one first"):
        power_target(tmp_path, ledger, "hbase")  # the ledger's rows only: another machine's
    here = tmp_path / "hbase" / "20261207T040000Z"
    here.mkdir(parents=True)
    (here / "scenario-run.json").write_text("{}\n")
    (here / "bench-aa.json").write_text('{"seconds": 640, "exit": 0}\n')  # (it ended)
    assert power_target(tmp_path, ledger, "hbase") == int(0.7 * 8500)


def test_a_verdict_counts_when_drawn_from_steady_trials_a_power_verdict_too():
    """Real verdicts of this machine's experiments (aa-ledger.csv): a power check's verdict has
    no A/A resolution, and was once not counted for that."""
    from ycsbpack.bench.bench_aa import judged
    power = {"ratio_low": "1.3042", "verdict": "hbase-A: throughput 44% higher than hbase-B "
             "(better) (95% CI +30% to +59%; 4 paired trials, on one server lifetime a side "
             "(warm trials))"}
    aa = {"ratio_low": "0.8695", "verdict": "A/A: no significant difference (as expected for "
          "the same configuration; 95% CI -13% to +25%; 10 paired trials)"}
    unsteady = {"ratio_low": "0.4633", "verdict": "not judged: cassandra-A trial 2: 54-74 s: "
                "after the runner's warm-up in the same run (steady); the measured window "
                "STILL TRENDS (+54% across it)"}
    one = {"ratio_low": "nan", "verdict": "one trial: no verdict (cassandra-A 3% higher in it)"}
    assert judged(power) and judged(aa)
    assert not judged(unsteady) and not judged(one)
