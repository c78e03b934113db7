"""`ycsb-report`: files written, comparison mode, exit status for unreadable input."""

import json
import math
import subprocess
import sys

import polars as pl
import pytest
from conftest import RESULTS, SEED, by, read_csv
from conftest import report_figures as client_report_figures
from ycsb_analysis.cli import main

EXPECTED_CHARTS = ["throughput-over-time", "latency-over-time", "latency-percentile-curve",
                   "thread-sweep-fixture-sweep-basic-coreworkload",
                   "client-scaling-fixture-sweep-basic-coreworkload-t2",
                   "database-comparison", "errors-over-time"]


@pytest.mark.parametrize("chart", EXPECTED_CHARTS)
def test_every_chart_is_written_as_png_and_svg(built_report, chart):
    png, svg = built_report / f"{chart}.png", built_report / f"{chart}.svg"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in svg.read_text()[:2000]


def test_every_parsed_figure_is_exported_with_its_run_and_client(built_report):
    figures = read_csv(built_report / "figures.csv")
    runs = set(figures["run"])
    assert {"cassandra", "hbase", "basic:run-clients-3"} <= runs
    assert set(figures.filter(pl.col("run") == "hbase")["client"]) == {0, 1, 2, 3}
    summary = json.loads((built_report / "summary.json").read_text())
    assert {r["run"] for r in summary} == runs
    records = read_csv(built_report / "records.csv")
    assert set(records["records_source"]) == {"recorded", "batchsize"}


def test_report_html_holds_every_run_and_its_exact_properties(built_report):
    html = (built_report / "report.html").read_text()
    assert "basic:batch-run" in html and "hbase" in html
    assert "hdrhistogram.output.path" in html          # a property from metadata.json
    assert "http://" not in html and "https://" not in html   # self-contained


def test_comparison_mode_shows_change_in_percent(tmp_path):
    out = tmp_path / "cmp"
    assert main([str(RESULTS), "-o", str(out), "--baseline", str(RESULTS)]) == 0
    cmp = read_csv(out / "comparison.csv")
    assert cmp.height and (cmp["change_percent"].abs() < 1e-9).all()
    assert "Comparison with the baseline" in (out / "report.html").read_text()


@pytest.mark.parametrize("content", ["", "nothing to see here\n", "\x00\x01\x02 binary"])
def test_unreadable_input_exits_non_zero_naming_the_file(tmp_path, capsys, content):
    bad = tmp_path / "client-0.out"
    bad.write_text(content)
    assert main([str(bad), "-o", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "Traceback" not in err


def test_missing_input_exits_non_zero(tmp_path, capsys):
    assert main([str(tmp_path / "nope.out"), "-o", str(tmp_path / "o")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_console_script_is_installed_and_runs(tmp_path):
    bin_dir = __import__("pathlib").Path(sys.executable).parent
    exe = bin_dir / "ycsb-report"
    if not exe.exists():
        pytest.fail(
            f"console script not installed next to {sys.executable}: "
            "scripts/test makes .venv (pip install -e '.[test]')"
        )
    proc = subprocess.run(
        [str(exe), str(SEED / "cassandra-insert-1-client.txt"), "-o", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "report.html").exists()


COMPARED_PHASES = ["load", "batch-run", "run-threads-1"]


def _copy_results(dst, timestamp, scenario="fixture-sweep"):
    """A few fixture phases under another timestamp and scenario name (metadata rewritten)."""
    import shutil

    (src,) = (RESULTS / "fixture-sweep").iterdir()
    target = dst / scenario / timestamp
    for phase in COMPARED_PHASES:
        shutil.copytree(src / phase, target / phase)
    for meta in target.glob("*/metadata.json"):
        m = json.loads(meta.read_text())
        m["scenario"] = scenario
        meta.write_text(json.dumps(m))
    return target


def _one_phase_as(src_phase, dst_root, phase="run"):
    """One fixture phase copied under ``phase`` (metadata rewritten), as its own results tree."""
    import shutil

    (src,) = (RESULTS / "fixture-sweep").iterdir()
    target = dst_root / "fixture-sweep" / src.name / phase
    shutil.copytree(src / src_phase, target)
    meta = json.loads((target / "metadata.json").read_text())
    meta["phase"] = phase
    (target / "metadata.json").write_text(json.dumps(meta))
    return target


def test_comparison_of_two_different_runs_has_the_sign_and_size_of_the_change(tmp_path):
    # Two real runs of the same phase: 1 thread (baseline) and 4 threads (current), -target 5000.
    base = _one_phase_as("run-threads-1", tmp_path / "baseline")
    cur = _one_phase_as("run-threads-4", tmp_path / "current")
    report = {p: client_report_figures(d / "client-0.out") for p, d in (("b", base), ("c", cur))}
    overall = {p: r[("OVERALL", "Throughput(ops/sec)")] for p, r in report.items()}
    out = tmp_path / "out"
    assert main([str(tmp_path / "current"), "-o", str(out),
                 "--baseline", str(tmp_path / "baseline")]) == 0
    row = by(read_csv(out / "comparison.csv"), "figure")["throughput"]
    # the figures are the steady windows' (not YCSB's whole-run figure), so close to it, not equal
    assert row["baseline"] == pytest.approx(overall["b"], rel=0.25)
    assert row["current"] == pytest.approx(overall["c"], rel=0.25)
    assert row["change_percent"] == pytest.approx((row["current"] / row["baseline"] - 1) * 100)
    # 4 threads against 1 (1508 -> 4919 ops/s whole-run): up by far more than 100 %; a
    # comparison with its sides swapped (about -69 %) or without a sign would fail. One run a
    # side is one trial: no interval of the ratio and no verdict (these 10-s runs also never
    # level off: "not judged"); test_verdicts.py and test_trials.py cover the called verdicts.
    assert row["change_percent"] > 150 and row["ratio"] > 2.5
    assert math.isnan(row["ratio_low"]) and not row["significant"]
    assert row["verdict"].startswith(("not judged", "one trial: no verdict"))
    assert "lower" not in row["verdict"]


def test_comparison_matches_phases_on_scenario_phase_and_database_using_the_latest_run(tmp_path):
    current = tmp_path / "current"
    _copy_results(current, "20000101T000000Z")                 # an older run of the same phases
    (latest,) = (RESULTS / "fixture-sweep").iterdir()
    _copy_results(current, latest.name)  # the latest: identical to the baseline
    _copy_results(
        current, latest.name, scenario="other-scenario"
    )  # same phase names, other scenario
    out = tmp_path / "out"
    assert main([str(current), "-o", str(out), "--baseline", str(RESULTS)]) == 0
    cmp = read_csv(out / "comparison.csv")
    assert set(cmp["scenario"]) == {"fixture-sweep"}
    assert not cmp.select("scenario", "phase", "database", "figure").is_duplicated().any()
    assert (cmp["change_percent"].abs() < 1e-9).all()         # the latest run was compared
    assert set(cmp["phase"]) == set(COMPARED_PHASES)
