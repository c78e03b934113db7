"""scripts/quickstart and scripts/bench-batches without servers: arguments, plan, figures.

The status lines and final reports are real YCSB outputs: the analysis fixtures' batch-run
phase (BatchedWorkload, batch size 10, two clients).
"""
import subprocess
from pathlib import Path

import pytest
from ycsbpack.bench import bench_batches
from ycsbpack.core.bindings import BINDINGS
from ycsbpack.core.errors import ScriptError
from ycsbpack.core.paths import REPO_ROOT
from ycsbpack.databases import NAMES, database
from ycsbpack.runner import quickstart

(BATCH_RUN,) = (Path(__file__).resolve().parents[2] / "analysis" / "tests" / "fixtures" / "results"
                / "fixture-sweep").glob("*/batch-run")


# --- bench-batches

def test_every_benchmarked_database_has_a_known_binding():
    assert set(bench_batches.DATABASES) <= set(NAMES)
    assert {database(name).binding for name in NAMES} <= set(BINDINGS)


def test_plan_runs_every_mode_of_reads_then_writes_at_every_size():
    runs = bench_batches.plan(bench_batches.DATABASES["cassandra"], [1, 10])
    assert [(k, op, m, s) for k, op, m, s, _ in runs] == [
        ("read", "BATCH_READ", "in", 1), ("read", "BATCH_READ", "in", 10),
        ("read", "BATCH_READ", "async", 1), ("read", "BATCH_READ", "async", 10),
        ("write", "BATCH_UPDATE", "unlogged", 1), ("write", "BATCH_UPDATE", "unlogged", 10),
        ("write", "BATCH_UPDATE", "logged", 1), ("write", "BATCH_UPDATE", "logged", 10),
        ("write", "BATCH_UPDATE", "async", 1), ("write", "BATCH_UPDATE", "async", 10)]
    assert runs[4][4] == {"cassandra.batchwrite": "unlogged"}


def test_records_per_second_counts_batches_after_the_warm_up_only():
    err = (BATCH_RUN / "client-0.err").read_text()
    # status lines: 1 s: 57, 2 s: 323, 3 s: 542, 3 s: 553 operations (batches of 10)
    assert bench_batches.records_per_second(err, 10, warmup=1) == pytest.approx(
        (553 - 57) * 10 / (3 - 1))
    assert bench_batches.records_per_second(err, 10, warmup=2) == pytest.approx(
        (553 - 323) * 10 / (3 - 2))


def test_a_run_too_short_after_the_warm_up_is_refused_with_the_fix():
    err = (BATCH_RUN / "client-0.err").read_text()
    with pytest.raises(ScriptError, match="raise --seconds"):
        bench_batches.records_per_second(err, 10, warmup=3)


def test_complete_is_false_when_any_record_was_not_found_or_failed():
    out = (BATCH_RUN / "client-0.out").read_text()
    assert not bench_batches.complete(out, "BATCH_READ")      # 237 NOT_FOUND
    assert not bench_batches.complete(out, "BATCH_UPDATE")    # 219 ERROR
    only_ok = "\n".join(line for line in out.splitlines() if "Return=OK" in line
                        or "-RECORDS" not in line)
    assert bench_batches.complete(only_ok, "BATCH_READ")
    assert not bench_batches.complete(only_ok, "BATCH_INSERT")   # no such records at all


def test_table_prints_median_and_range_of_the_repetitions_and_flags_incomplete(capsys):
    class Args:
        repeat, threads, warmup, seconds = 3, 8, 20, 40
    results = {("read", "in", 1): [(300.0, False), (100.0, False), (200.0, False)],
               ("read", "in", 10): [(1000.0, False), (4000.0, True), (2500.0, False)]}
    bench_batches.print_table(results, [1, 10], Args)
    lines = capsys.readouterr().out.splitlines()
    row = next(line for line in lines if line.startswith("read in"))
    assert "200 (100-300)" in row and "2,500 (1,000-4,000)*" in row
    assert lines[-1].startswith("* = some run did not complete")


def test_a_warm_up_as_long_as_the_run_is_refused_before_anything_starts(monkeypatch):
    monkeypatch.setattr(bench_batches, "ensure_built", lambda: pytest.fail("built"))
    with pytest.raises(ScriptError, match="--warmup must be shorter than --seconds"):
        bench_batches.main(["--seconds", "20", "--warmup", "20"])


# --- quickstart

@pytest.fixture
def recorded(monkeypatch, tmp_path):
    calls = {}
    monkeypatch.setattr(quickstart, "ensure_built", lambda: calls.setdefault("built", True))

    def run_scenarios(scenarios, databases, settings, out, quick):
        calls.update(scenarios=scenarios, databases=databases, settings=settings, out=out,
                     quick=quick)
        return calls.get("failed", 0)

    monkeypatch.setattr(quickstart, "run_scenarios", run_scenarios)
    monkeypatch.setattr(quickstart, "write_report",
                        lambda results, out: out / "report.html")
    return calls


def test_quickstart_runs_s4_trials_to_a_10_percent_interval_and_prints_the_report_last(
        recorded, tmp_path, capsys):
    assert quickstart.main(["--out", str(tmp_path / "r"), "--seconds", "12"]) == 0
    assert recorded["built"] and recorded["quick"] is True
    assert recorded["scenarios"] == ["s4"]
    assert recorded["databases"] == ["cassandra", "hbase"]
    s = recorded["settings"]
    assert (s.scale, s.keep_going, s.user_properties) == (
        "local", True, {"maxexecutiontime": "12"})
    assert (s.trials.precision, s.trials.budget_s) == (0.10, 1800.0)
    assert recorded["out"] == (tmp_path / "r").resolve()
    assert capsys.readouterr().out.splitlines()[-1] == str((tmp_path / "r" / "report").resolve()
                                                          / "report.html")


def test_quickstart_with_s1_and_a_fixed_number_of_trials(recorded, tmp_path):
    assert quickstart.main(["--out", str(tmp_path), "--with-s1", "--repeat", "3"]) == 0
    assert recorded["scenarios"] == ["s4", "s1"]
    s = recorded["settings"]
    assert (s.trials.repeat, s.trials.precision, s.trials.numbered) == (3, None, True)


def test_quickstart_one_database_and_exit_status_1_after_a_failed_step(recorded, tmp_path,
                                                                       capsys):
    recorded["failed"] = 2
    assert quickstart.main(["--db", "hbase", "--out", str(tmp_path)]) == 1
    assert recorded["databases"] == ["hbase"]
    assert "2 step(s) FAILED" in capsys.readouterr().out


def test_quickstart_refuses_an_unknown_database(recorded, capsys):
    with pytest.raises(SystemExit) as e:
        quickstart.main(["--db", "mongodb"])
    assert e.value.code == 2 and "invalid choice: 'mongodb'" in capsys.readouterr().err


def test_the_quickstart_headline_is_the_primary_verdict_of_each_phase(tmp_path):
    """headline() on a real report (ycsb-report on the kept fixture of S4 trials): one line per
    compared phase, its primary figure only, the two sides named as the report names them."""
    fixture = REPO_ROOT / "analysis" / "tests" / "fixtures" / "trials-s4"
    subprocess.run([str(REPO_ROOT / ".venv" / "bin" / "ycsb-report"), str(fixture), "-o",
                    str(tmp_path)], check=True, capture_output=True)
    said = quickstart.headline(tmp_path)
    verdicts, table = said.split("\n\n")
    lines = verdicts.splitlines()
    assert lines and all(" throughput, cassandra/hbase " in x or " records/s, " in x
                         for x in lines), lines
    assert not any("latency" in x or "service time" in x for x in lines)
    # then the answer table the report opens with, as ycsb-report wrote it
    assert table == (tmp_path / "answer.txt").read_text().rstrip()
    assert len(table.splitlines()) == len(lines) + 2  # a head, a row per phase, the legend
    assert quickstart.headline(tmp_path / "nothing") == "== no comparison (one database shown)"
