"""How many trials the runner runs (ycsbpack.runner.trials): --repeat, --precision with its trial
and time budgets, and the plan --dry-run prints."""

import argparse

import pytest
from ycsbpack.core.errors import ScriptError
from ycsbpack.runner import run_scenario
from ycsbpack.runner.trials import (
    MIN_PAIRS,
    Headline,
    Precision,
    TrialRule,
    add_trial_options,
    stop_reason,
    trial_rule,
)


def rule(*argv) -> TrialRule:
    p = argparse.ArgumentParser()
    add_trial_options(p)
    return trial_rule(p.parse_args(list(argv)))


def found(*precisions, more=3, unsteady=()):
    return Precision([Headline("update-heavy", "cassandra/hbase throughput", p, more, "v")
                      for p in precisions], list(unsteady))


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
    # a precision stop needs MIN_PAIRS pairs: a smaller trial budget could never reach it
    with pytest.raises(ScriptError, match=f"--max-trials {MIN_PAIRS - 1}: give {MIN_PAIRS} or "
                                          "more with --precision"):
        rule("--precision", "5%", "--max-trials", str(MIN_PAIRS - 1))
    assert rule("--repeat", "3", "--max-trials", "3").repeat == 3  # no precision: no floor


def test_a_fixed_number_of_trials_stops_there():
    r = rule("--repeat", "3")
    assert stop_reason(r, 2, 0, 60, None) is None
    assert stop_reason(r, 3, 0, 60, None).startswith("3 trial(s) as asked")


def test_precision_stops_once_every_headline_is_within_the_target_and_not_before_the_floor():
    # (the floor was 2 trials; an early stop overstates the precision: test_stopping_rule.py)
    r = rule("--precision", "10%")
    assert stop_reason(r, 1, 0, 60, None) is None
    assert stop_reason(r, MIN_PAIRS - 1, 0, 60, found(0.04, 0.09)) is None
    assert stop_reason(r, MIN_PAIRS, 0, 60, found(0.04, 0.12)) is None
    assert stop_reason(r, MIN_PAIRS, 0, 60, found(0.04, 0.09)).startswith("precision reached")


def test_a_budget_stops_and_says_how_many_more_trials_the_spread_would_need():
    r = rule("--precision", "5%", "--max-trials", str(MIN_PAIRS), "--budget", "10")
    why = stop_reason(r, 2, 500, 120, found(0.2, more=7))
    assert why.startswith("time budget") and "about 7 more trial(s) of each database" in why
    why = stop_reason(r, MIN_PAIRS, 0, 60, found(0.2, more=None))
    assert why.startswith(f"trial budget: {MIN_PAIRS} trials") and "more than 200 trials" in why


def test_an_unsteady_trial_stops_the_search_since_no_verdict_can_follow():
    why = stop_reason(rule("--precision", "5%"), 2, 0, 60,
                      found(0.01, unsteady=["hbase update-heavy: trial 2: NOT steady"]))
    assert why.startswith("a trial was NOT steady") and "hbase update-heavy" in why


def test_blocks_alternate_a_b_then_b_a():
    assert run_scenario.alternating(["cassandra", "hbase"], 3) == [
        ("cassandra", 1), ("hbase", 1), ("hbase", 2), ("cassandra", 2), ("cassandra", 3),
        ("hbase", 3)]


def test_dry_run_shows_the_commands_as_run_with_the_split_the_warm_up_and_the_stop_file(
        capsys, tmp_path):
    assert run_scenario.main(["S4", "--db", "both", "--clients", "2", "--precision", "10%",
                              "--dry-run", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "until every headline ratio's 95% interval is within +-10%" in out
    assert f"(at least {MIN_PAIRS}, at most 10 trials" in out
    assert "warm-up: the phase's own workload until the last 20 s are steady" in out
    stop = tmp_path / "cassandra-update-heavy-threads-8-repeat-1" / "stop-after-measuring"
    assert f"-p ycsbpack.stopfile={stop}" in out and "-p maxexecutiontime=180" in out
    # the two loading clients' key split, as run_phase gives it
    assert "-p insertstart=0 -p insertcount=10000" in out
    assert "-p insertstart=10000 -p insertcount=10000" in out
    assert not stop.exists() and not (tmp_path / "scenario-run.json").exists()
