"""The arithmetic of scripts/bench-binding: steady window, CPU per operation, pair ratios, order."""
from types import SimpleNamespace

import pytest
from ycsbpack.bench import bench_figures as fig
from ycsbpack.bench.bench_binding import compare, failures, parse_variant
from ycsbpack.core.errors import ScriptError

STDERR = """\
2026-11-24 00:10:00:000 0 sec: 0 operations; est completion in 0 second
2026-11-24 00:10:01:000 1 sec: 500 operations; 500 current ops/sec;
2026-11-24 00:10:02:000 2 sec: 1500 operations; 1000 current ops/sec;
2026-11-24 00:10:03:000 3 sec: 2500 operations; 1000 current ops/sec;
2026-11-24 00:10:04:000 4 sec: 3500 operations; 1000 current ops/sec;
2026-11-24 00:10:04:500 4 sec: 4000 operations; [CLEANUP: Count=8]
"""


def test_status_lines_give_wall_clock_and_cumulative_operations():
    points = fig.status_points("noise\n" + STDERR)
    assert [ops for _, ops in points] == [0, 500, 1500, 2500, 3500, 4000]
    assert points[1][0] - points[0][0] == pytest.approx(1.0)
    assert points[5][0] - points[4][0] == pytest.approx(0.5)


def test_cpu_time_is_utime_plus_stime_after_a_command_name_with_spaces():
    stat = ("4242 (java thing) S 1 4242 4242 0 -1 4194560 900 0 0 0 "
            "250 50 0 0 20 0 30 0 100 0 0")
    assert fig.cpu_seconds(stat, 100) == pytest.approx(3.0)


def test_series_are_interpolated_between_samples_and_refused_outside():
    series = [(10.0, 1.0), (12.0, 3.0)]
    assert fig.at(series, 11.5) == pytest.approx(2.5)
    with pytest.raises(ValueError):
        fig.at(series, 12.5)


def test_window_drops_the_warm_up_and_divides_cpu_by_the_window_operations():
    status = fig.status_points(STDERR)
    t0 = status[0][0]
    # 0.4 CPU seconds per wall second from t0: 0.4 s over the 2 s window [t0+1.5, t0+3.5]
    cpu = [(t0 + s, 0.4 * s + 7.0) for s in range(0, 5)]
    w = fig.steady_window(status, cpu, warmup=1.5, measured=2.0)
    # operations at 1.5 s: 1000, at 3.5 s: 3000 -> 2000 ops in 2 s
    assert w.ops_per_s == pytest.approx(1000.0)
    assert w.cpu_us_per_op == pytest.approx(0.8 * 1e6 / 2000)


def test_the_jit_threads_part_of_the_window_cpu_comes_from_their_own_series():
    status = fig.status_points(STDERR)
    t0 = status[0][0]
    cpu = [(t0 + s, 0.4 * s) for s in range(0, 5)]
    jit = [(t0 + s, 0.1 * s) for s in range(0, 5)]
    w = fig.steady_window(status, cpu, warmup=1.5, measured=2.0, jit=jit)
    assert w.jit_us_per_op == pytest.approx(0.2 * 1e6 / 2000)
    assert fig.steady_window(status, cpu, 1.5, 2.0).jit_us_per_op == 0.0


def test_jit_compiler_threads_are_known_by_their_kernel_name():
    assert fig.is_jit_thread("4243 (C2 CompilerThre) S 1 4242 4242 0 -1 0 0 0 0 0 90 3 0 0")
    assert fig.is_jit_thread("4244 (C1 CompilerThre) S 1 4242 4242 0 -1 0 0 0 0 0 9 1 0 0")
    assert not fig.is_jit_thread("4250 (Thread-3) S 1 4242 4242 0 -1 0 0 0 0 0 400 20 0 0")
    assert not fig.is_jit_thread("4251 (GC Thread#0) S 1 4242 4242 0 -1 0 0 0 0 0 4 0 0 0")


def test_window_longer_than_the_run_is_an_error_that_says_so():
    status = fig.status_points(STDERR)
    cpu = [(status[0][0] + s, float(s)) for s in range(0, 6)]
    with pytest.raises(ValueError, match="before the end of the window"):
        fig.steady_window(status, cpu, warmup=3, measured=3)


def test_ratios_pair_runs_by_repetition_and_the_median_is_reported():
    a = [fig.Window(100, 10, 0, 1), fig.Window(120, 12, 0, 1), fig.Window(90, 9, 0, 1)]
    b = [fig.Window(100, 8, 0, 1), fig.Window(100, 10, 0, 1), fig.Window(100, 10, 0, 1)]
    cpu = fig.pair_ratios(a, b, "cpu_us_per_op")
    assert cpu == pytest.approx([1.25, 1.2, 0.9])
    assert fig.median(cpu) == pytest.approx(1.2)
    assert fig.result_line("hbase", 1.2, 0.949) == \
        "RESULT db=hbase cpu_per_op_vs_raw=1.20 ops_vs_raw=0.95"


def test_legs_alternate_order_each_repetition():
    assert fig.leg_order(["binding", "raw"], 3) == [
        (0, "binding"), (0, "raw"), (1, "raw"), (1, "binding"), (2, "binding"), (2, "raw")]


def test_failed_operations_are_counted_from_return_lines_and_raw_failures():
    out = ("[READ], Return=OK, 10\n[READ], Return=NOT_FOUND, 2\n"
           "[UPDATE], Return=CLIENT_TIMEOUT, 3\n[OVERALL], Failures, 1\n")
    assert failures(out) == 6


def test_a_variant_is_a_name_and_the_binding_properties_of_its_leg():
    assert parse_variant("nio hbase.rpc.eventloop=nio hbase.rpc.eventloop.threads=2") == (
        "nio", {"hbase.rpc.eventloop": "nio", "hbase.rpc.eventloop.threads": "2"})


@pytest.mark.parametrize("text, says", [
    ("nio", "give a name, then the binding properties"),
    ("raw hbase.rpc.eventloop=nio", "not one of binding, raw, baseline, official"),
    ("nio hbase.rpc.eventloop", "'hbase.rpc.eventloop' is not PROP=VALUE"),
])
def test_a_bad_variant_is_refused_in_one_sentence(text, says):
    with pytest.raises(ScriptError, match=says):
        parse_variant(text)


def test_a_leg_compared_with_another_gives_ops_cpu_and_cpu_without_the_jit_threads():
    a = [SimpleNamespace(ops_per_s=100, cpu_us_per_op=50, jit_us_per_op=10)]
    b = [SimpleNamespace(ops_per_s=50, cpu_us_per_op=40, jit_us_per_op=0)]
    assert compare("binding vs official", a, b) == (
        "binding vs official: ops 2.00, CPU/op 1.25 (without JIT 1.00)")
