"""How many trials the runner runs (ycsbpack.runner.trials): --repeat, --precision with its trial
and time budgets, and the plan --dry-run prints."""

import argparse

import pytest
from ycsb_analysis.precision import Headline, Precision
from ycsbpack.core.errors import ScriptError
from ycsbpack.runner import run_scenario
from ycsbpack.runner.trials import (
    FIRST_STAGE,
    TrialRule,
    add_trial_options,
    planned_pairs,
    stop_reason,
    trial_rule,
)


def rule(*argv) -> TrialRule:
    p = argparse.ArgumentParser()
    add_trial_options(p)
    return trial_rule(p.parse_args(list(argv)))


def headline(precision, more, phase="update-heavy", what="cassandra/hbase throughput"):
    """A headline as the analysis returns it (ycsb_analysis.precision.headlines)."""
    return Headline(phase=phase, what=what, ratio=1.0, precision=precision, trials="4/4",
                    verdict="v", more_trials=more)


def found(*precisions, more=3, unsteady=()):
    return Precision([headline(p, more) for p in precisions], list(unsteady))


def test_precision_is_a_percentage_and_excludes_a_fixed_repeat():
    assert rule("--precision", "5%").precision == pytest.approx(0.05)
    assert rule("--precision", "0.1").precision == pytest.approx(0.1)
    for bad in ("0%", "150%", "five"):
        with pytest.raises(ScriptError, match="give a percentage such as 5%"):
            rule("--precision", bad)
    with pytest.raises(ScriptError, match="give one"):
        rule("--precision", "5%", "--repeat", "3")
    with pytest.raises(ScriptError, match="--max-trials 1: give 2 or more"):
        rule("--precision", "5%", "--max-trials", "1")
    # the first stage alone runs --first-stage pairs: a smaller trial budget could never end it
    with pytest.raises(ScriptError, match=f"--max-trials {FIRST_STAGE - 1}: give at least "
                                          f"--first-stage \\({FIRST_STAGE}\\)"):
        rule("--precision", "5%", "--max-trials", str(FIRST_STAGE - 1))
    with pytest.raises(ScriptError, match="--first-stage 1: give 2 or more"):
        rule("--precision", "5%", "--first-stage", "1")
    assert rule("--repeat", "3", "--max-trials", "3").repeat == 3  # no precision: no floor
    assert rule("--precision", "5%", "--first-stage", "3").design == {
        "rule": "two-stage (Stein)", "first_stage": 3, "precision_target": 0.05,
        "order": "Thue-Morse"}
    assert rule("--repeat", "3").design is None


def test_a_fixed_number_of_trials_stops_there():
    r = rule("--repeat", "3")
    assert stop_reason(r, 2, 0, 60, None) is None
    assert stop_reason(r, 3, 0, 60, None).startswith("3 trial(s) as asked")


def test_precision_runs_the_pairs_the_first_stage_planned_and_not_one_fewer():
    r = rule("--precision", "10%")
    assert stop_reason(r, 1, 0, 60, None) is None
    # a narrow interval before the first stage ends stops nothing (it would select lucky draws)
    assert stop_reason(r, FIRST_STAGE - 1, 0, 60, found(0.01, 0.02)) is None
    # the plan: the most any headline needs, fixed once after the first stage
    assert planned_pairs(found(0.04, 0.12, more=0), FIRST_STAGE) == FIRST_STAGE
    assert planned_pairs(Precision([headline(0.1, 0, "a", "x"),
                                    headline(0.2, 3, "b", "y")]), 4) == 7
    assert planned_pairs(found(0.3, more=None), FIRST_STAGE) is None
    assert stop_reason(r, FIRST_STAGE, 0, 60, found(0.04), FIRST_STAGE).startswith(
        f"precision planned: {FIRST_STAGE} pairs")
    # planned 7: the later intervals do not matter, however narrow or wide they come out
    assert stop_reason(r, 6, 0, 60, found(0.01), 7) is None
    assert stop_reason(r, 7, 0, 60, found(0.3), 7).startswith("precision planned: 7 pairs")


def test_a_budget_stops_and_says_how_many_pairs_the_plan_needed():
    r = rule("--precision", "5%", "--max-trials", str(FIRST_STAGE), "--budget", "10")
    why = stop_reason(r, 2, 500, 120, found(0.2, more=7))
    assert why.startswith("time budget") and f"the first stage ({FIRST_STAGE} pairs) did not " \
        "end" in why
    why = stop_reason(r, FIRST_STAGE, 0, 60, found(0.2, more=None), None)
    assert why.startswith(f"trial budget: {FIRST_STAGE} trials") and "more than 200 pairs" in why
    r = rule("--precision", "5%", "--budget", "10")
    why = stop_reason(r, 5, 500, 120, found(0.08), 9)
    assert why.startswith("time budget") and "needs 9 pairs, 5 ran" in why


def test_an_unsteady_trial_stops_the_search_since_no_verdict_can_follow():
    why = stop_reason(rule("--precision", "5%"), 2, 0, 60,
                      found(0.01, unsteady=["hbase update-heavy: trial 2: NOT steady"]))
    assert why.startswith("a trial was NOT steady") and "hbase update-heavy" in why


def test_pairs_run_in_the_thue_morse_order():
    # A,B  B,A  B,A  A,B  B,A  A,B  A,B  B,A: what cancels the drifts (test_trial_order.py)
    order = run_scenario.alternating(["cassandra", "hbase"], 8)
    assert [t for _, t in order] == [t for t in range(1, 9) for _ in (0, 1)]
    assert "".join("AB"[db == "hbase"] for db, _ in order) == "ABBABAABBAABABBA"
    assert run_scenario.alternating(["hbase"], 2) == [("hbase", 1), ("hbase", 2)]


def test_dry_run_shows_the_commands_as_run_with_the_split_the_warm_up_and_the_stop_file(
        capsys, tmp_path):
    assert run_scenario.main(["S4", "--db", "both", "--clients", "2", "--precision", "10%",
                              "--dry-run", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert (f"a first stage of {FIRST_STAGE} pairs, whose spread fixes how many pairs make every "
            "headline ratio's 95% interval +-10% (two-stage rule; at most 10 trials") in out
    assert "# trials: pairs cassandra, hbase; hbase, cassandra; hbase, cassandra; cassandra, " \
           "hbase; ... (Thue-Morse)" in out
    assert "warm-up: the phase's own workload until the last 20 s are steady" in out
    stop = tmp_path / "cassandra-update-heavy-threads-8-repeat-1" / "stop-after-measuring"
    assert f"-p ycsbpack.stopfile={stop}" in out and "-p maxexecutiontime=180" in out
    # the two loading clients' key split, as run_phase gives it
    assert "-p insertstart=0 -p insertcount=10000" in out
    assert "-p insertstart=10000 -p insertcount=10000" in out
    assert not stop.exists() and not (tmp_path / "scenario-run.json").exists()
