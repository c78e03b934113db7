"""Warm-up, repeats and CPU records of the runner. The last test runs a real YCSB client
(BasicDB: no server) through the warm-up and its stop file."""

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from ycsbpack.databases import database
from ycsbpack.phases import warmup
from ycsbpack.phases.phase_runner import Phase, run_phase
from ycsbpack.scenarios.catalogue import SCENARIOS
from ycsbpack.scenarios.scenario_plan import Context

ROOT = Path(__file__).resolve().parents[2]
# status lines as YCSB 0.17 prints them (cut to their head; the judge reads nothing else)
LINE = ("2026-11-24 00:07:{s:02d}:030 {s} sec: {ops} operations; {rate} current ops/sec; "
        "est completion in 1 minute")


def feed(judge, client, rates, first=0):
    for k, r in enumerate(rates):
        judge.feed(client, LINE.format(s=first + 2 * k, ops=1000 * k, rate=r))


def test_a_climb_is_not_steady_and_a_level_is():
    judge = warmup.Judge(1, warmup.WarmUp(60, 8, 2))  # 4 samples
    feed(judge, 0, [10, 451.3, 1801, 2384.2, 4209])  # the quickstart's cold Cassandra
    assert not judge.stable.is_set()
    feed(judge, 0, [9800, 10100, 9900, 10050], first=10)
    assert not judge.stable.is_set()  # flat, but far above the window before it
    feed(judge, 0, [10000, 9950, 10100, 9900], first=18)
    assert judge.stable.is_set() and judge.seconds() == 24


def test_a_noisy_window_in_the_middle_of_a_slow_climb_is_not_steady():
    # a fresh local Cassandra (bench-aa, 2026-11-28): ~600 ops/s looked flat for 20 s, then
    # the same run climbed to ~3,000 ops/s; one window alone passed the old rule
    judge = warmup.Judge(1, warmup.WarmUp(90, 20, 2))  # 10 samples
    early = [0, 67, 117, 283, 431, 608, 762, 577, 741, 755, 532, 788, 433, 588]
    feed(judge, 0, early)
    assert warmup.stability.is_stable(judge.window()), "one window alone looks steady"
    assert not judge.stable.is_set()
    feed(judge, 0, [957, 740, 656, 2202, 1386, 1538, 1631, 2406, 3236, 2398], first=28)
    assert not judge.stable.is_set()


def test_a_german_locales_decimal_comma_is_a_decimal_mark():
    """YCSB prints the interval's ops/s in the JVM's locale without grouping ("62,5"): a real
    German-locale run's lines give 132, 150 and 62.5, and its first line (∞, an interval of
    0 ms) gives nothing."""
    judge = warmup.Judge(1, warmup.WarmUp(60, 8, 2))
    err = ROOT / "analysis" / "tests" / "fixtures" / "outputs" / "locale-de.err"
    for line in err.read_text().splitlines():
        judge.feed(0, line)
    assert judge.series[0] == [(1, 132.0), (2, 150.0), (2, 62.5)]


def test_bench_warmups_reference_rate_is_the_mean_of_the_last_seconds_current_ops():
    from ycsbpack.bench.bench_warmup import reference_rate

    lines = [LINE.format(s=s, ops=100 * s, rate=r) for s, r in
             [(0, "∞"), (1, "90"), (2, "100,5"), (3, "99,5"), (4, "101"), (5, "7")]]
    # seconds 2..4 of a 4-s run; the first line's ∞ and the shutdown's second 5 are left out
    assert reference_rate("\n".join(lines), 3, 4) == pytest.approx((100.5 + 99.5 + 101) / 3)


def test_the_rule_is_the_analysis_module_of_this_checkout_without_its_dependencies():
    """The runner imports ycsb_analysis.stability (one definition of "steady") and the YCSB
    line formats (readers/line_formats.py), from this checkout (the pack is installed
    editable): nothing else of the analysis package loads, so no phase waits for polars and
    numpy."""
    assert Path(warmup.stability.__file__) == ROOT / "analysis" / "ycsb_analysis" / "stability.py"
    probe = ("import sys; from ycsbpack.phases import warmup; "
             "print(warmup.stability.__file__); "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in "
             "('ycsb_analysis', 'polars', 'numpy', 'pyarrow')))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == [str(ROOT / "analysis" / "ycsb_analysis" / "stability.py"),
                   "['ycsb_analysis', 'ycsb_analysis.readers', "
                   "'ycsb_analysis.readers.line_formats', 'ycsb_analysis.stability']"]


def test_clients_are_judged_together_on_their_sum():
    judge = warmup.Judge(2, warmup.WarmUp(60, 8, 2))
    feed(judge, 0, [1, 100, 100, 100, 100])
    assert not judge.stable.is_set()  # client 1 has said nothing yet
    feed(judge, 1, [1, 50, 500, 1000, 2000])
    assert not judge.stable.is_set()  # 150 ... 2100: a climb
    assert judge.totals() == [150, 600, 1100, 2100]


def test_scale_bounds_and_the_properties_that_override_them():
    assert warmup.bounds("local", {}).max_s == warmup.SCALE_BOUNDS["local"][0]
    w = warmup.bounds("cluster", {"warmup.maxtime": "120", "warmup.window": "40"})
    assert (w.max_s, w.window_s, w.samples) == (120, 40, 8)
    assert warmup.bounds("local", {"warmup.maxtime": "0"}) is None




def test_loads_and_deletes_are_not_warmed_up_and_repeats_get_their_own_directories():
    ctx = Context("s3", database("cassandra"), "local", repeat=2, repeats=3)
    steps = SCENARIOS["s3"].plan(ctx)
    kinds = {s.name.split("-")[0]: s.repeatable for s in steps}
    assert kinds == {"insert": False, "select": True, "update": True, "delete": False}
    assert all(s.directory.endswith("-repeat-2") and s.repeat == 2 for s in steps)
    load = Context("s4", database("hbase"), "local").phase("load", "load", [], 1)
    assert load.directory == "hbase-load"


def test_a_real_client_warms_up_then_measures_and_ends_through_the_stop_file(tmp_path):
    phase = Phase(
        "t",
        "run",
        "basic",
        "basic",
        "run",
        [],
        {
            "workload": "site.ycsb.workloads.CoreWorkload",
            "recordcount": "100",
            "operationcount": "1000000000",
            "maxexecutiontime": "4",
            "basicdb.verbose": "false",
            "basicdb.simulatedelay": "2",
        },
        threads=4,
    )
    d = run_phase(phase, tmp_path, echo_status=False, warmup=warmup.WarmUp(6, 3, 1))
    meta = json.loads((d / "metadata.json").read_text())
    w = meta["warmup"]
    assert w["in_run"] and 3 <= w["end_s"] <= 8 and w["measured_s"] == 4
    # the clients' own bound is warm-up + measured + slack; the stop file ended them earlier
    assert meta["properties"]["maxexecutiontime"] == str(6 + 4 + 30)
    out = (d / "client-0.out").read_text()
    assert "[OVERALL], RunTime(ms)" in out and meta["exit_status"] == 0
    runtime_s = int(out.split("[OVERALL], RunTime(ms), ")[1].split()[0]) / 1000
    assert w["end_s"] + 3 <= runtime_s <= w["end_s"] + 7
    assert "stop requested" in (d / "client-0.err").read_text()
    assert not (d / "stop-after-measuring").exists()
    assert meta["cpu"]["client_cpu_s"][0] > 0 and meta["cpu"]["cores"] >= 1


def test_the_warm_up_limit_counts_once_every_client_runs_operations():
    # an HBase client creating its pre-split table prints "N sec: 0 operations;" for 20-30 s
    judge = warmup.Judge(2, warmup.WarmUp(20, 4, 1))
    judge.feed(0, "2026-11-28 16:44:50:830 1 sec: 0 operations; est completion in 0 second")
    assert not judge.operating()
    feed(judge, 0, [0, 120.5])
    assert not judge.operating()  # client 1 has done nothing yet
    feed(judge, 1, [80.0])
    assert judge.operating()


def test_the_warm_up_maximum_counts_from_the_first_operations(tmp_path, capsys):
    # a fresh HBase server: its client found its regions 9 s after it started, and a maximum
    # counted from the client's start left a 12-s warm-up 3 s of operations (and no window)
    run = warmup.InRunWarmUp(warmup.WarmUp(1, 4, 1), 0, tmp_path / "stop", 1)
    ended, first_ops = threading.Event(), []
    t0 = time.monotonic()
    controller = threading.Thread(target=run.control_until, args=(ended, t0))
    controller.start()
    run.judge.feed(0, "2026-11-28 16:44:50:830 1 sec: 0 operations; est completion in 0 second")
    time.sleep(1.5)  # longer than the maximum, no operation yet
    first_ops.append(time.monotonic() - t0)
    feed(run.judge, 0, [0, 50.0])
    while run.took_s is None and controller.is_alive():
        time.sleep(0.05)
    ended.set()
    controller.join()
    assert run.took_s >= first_ops[0] + 0.9 and not run.steady, (run.took_s, first_ops)
    said = capsys.readouterr().out
    assert "NOT steady" in said and "fewer than 4 status intervals with operations" in said, said


def test_a_finite_job_is_bounded_by_its_count_not_by_the_scales_time_limit():
    steps = SCENARIOS["s3"].plan(Context("s3", database("cassandra"), "ci"))
    by_kind = {s.name.split("-")[0]: s.properties.get("maxexecutiontime") for s in steps}
    assert by_kind["delete"] == "0" and by_kind["insert"] == "0"
    assert by_kind["select"] is None  # the scale's measured seconds (s3/ci.properties)
