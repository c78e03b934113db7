"""The capacity search's runner side without servers: the objective, the step schedule, what
each step runs (its target, intended latency, directory and metadata) and the search loop over
judged steps."""
import math
from pathlib import Path

import pytest
from test_scripts_scenarios import phases, plan
from ycsbpack.core.errors import ScriptError
from ycsbpack.runner import capacity
from ycsbpack.runner.capacity import CapacitySearch, next_rate, parse_objective


def test_an_objective_names_the_percentile_the_bound_and_maybe_the_operation():
    o = parse_objective("p99<=10ms")
    assert (o.percentile, o.bound_us, o.operation) == (99.0, 10_000.0, "")
    o = parse_objective("read:p99.9 <= 2500us")
    assert (o.percentile, o.bound_us, o.operation) == (99.9, 2500.0, "READ")
    assert parse_objective("p50<=1s").bound_us == 1_000_000.0


@pytest.mark.parametrize("text", ["p99<10ms", "p99<=10", "99<=10ms", "p100<=1ms", "p99<=0ms",
                                  "p99<=10 minutes"])
def test_a_malformed_objective_is_refused_in_one_sentence(text):
    with pytest.raises(ScriptError, match=r"--slo .*expected \[OPERATION:\]pPERCENTILE<=BOUND"
                                          r"|--slo .*the bound must be above 0"):
        parse_objective(text)


def test_the_schedule_starts_at_60_percent_steps_10_until_the_side_changes_then_bisects():
    assert next_rate(1000, [], 5) == 600
    up = [(600, True), (700, True), (800, True)]
    assert [next_rate(1000, up[:k], 5) for k in range(1, 4)] == [700, 800, 900]
    assert next_rate(1000, up + [(900, True)], 5) is None  # within 10% of the ceiling
    assert next_rate(1000, [(600, True), (700, False)], 5) == 650  # the side changed: bisect
    assert next_rate(1000, [(600, True), (700, False), (650, True)], 5) is None  # 50 of 700
    down = [(600, False), (500, False), (400, False), (300, False), (200, False), (100, False)]
    assert [next_rate(1000, down[:k], 9) for k in range(1, 7)] == [500, 400, 300, 200, 100, 50]
    assert next_rate(1000, [(600, False), (500, True)], 5) == 550
    assert next_rate(1000, [(600, False), (500, True), (550, False)], 5) is None  # 9% apart
    assert next_rate(1000, down[:3], 3) is None  # steps spent
    assert next_rate(0, [], 5) is None  # the probe did nothing: nothing to search


def test_the_target_found_is_confirmed_and_one_that_fails_again_no_longer_counts():
    tried = [(800, False), (400, True), (600, True), (700, False)]
    assert next_rate(1000, tried, 4) is None  # no confirmations: 600 found
    assert capacity.capacity_of(tried) == 600
    assert next_rate(1000, tried, 4, confirms=2) == 600   # steps spent: confirm 600
    assert next_rate(1000, tried + [(600, True)], 4, confirms=2) is None  # held twice
    failed = tried + [(600, False)]  # a stall in the confirmation's window
    assert capacity.capacity_of(failed) == 400  # a target counts when every step at it held
    assert next_rate(1000, failed, 4, confirms=2) == 400  # gap 400..600 too wide, no steps left
    assert next_rate(1000, failed, 5, confirms=2) == 500  # a step left: bisect 400..600 again
    assert next_rate(1000, failed + [(400, False)], 4, confirms=2) is None  # confirms spent


def step_judge(holds_below, ceiling=1000.0):
    """A judge whose database keeps the objective at targets below `holds_below`."""
    def judge(phase_dir):
        target = phase_dir.target
        held = target is not None and target < holds_below
        return {"achieved_ops_per_s": ceiling if target is None else min(target, ceiling),
                "held": held, "summary": "..."}  # the probe never holds (capacity.py)
    return judge


def searched(scale: str, checks: tuple = ()):
    """S4's first run phase and its capacity search at `scale` (objective p99<=10ms)."""
    _, steps = plan("s4", scale=scale)
    phase = [p for p in phases(steps) if p.command == "run"][0]
    return phase, CapacitySearch(phase, parse_objective("p99<=10ms"), capacity.STEPS[scale],
                                 checks, measure_s=capacity.MEASURE_S[scale],
                                 confirms=capacity.CONFIRMS[scale],
                                 probe_measure_s=capacity.PROBE_MEASURE_S[scale],
                                 budget_s=capacity.BUDGET_S[scale],
                                 longer=capacity.LONGER[scale])


def run_search(search, holds_below):
    """The phases the search ran (in order) and its result, against step_judge(holds_below)."""
    ran = []
    result = search.run(lambda p: ran.append(p) or p, judge=step_judge(holds_below),
                        say=lambda _: None)
    return ran, result


def test_a_local_search_ends_at_the_highest_target_that_held():
    phase, search = searched("local")
    ran, result = run_search(search, 650)
    # probe, 600 holds, 700 fails, 650 fails: 600 and 650 are within 10%; no confirmation
    # locally (an undecided step is measured longer instead)
    assert [p.target for p in ran] == [None, 600, 700, 650]
    assert result["capacity"] == 600 and not result["confirmed"]
    probe, first = ran[0], ran[1]
    assert probe.name == f"{phase.name}-step-0"
    assert probe.dir_name == f"cassandra-{phase.name}-step-0"
    assert first.properties["measurement.interval"] == "both"
    assert first.phase_group == f"capacity:{phase.name}"
    assert first.capacity == {"search": phase.name, "step": 1, "keep_up": capacity.KEEP_UP,
                              "objective": {"text": "p99<=10ms", "percentile": 99.0,
                                            "bound_us": 10_000.0, "operation": ""},
                              "longer": {"times": 3, "factor": 3.0}}
    assert "longer" not in probe.capacity  # the probe decides nothing
    assert [p.index for p in ran] == [search.index + k for k in range(4)]


def test_each_paced_step_gets_client_threads_for_its_target_the_probe_the_phases_own():
    phase, search = searched("local")
    ran, _ = run_search(search, 650)
    # the probe's 1,000 ops/s on T threads: an operation holds a thread T / 1,000 s, so at
    # 600 ops/s 0.6 T are busy on average, and keeping them 25% busy takes 2.4 T
    assert ran[0].threads == phase.threads
    assert [p.threads for p in ran[1:]] == [math.ceil(phase.threads * r / 1000 / 0.25)
                                            for r in (600, 700, 650)]
    assert phase.threads < ran[1].threads
    assert capacity.threads_for(100, 1000, 8) == 8  # never fewer than the phase's own
    assert capacity.threads_for(500, 0, 8) == 8     # no ceiling measured: the phase's own
    assert "client threads to keep them at most 25% busy" in search.describe


def test_paced_steps_decide_even_when_the_database_keeps_the_objective_up_to_its_ceiling():
    _, search = searched("local")
    ran, r = run_search(search, 5000)
    assert [p.target for p in ran] == [None, 600, 700, 800, 900] and r["capacity"] == 900
    _, search = searched("ci")
    ran, r = run_search(search, 0)
    assert [p.target for p in ran] == [None, 600, 500] and r["capacity"] == 0


def test_a_failed_confirmation_sends_the_search_below_the_target_it_had_found():
    _, search = searched("cluster")  # 6 steps, 2 confirmations
    stalls = {5}  # the confirmation of 700 meets a stall of the server
    ran = []

    def judge(phase):
        k = len(ran) - 1
        held = phase.target is not None and phase.target < 750 and k not in stalls
        return {"achieved_ops_per_s": phase.target or 1000.0, "held": held, "summary": "..."}

    r = search.run(lambda p: ran.append(p) or p, judge=judge, say=lambda _: None)
    # 600..700 is wider than 10% and a step is left: bisect it, then confirm what held there
    assert [p.target for p in ran] == [None, 600, 700, 800, 750, 700, 650, 650]
    assert r["capacity"] == 650 and r["confirmed"] and search.phases == 9
    assert ran[5].capacity["confirm"] is True and "confirm" not in ran[2].capacity


def test_a_capacity_whose_confirmations_were_spent_is_said_not_confirmed():
    _, search = searched("cluster")  # both confirmations of 700 meet a stall
    ran, said = [], []

    def judge(phase):
        held = phase.target is not None and phase.target < 750 and "confirm" not in phase.capacity
        return {"achieved_ops_per_s": phase.target or 1000.0, "held": held, "summary": "..."}

    r = search.run(lambda p: ran.append(p) or p, judge=judge, say=said.append)
    # 700's confirmation fails, 650 bisects 600..700 and holds, its confirmation fails too:
    # 600 is left, held once, and both confirmations are spent
    assert [p.target for p in ran] == [None, 600, 700, 800, 750, 700, 650, 650]
    assert r["capacity"] == 600 and not r["confirmed"]
    assert "NOT confirmed: the confirmations or the time were spent" in said[-1]


def test_a_local_search_starts_no_step_that_would_end_past_its_15_minutes():
    # a probe of 91 s, a broken step ended early (70 s), then three undecided steps measured
    # 180 s (227 s each): the fifth step would end past 15 minutes
    _, search = searched("local")
    took = iter([91, 70, 227, 227, 227, 107])
    now, ran, said = [0.0], [], []

    def run(phase):
        now[0] += next(took)
        ran.append(phase)
        return phase

    def judge(phase):
        held = phase.target is not None and phase.target < 420
        return {"achieved_ops_per_s": phase.target or 1000.0, "held": held, "summary": "..."}

    r = search.run(run, judge=judge, say=said.append, clock=lambda: now[0])
    # 400 held, 450 failed (11% apart): 425 would start at 842 s and end at about 1,069
    assert [p.target for p in ran] == [None, 600, 500, 400, 450]
    assert r["capacity"] == 400 and now[0] <= 15 * 60
    assert any("the search's time is spent: 14.0 of 15 min, and a step took up to 3.8: no "
               "step at 425 ops/s" in line for line in said)
    assert "within 15 min" in search.describe


def test_a_local_step_is_measured_60_s_unless_the_phase_or_the_user_sets_its_time():
    phase, search = searched("local")
    assert search.step_phase(1, 500.0).properties["maxexecutiontime"] == "60"
    assert search.step_phase(0, None).properties["maxexecutiontime"] == "30"  # the probe
    assert ("each measured 60 s (the probe 30 s), 3 x as long when its p99 is within 3 x the "
            "bound either way") in search.describe
    phase.properties["maxexecutiontime"] = "45"  # as `-p maxexecutiontime=45` leaves it
    assert search.step_phase(1, 500.0).properties["maxexecutiontime"] == "45"
    assert search.step_phase(0, None).properties["maxexecutiontime"] == "45"
    _, ci_search = searched("ci")  # CI keeps its scale's seconds, and never measures longer
    ci_step = ci_search.step_phase(1, 500.0)
    assert "maxexecutiontime" not in ci_step.properties and "longer" not in ci_step.capacity


def test_slo_replaces_every_measured_run_phase_by_its_search_loads_stay(capsys, tmp_path):
    from ycsbpack.runner import run_scenario
    assert run_scenario.main(["S4", "--dry-run", "--scale", "ci", "--slo", "p99<=10ms",
                              "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "cassandra load" in out
    assert "capacity of update-heavy-threads-4: highest rate with p99<=10ms" in out
    assert "-p measurement.interval=both" in out   # the probe's command is shown
    with pytest.raises(ScriptError, match="--slo 'p99 10ms'"):
        run_scenario.main(["S4", "--dry-run", "--slo", "p99 10ms"])


def test_slo_check_runs_the_phase_at_0_9_and_1_25_times_the_capacity_found():
    phase, search = searched("ci", capacity.CHECKS)
    ran, r = run_search(search, 650)
    assert [p.target for p in ran] == [None, 600, 700, 540, 750] and r["capacity"] == 600
    assert [p.capacity.get("check") for p in ran] == [None, None, None, 0.9, 1.25]
    assert ran[-1].name == f"{phase.name}-check-1.25" and search.phases == 5
    assert r["checks"] == {0.9: True, 1.25: False}
    with pytest.raises(ScriptError, match="--slo-check checks the capacity a search found"):
        from ycsbpack.runner import run_scenario
        run_scenario.main(["S4", "--dry-run", "--slo-check"])


def test_a_search_where_nothing_held_names_the_latency_floor_not_a_capacity_of_zero():
    """Replayed on the analysis's judgements of a real search on Cassandra (analysis/tests/
    fixtures/capacity-cassandra: p99<=20ms failed at both rates tried): the runner says the
    objective lies below the latency floor, the floor the report gives (capacity.csv)."""
    analysis = pytest.importorskip("ycsb_analysis.capacity")
    from ycsb_analysis.loader import load, load_phase_dir

    search_dir = (Path(__file__).parents[2] / "analysis" / "tests" / "fixtures"
                  / "capacity-cassandra" / "20261128T183946Z")
    steps = [analysis.judge(load_phase_dir(search_dir
                                           / f"cassandra-update-heavy-threads-4-step-{k}"))
             for k in range(3)]
    phase, _ = searched("ci")
    search = CapacitySearch(phase, parse_objective("p99<=20ms"), 2)
    said = []
    result = search.run(lambda p: p, judge=lambda p: steps[p.capacity["step"]], say=said.append)
    report = analysis.capacities(analysis.steps_table(load([str(search_dir)], skipped=[])))
    assert result["capacity"] == 0 and result["floor_us"] == report["floor_us"][0] > 20_000
    assert said[-1] == ("   no capacity at p99<=20ms (intended): the objective lies below the "
                        "latency floor at every rate tried (floor: p99 100.4 ms, intended)")
    assert report["capacity"][0].endswith(said[-1].split(": ", 1)[1])
