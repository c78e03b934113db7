"""Issue 45, trials that agree: one primary figure per phase (closed-loop latencies named
service times), A/A comparisons of one database, and --baseline across sessions.

The results directories here are built in a tmp dir from real fixtures, changing only
metadata.json: fixtures/results/fixture-sweep's batched run (FixtureDB, 10 records a batch)
copied as two trials of two databases, and fixtures/trials-s4's two Cassandra trials (fresh
servers each) copied as both sides of an A/A test.
"""

from __future__ import annotations

import json
import math
import shutil

import numpy as np
import polars as pl
import pytest
from conftest import FIXTURES, RESULTS, by, read_csv
from scipy.stats import t as student_t
from ycsb_analysis import sides
from ycsb_analysis.cli import main
from ycsb_analysis.loader import load
from ycsb_analysis.precision import headlines
from ycsb_analysis.summary import runs_summary
from ycsb_analysis.trials import paired_ratio, unpaired_ratio
from ycsb_analysis.uncertainty import t95
from ycsb_analysis.verdicts import against_baseline, aggregate, between_databases

TRIALS = FIXTURES / "trials-s4" / "20261128T154600Z"
VERDICTS = FIXTURES / "verdicts"


def _copy_phase(src, dst, **changes):
    """A phase directory copied, its metadata.json updated with ``changes``."""
    shutil.copytree(src, dst)
    meta = json.loads((dst / "metadata.json").read_text())
    meta.update(changes)
    (dst / "metadata.json").write_text(json.dumps(meta, indent=1))


def batched_two_databases(root):
    """fixture-sweep's batch-run (a closed loop: no -target) as trials 1 and 2 of Cassandra
    and of HBase, in the runner's layout."""
    (src,) = (RESULTS / "fixture-sweep").glob("*/batch-run")
    out = root / "fixture-sweep" / "20261201T000000Z"
    for db in ("cassandra", "hbase"):
        for k in (1, 2):
            _copy_phase(src, out / f"{db}-batch-run-repeat-{k}", database=db, repeat=k)
    return root


def aa_results(root):
    """An A/A test as run-scenario --aa would write it, from trials-s4's two Cassandra trials:
    side A's trials 1, 2 are Cassandra's trials 1, 2; side B's are the same two the other way
    round (its trial 1 is Cassandra's trial 2): the same configuration on both sides, with the
    real spread between fresh servers. Only metadata.json changes (database, aa, repeat)."""
    out = root / "s4" / TRIALS.name
    for phase in ("load", "update-heavy-threads-4"):
        for side, order in (("A", (1, 2)), ("B", (2, 1))):
            for k, source in enumerate(order, 1):
                _copy_phase(TRIALS / f"cassandra-{phase}-repeat-{source}",
                            out / f"cassandra-{side}-{phase}-repeat-{k}",
                            database=f"cassandra-{side}", repeat=k,
                            aa={"database": "cassandra", "side": side})
    return root


# -- one primary figure per phase ---------------------------------------------------------

def test_a_batched_phase_has_one_primary_row_records_per_s_and_marks_the_rest(tmp_path):
    out = tmp_path / "report"
    assert main([str(batched_two_databases(tmp_path / "results")), "-o", str(out)]) == 0
    v = read_csv(out / "verdicts.csv")
    assert {"primary", "side_a", "side_b"} <= set(v.columns)
    assert set(v["figure"]) >= {"throughput", "records/s", "p99 latency"}
    (first,) = v.filter(pl.col("primary")).to_dicts()  # one phase, one comparison: one primary
    assert first["figure"] == "records/s" and (first["side_a"], first["side_b"]) == (
        "cassandra", "hbase")
    assert not first["verdict"].startswith("secondary")
    for text in v.filter(~pl.col("primary"))["verdict"]:
        assert text.startswith("secondary: "), text
    # a secondary verdict names its figure (the "not judged" ones included)
    assert by(v, "figure")["throughput"]["verdict"].startswith("secondary: throughput:")
    assert "Cassandra vs HBase" in (out / "report.html").read_text()


def test_with_one_database_the_precision_of_a_batched_phase_is_that_of_its_records_per_s(
        tmp_path):
    """--precision with one database judges the phase's primary figure, as between two:
    records/s of a batched phase (it was its batches/s, labelled throughput)."""
    root = batched_two_databases(tmp_path)
    for d in root.glob("*/*/hbase-*"):
        shutil.rmtree(d)
    (head,) = headlines(str(root / "fixture-sweep")).headlines
    assert head.what == "cassandra records/s" and head.verdict.endswith(" records/s"), head
    assert head.trials == "2" and head.ratio > 0


def test_closed_loop_latencies_are_service_times_and_the_mean_repeats_throughput(tmp_path):
    agg = aggregate(runs_summary(load([str(batched_two_databases(tmp_path))])))
    v = {f: r["verdict"] for f, r in by(between_databases(agg), "figure").items()}
    assert v["p99 latency"].startswith("secondary: p99 service time"), v["p99 latency"]
    assert v["p95 latency"].startswith("secondary: p95 service time")
    assert "Little's law" in v["mean latency"] and "throughput" in v["mean latency"]
    assert "service time" not in v["throughput"]


def _rows(values: dict, database: str, target=None, phase="p", scenario="s4") -> list[dict]:
    return [{"scenario": scenario, "timestamp": "t", "phase": phase, "database": database,
             "run": f"{database}:{phase} #{k}", "repeat": k, "window": "w", "steady": True,
             "target": target, "throughput_ops_per_s": v, "p99_latency_us": 1e6 / v}
            for k, v in values.items()]


def test_a_phase_at_a_target_keeps_its_latency_words_and_throughput_decides():
    c, h = {1: 1100.0, 2: 1150.0, 3: 1080.0}, {1: 1000.0, 2: 1010.0, 3: 990.0}
    paced = between_databases(aggregate(pl.DataFrame(
        _rows(c, "cassandra", target=5000) + _rows(h, "hbase", target=5000))))
    row = by(paced, "figure")["p99 latency"]
    assert "p99 latency" in row["verdict"] and "service time" not in row["verdict"]
    assert paced.filter(pl.col("primary"))["figure"].to_list() == ["throughput"]
    # the same trials without a target: a closed loop
    closed = between_databases(aggregate(pl.DataFrame(_rows(c, "cassandra") + _rows(h, "hbase"))))
    assert "p99 service time" in by(closed, "figure")["p99 latency"]["verdict"]


def test_real_trials_have_one_primary_row_per_phase_and_it_is_throughput():
    v = between_databases(aggregate(runs_summary(load([str(FIXTURES / "trials-s4")]))))
    per_phase = v.group_by("phase").agg(pl.col("primary").sum())["primary"]
    assert (per_phase == 1).all() and len(per_phase) == 2
    assert set(v.filter(pl.col("primary"))["figure"]) == {"throughput"}


# -- A/A: one database on both sides ------------------------------------------------------

def test_an_aa_test_compares_its_two_sides_a_first_and_says_what_it_resolves(tmp_path):
    out = tmp_path / "report"
    assert main([str(aa_results(tmp_path / "results")), "-o", str(out)]) == 0
    v = read_csv(out / "verdicts.csv")
    assert set(zip(v["side_a"], v["side_b"])) == {("cassandra-A", "cassandra-B")}
    assert v["aa"].all() and {"cassandra-A", "cassandra-B"} <= set(v.columns)
    load_row = v.filter((pl.col("phase") == "load") & pl.col("primary")).row(0, named=True)
    # side B's trials are side A's the other way round: the pairs' log ratios are d and -d
    assert load_row["ratio"] == pytest.approx(1.0)
    assert load_row["verdict"].startswith(
        "A/A: no significant difference (as expected for the same configuration")
    assert "at 2 pairs this environment resolves differences beyond +-" in load_row["verdict"]
    assert load_row["resolves_percent"] == pytest.approx(load_row["precision"] * 100)
    k, sd = 2, load_row["sd_log"]
    detect = math.sinh((t95(k - 1) + student_t.ppf(0.8, k - 1)) * sd / math.sqrt(k)) * 100
    assert load_row["detectable_80_percent"] == pytest.approx(detect)
    assert f"(80% power: +-{detect:.1f}%)" in load_row["verdict"]
    html = (out / "report.html").read_text()
    assert "A/A: cassandra-A vs cassandra-B" in html and "80% power ±%" in html


def test_the_precision_headline_of_an_aa_test_is_its_sides_ratio_with_its_resolution(tmp_path):
    found = headlines(str(aa_results(tmp_path)), 0.05)
    (h,) = found.headlines
    assert h.what == "cassandra-A/cassandra-B throughput"
    assert h.phase == "update-heavy-threads-4"


def test_sides_map_an_aa_side_to_its_database_for_order_and_colour():
    meta = {"database": "cassandra-B", "aa": {"database": "cassandra", "side": "B"}}
    assert sides.side_of(meta) == sides.Side("cassandra-B", "cassandra", "B")
    known = {m["database"]: sides.side_of(m) for m in (
        meta, {"database": "cassandra-A", "aa": {"database": "cassandra", "side": "A"}})}
    assert sides.ordered(["cassandra-B", "cassandra-A"], known) == ["cassandra-A", "cassandra-B"]
    assert sides.pairs(["hbase", "cassandra"]) == [("cassandra", "hbase")]
    assert sides.color("cassandra-A", known) == sides.COLORS["cassandra"]
    assert sides.color("cassandra-B", known) not in (sides.COLORS["cassandra"], "tab:grey")
    assert sides.is_aa("cassandra-A", "cassandra-B", known)
    assert not sides.is_aa("cassandra", "hbase", known)


def test_the_resolution_of_five_pairs_follows_the_power_formula():
    rng = np.random.default_rng(45)
    a = {k: 1000 * math.exp(rng.normal(0, 0.03)) for k in range(1, 6)}
    b = {k: 1000 * math.exp(rng.normal(0, 0.03)) for k in range(1, 6)}
    rows = [dict(r, aa_database="cassandra", aa_side=side) for side, values in (("A", a), ("B", b))
            for r in _rows(values, f"cassandra-{side}")]
    v = between_databases(aggregate(pl.DataFrame(rows)))
    row = v.filter(pl.col("primary")).row(0, named=True)
    r = paired_ratio(a, b)
    assert row["resolves_percent"] == pytest.approx(r.precision * 100)
    expected = math.sinh((t95(4) + student_t.ppf(0.8, 4)) * r.sd_log / math.sqrt(5)) * 100
    assert row["detectable_80_percent"] == pytest.approx(expected)
    assert "at 5 pairs" in row["verdict"]


def test_an_aa_test_that_calls_its_sides_different_says_the_same_configuration_was_called():
    rows = _rows({1: 1100.0, 2: 1120.0, 3: 1090.0}, "cassandra-A")
    rows += _rows({1: 1000.0, 2: 1010.0, 3: 995.0}, "cassandra-B")
    for r in rows:
        r["aa_database"], r["aa_side"] = "cassandra", r["database"][-1]
    row = between_databases(aggregate(pl.DataFrame(rows))).row(0, named=True)
    assert row["verdict"].startswith("A/A: cassandra-A 10% higher than cassandra-B, the same "
                                     "configuration called different")
    assert "better" not in row["verdict"] and row["significant"]


def test_one_database_with_one_change_on_b_is_an_ordinary_comparison_not_an_aa_test():
    # run-scenario --aa --b-property target=700: the power check's known difference
    rows = _rows({1: 1000.0, 2: 1020.0, 3: 990.0}, "cassandra-A")
    rows += _rows({1: 700.0, 2: 701.0, 3: 699.0}, "cassandra-B", target=700)
    for r in rows:
        r["aa_database"], r["aa_side"] = "cassandra", r["database"][-1]
        r["aa_changed"] = "target=700" if r["aa_side"] == "B" else ""
    known = sides.known_sides(rows)
    assert not sides.is_aa("cassandra-A", "cassandra-B", known)
    assert sides.title("cassandra-A", "cassandra-B", known) == (
        "A/B of one database: cassandra-A vs cassandra-B (cassandra-B: target=700)")
    row = between_databases(aggregate(pl.DataFrame(rows))).row(0, named=True)
    assert row["verdict"].startswith("cassandra-A: throughput 43% higher than cassandra-B "
                                     "(better)"), row["verdict"]
    assert row["significant"] and not row["aa"]
    # without the change the same sides are an A/A test
    for r in rows:
        r["aa_changed"] = ""
    assert sides.is_aa("cassandra-A", "cassandra-B", sides.known_sides(rows))


# -- --baseline across sessions -----------------------------------------------------------

def _sessions(session_spread):
    cur = {1: 1100.0, 2: 1108.0, 3: 1095.0, 4: 1103.0}   # 10% above the baseline, 0.5% spread
    base = {1: 1000.0, 2: 1006.0, 3: 996.0, 4: 1002.0}
    v = against_baseline(aggregate(pl.DataFrame(_rows(cur, "cassandra"))),
                         aggregate(pl.DataFrame(_rows(base, "cassandra"))), session_spread)
    return by(v, "figure")["throughput"], cur, base


def test_a_ten_percent_difference_is_not_called_with_a_twenty_percent_session_spread():
    row, _, _ = _sessions(0.20)
    assert row["change_percent"] == pytest.approx(10, abs=0.5)
    assert not row["significant"] and row["ratio_low"] < 1 < row["ratio_high"]
    assert row["verdict"].startswith("no significant difference")
    assert "between-session spread 20% included" in row["verdict"]


def test_a_ten_percent_difference_is_called_with_a_one_percent_session_spread():
    row, cur, base = _sessions(0.01)
    assert row["significant"] and row["ratio_low"] > 1
    assert "higher than baseline (better)" in row["verdict"]
    # the interval: Welch's on the trials' logs plus 2 log(1 + cv)^2, Welch's degrees of freedom
    welch = unpaired_ratio(cur, base)
    la, lb = np.log(list(cur.values())), np.log(list(base.values()))
    half = t95(welch.df) * math.sqrt(la.var(ddof=1) / 4 + lb.var(ddof=1) / 4
                                     + 2 * math.log(1.01) ** 2)
    assert row["ratio_high"] == pytest.approx(row["ratio"] * math.exp(half))


def test_without_a_session_spread_a_difference_is_within_session_only():
    row, _, _ = _sessions(None)
    assert not row["significant"] and row["within_session_only"]
    assert row["verdict"].startswith("within-session only: trials differ by +10%")
    assert "sessions were not sampled: give --session-spread" in row["verdict"]
    assert "better" not in row["verdict"] and "significant" not in row["verdict"]


def test_ycsb_report_takes_the_session_spread_and_says_when_sessions_were_not_sampled(
        tmp_path):
    files = [f"run={VERDICTS / f}" for f in ("threads-32.txt", "threads-32-b.txt")]
    base = [f"run={VERDICTS / f}" for f in ("same-a.txt", "same-c.txt")]
    assert main(files + ["-o", str(tmp_path / "none"), "--baseline", *base]) == 0
    cmp = read_csv(tmp_path / "none" / "comparison.csv")
    assert cmp["verdict"].str.contains("sessions were not sampled").all()
    assert not cmp["significant"].any() and cmp["session_spread_percent"].is_null().all()
    assert main(files + ["-o", str(tmp_path / "one"), "--session-spread", "1%",
                         "--baseline", *base]) == 0
    cmp = read_csv(tmp_path / "one" / "comparison.csv")
    assert by(cmp, "figure")["throughput"]["significant"]
    assert by(cmp, "figure")["throughput"]["primary"]
    assert (cmp["session_spread_percent"] == 1).all()
    for bad in (["--session-spread", "20"], ["--session-spread", "-1%"]):
        with pytest.raises(SystemExit) as e:   # 20 could be 20% or 2000%: refused
            main(files + ["-o", str(tmp_path / "bad"), *bad, "--baseline", *base])
        assert e.value.code == 2
    with pytest.raises(SystemExit):            # a spread between sessions needs two sessions
        main(files + ["-o", str(tmp_path / "bad"), "--session-spread", "5%"])
