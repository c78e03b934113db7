"""A capacity step ends early only when its objective is broken for certain, and is measured
longer when it is undecided (phases/objective_watch.py): replayed on real steps' status lines
against the analysis's own judgement of the whole window, and on a real YCSB client whose
latency breaks the bound, comes near it, or stays far below it."""
import json
from pathlib import Path

import pytest
from ycsb_analysis.capacity import judge
from ycsb_analysis.loader import load_phase_dir
from ycsbpack.phases import warmup
from ycsbpack.phases.objective_watch import ObjectiveWatch
from ycsbpack.phases.phase_runner import Phase, run_phase

FIXTURES = Path(__file__).resolve().parents[2] / "analysis" / "tests" / "fixtures"
STEPS = sorted(FIXTURES.glob("capacity-*/*/*-step-[1-9]*"))


def judged(step: Path) -> dict:
    return judge(load_phase_dir(step))


def watched(step: Path):
    """The watch of a real step, its metadata, and each client's status lines."""
    meta = json.loads((step / "metadata.json").read_text())
    o, clients = meta["capacity"]["objective"], meta.get("clients", 1)
    watch = ObjectiveWatch(o["percentile"], o["bound_us"], o["operation"],
                           [meta["target"] // clients] * clients, [meta["threads"]] * clients,
                           meta["warmup"]["measured_s"])
    return watch, meta, [(step / f"client-{i}.err").read_text().splitlines()
                         for i in range(clients)]


def replay(step: Path):
    """The watch of a real step fed its clients' status lines in order; the status second at
    which it first called the objective broken (None: never) and its reason."""
    watch, meta, clients = watched(step)
    end_s = meta["warmup"]["end_s"]
    for i, lines in enumerate(clients):
        for line in lines:
            watch.feed(i, line)
            why = watch.broken(end_s)
            if why:
                return int(line.split(" sec:")[0].split()[-1]), why
    return None, None


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.name)
def test_the_estimate_of_a_real_windows_percentile_is_near_the_analysis_figure(step):
    # it only chooses the window's length (within a factor of 3 of the bound: measured longer)
    watch, meta, clients = watched(step)
    for i, lines in enumerate(clients):
        for line in lines:
            watch.feed(i, line)
    estimate = watch.estimate(meta["warmup"]["end_s"])
    exact = {op: o["intended"]["p99"]["us"] for op, o in judged(step)["operations"].items()}
    assert set(estimate) == set(exact)
    for op in exact:
        assert 1 / 1.5 < estimate[op] / exact[op] < 1.5, (op, estimate[op], exact[op])


def test_a_real_step_near_its_objective_is_undecided_one_far_below_it_is_not():
    near, far = (next(s for s in STEPS if s.name == f"cassandra-update-heavy-threads-4-{n}")
                 for n in ("step-1-repeat-1", "step-2-repeat-1"))
    said = {}
    for step in (near, far):  # p99<=200ms: READ 120.4 and UPDATE 126.7 ms; 4.7 and 5.2 ms
        watch, meta, clients = watched(step)
        for line in clients[0]:
            watch.feed(0, line)
        said[step] = watch.undecided(meta["warmup"]["end_s"], 3.0)
    assert said[far] is None
    assert said[near].startswith("READ p99 about ") and "UPDATE p99 about " in said[near]
    assert said[near].endswith("within a factor 3 of 200 ms")


def test_the_real_steps_are_there_both_held_and_broken():
    held = [judged(s)["held"] for s in STEPS]
    assert len(STEPS) >= 8 and True in held and False in held


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.name)
def test_a_step_is_called_broken_early_only_when_its_whole_window_breaks(step):
    at, why = replay(step)
    verdict = judged(step)
    if verdict["held"]:
        assert at is None, f"called broken at {at} s ({why}) but the window held"
    if at is not None:
        assert not verdict["held"] and "whatever follows" in why


def test_a_real_step_far_above_its_objective_is_called_broken_before_its_window_ends():
    # CI scale: 990 ops/s aimed, 4 threads, measured 5 s from second 14; intended p99 > 200 ms
    step = next(s for s in STEPS if s.name == "cassandra-update-heavy-threads-4-step-1-repeat-2")
    at, why = replay(step)
    assert at is not None and at < 14 + 5 and why.startswith("READ and UPDATE: at least ")


def test_the_fewest_operations_above_the_bound_in_an_interval_of_a_real_line():
    # a real interval of the step above (CI scale, p99<=20ms): 135 updates, 90th at 822 ms
    line = ("2026-11-28 18:40:40:003 20 sec: 2427 operations; 255.2 current ops/sec; "
            "[Intended-UPDATE: Count=135, Max=834559, Min=516608, Avg=691975.59, 90=821759, "
            "99=831487, 99.9=834559, 99.99=834559] [Intended-READ: Count=10, Max=20100, "
            "Min=900, Avg=5000.0, 90=9000, 99=20100, 99.9=20100, 99.99=20100] ")
    watch = ObjectiveWatch(99.0, 20_000.0, "", [269], [4], 5)
    watch.feed(0, line)
    (_, done, above), = watch.lines[0]
    # more than 90% above 20 ms: 135 - floor(0.9 x 135) = 14 at least; READ's 20.1 ms is
    # within the histogram's precision of the bound: not counted
    assert done == 2427 and above == {"UPDATE": 14, "READ": 0}
    named = ObjectiveWatch(99.0, 20_000.0, "READ", [269], [4], 5)
    named.feed(0, line)
    assert named.lines[0][0][2] == {"READ": 0}


def basic_phase(bound_ms: float, measured_s: int) -> Phase:
    """A paced capacity step on YCSB's BasicDB sleeping up to 40 ms per operation (4 threads
    at 40 ops/s keep their schedule: the latency alone decides), measured 3 x as long when its
    p99 is within 3 x the bound."""
    return Phase("t", "step", "basic", "basic", "run", [], {
        "workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "100",
        "operationcount": "1000000000", "maxexecutiontime": str(measured_s),
        "basicdb.verbose": "false", "basicdb.simulatedelay": "40",
        "measurement.interval": "both", "status.interval": "1"},
        threads=4, target=40, capacity={
            "search": "t", "step": 1, "keep_up": 0.95, "objective": {
                "text": f"p99<={bound_ms:g}ms", "percentile": 99.0,
                "bound_us": bound_ms * 1000, "operation": ""},
            "longer": {"times": 3, "factor": 3.0}})


@pytest.mark.serial
def test_a_real_client_breaking_its_objective_ends_its_measured_part_early(tmp_path):
    d = run_phase(basic_phase(10, 60), tmp_path / "broken", echo_status=False,
                  warmup=warmup.WarmUp(4, 2, 1), watch_servers=False)
    w = json.loads((d / "metadata.json").read_text())["warmup"]
    assert w["measured_s"] == 60 and w["ended_early"]["after_s"] < 20
    assert "whatever follows" in w["ended_early"]["why"]
    assert not judged(d)["held"]


@pytest.mark.serial
def test_a_real_client_within_its_objective_is_measured_to_the_end(tmp_path):
    d = run_phase(basic_phase(1000, 6), tmp_path / "held", echo_status=False,
                  warmup=warmup.WarmUp(4, 2, 1), watch_servers=False)
    meta = json.loads((d / "metadata.json").read_text())
    assert "ended_early" not in meta["warmup"] and "extended" not in meta["warmup"]
    assert runtime(d) >= meta["warmup"]["end_s"] + 6


def runtime(phase_dir: Path) -> float:
    out = (phase_dir / "client-0.out").read_text()
    return int(out.split("[OVERALL], RunTime(ms), ")[1].split()[0]) / 1000


@pytest.mark.serial  # p99 of 40-ms sleeps against a 100-ms bound: a busy core adds to it
def test_a_real_client_near_its_objective_is_measured_three_times_as_long(tmp_path):
    # p99 about 40 ms against 100 ms: within a factor 3 (above 33 ms), never broken: nothing
    # above 40 ms but the machine's own hiccups (with 60 ms as the bound, a busy 2-core machine
    # put 7 intended latencies above it in a fresh-clone CI run, 2026-12-06)
    d = run_phase(basic_phase(100, 4), tmp_path / "near", echo_status=False,
                  warmup=warmup.WarmUp(4, 2, 1), watch_servers=False)
    w = json.loads((d / "metadata.json").read_text())["warmup"]
    assert w["extended"]["to_s"] == 12 and "within a factor 3 of 100 ms" in w["extended"]["why"]
    assert "ended_early" not in w and runtime(d) >= w["end_s"] + 12
    verdict = judged(d)  # on the whole longer window
    # (the runner stops the clients by its own clock, the window is read on the clients': they
    # agree within tens of milliseconds, 11.983 s in a CI run)
    assert verdict["held"] and verdict["window_s"] == pytest.approx(12, abs=0.1)
    assert " over 12 s;" in verdict["summary"]
