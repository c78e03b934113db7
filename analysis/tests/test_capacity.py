"""Capacity steps judged on intended latency, the .hdr windows aligned on the status clock, the
coordinated-omission flag, the capacity of a search and the CLI the runner reads: on real
outputs (fixtures/capacity-cassandra: a search on a real Cassandra; fixtures/capacity-est: a
step whose client ran in another time zone)."""

import json
import math
import shutil
from datetime import datetime, timezone
from pathlib import Path

import polars as pl
import pytest
from ycsb_analysis import capacity
from ycsb_analysis.charts import capacity as capacity_chart
from ycsb_analysis.cli import main
from ycsb_analysis.errors import UnreadableInput
from ycsb_analysis.loader import load, load_phase_dir
from ycsb_analysis.timeseries import hdr_origin

FIXTURES = Path(__file__).parent / "fixtures"
CASSANDRA = FIXTURES / "capacity-cassandra" / "20261128T183946Z"
EST = FIXTURES / "capacity-est" / "20261128T184514Z" / "basic-basic-update-heavy-step-0"


def step(k: int):
    return load_phase_dir(CASSANDRA / f"cassandra-update-heavy-threads-4-step-{k}")


def status_start_epoch(err: Path, utc_offset_s: float) -> float:
    """From the client's first status line: its wall clock minus its seconds counter."""
    line = next(s for s in err.read_text().splitlines() if " sec: " in s)
    stamp, sec = line[:23], int(line[24:].split(" sec:")[0])
    local = datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S:%f").replace(tzinfo=timezone.utc)
    return local.timestamp() - sec - utc_offset_s


def test_the_hdr_windows_start_at_the_status_clock_not_at_the_first_operation():
    run = step(1)
    logs = [log for c in run.clients for log in c.hdr_logs.values()]
    origin = hdr_origin(run, logs)
    assert origin == pytest.approx(status_start_epoch(CASSANDRA / "cassandra-update-heavy-"
                                                      "threads-4-step-1" / "client-0.err", 0.0),
                                   abs=0.5)  # the "0 sec" line comes a fraction after the start
    first_hdr = min(float(log.intervals["start_s"].min()) for log in logs)
    assert first_hdr - origin > 5, "this client's first operation came seconds after its start"
    # so the measured window (status seconds) holds .hdr intervals: latency for both operations
    judged = capacity.judge(run)
    assert set(judged["operations"]) == {"READ", "UPDATE"}, judged["why"]


def test_a_client_in_another_time_zone_is_aligned_by_its_hdr_header():
    run = load_phase_dir(EST)
    log = run.clients[0].hdr_logs["READ"]
    assert log.utc_offset_s == -5 * 3600
    origin = hdr_origin(run, list(run.clients[0].hdr_logs.values()))
    assert origin == pytest.approx(status_start_epoch(EST / "client-0.err", -5 * 3600), abs=0.5)
    judged = capacity.judge(run)
    assert judged["operations"]["READ"]["intended"]["p99"]["us"] <= 4000  # within its window
    assert judged["why"] == ["the unthrottled probe gives the ceiling and decides nothing"]


def test_coordinated_omission_is_flagged_where_the_client_fell_behind_and_not_where_it_kept_up():
    behind = capacity.judge(step(1))  # -target 269 on a Cassandra that managed ~336 unthrottled
    assert behind["fell_behind"] == ["READ", "UPDATE"]
    read = behind["operations"]["READ"]
    assert read["intended"]["p99"]["us"] > 2 * read["service"]["p99"]["us"]
    assert "fell behind its schedule on READ, UPDATE" in behind["summary"]
    assert "believe the intended latency" in behind["summary"]
    kept = capacity.judge(step(2))  # -target 134: READ's intended within 25% of its service
    assert "READ" not in kept["fell_behind"]
    probe = capacity.judge(step(0))  # unthrottled: no schedule, intended = service
    assert probe["fell_behind"] == [] and probe["target"] is None
    for op, o in probe["operations"].items():
        assert o["intended"]["p99"]["us"] == o["service"]["p99"]["us"], op


def test_a_step_holds_only_on_intended_latency_and_keeping_up_with_its_target():
    j = capacity.judge(step(2))
    assert not j["held"]
    assert any("intended p99" in w and "> p99<=20ms" in w for w in j["why"])
    assert j["achieved_ops_per_s"] >= 0.95 * j["target"], "it kept up: latency failed it"


def test_the_capacity_is_the_highest_target_that_held_or_nothing():
    steps = capacity.steps_table(load([str(CASSANDRA)], skipped=[]))
    assert sorted(set(steps["step"])) == [0, 1, 2]
    assert set(steps["operation"]) == {"READ", "UPDATE"}
    assert steps["intended_p99_us"].is_not_null().all()
    assert steps["service_p50_us"].is_not_null().all()
    (found,) = capacity.capacities(steps).to_dicts()
    assert (found["capacity_ops_per_s"], found["bounded_by"]) == (0.0, "nothing held")
    assert found["ceiling_ops_per_s"] == pytest.approx(
        steps.filter(pl.col("step") == 0)["achieved_ops_per_s"][0])
    # a probe alone decides nothing: without a schedule its intended latency is its service
    est = capacity.capacities(capacity.steps_table(load([str(EST.parent)], skipped=[])))
    assert est["bounded_by"].to_list() == ["nothing held"] and est["ceiling_ops_per_s"][0] > 0


def test_a_target_counts_only_when_every_step_at_it_held_its_confirmation_too():
    """The rule on the steps' judgements alone (the runner's capacity_of is the same rule)."""
    def search(*tried):
        rows = [dict(step=k, target=t, held=h) for k, (t, h) in enumerate(tried)]
        return capacity.capacities(pl.DataFrame(rows).with_columns(
            scenario=pl.lit("S4"), timestamp=pl.lit("t"), database=pl.lit("hbase"),
            search=pl.lit("update-heavy"), repeat=pl.lit(0), objective=pl.lit("p99<=50ms"),
            check=pl.lit(math.nan), achieved_ops_per_s=pl.lit(1000.0),
            window_s=pl.lit(60.0), steady=pl.lit(True))).row(0, named=True)

    probe, tried = (None, False), [(800, False), (400, True), (600, True), (700, False)]
    confirmed = search(probe, *tried, (600, True))
    assert (confirmed["capacity_ops_per_s"], confirmed["confirmed"]) == (600, True)
    assert confirmed["held_over_s"] == 120  # two windows of 60 s
    stalled = search(probe, *tried, (600, False), (400, True))
    assert (stalled["capacity_ops_per_s"], stalled["confirmed"]) == (400, True)
    once = search(probe, *tried)
    assert (once["capacity_ops_per_s"], once["confirmed"]) == (600, False)


def test_a_step_says_how_busy_its_client_threads_were_little_s_law():
    run = step(2)
    j = capacity.judge(run)
    # operations in flight on average over the window, per thread: from the status lines; the
    # final report's operations x mean latency over the run's time say about the same
    report = run.clients[0].output.report
    def figure(metric, measurement):
        return report.filter((pl.col("metric") == metric)
                             & (pl.col("measurement") == measurement))["value"][0]
    in_flight = sum(figure(op, "Operations") * figure(op, "AverageLatency(us)") / 1e6
                    for op in ("READ", "UPDATE")) / (figure("OVERALL", "RunTime(ms)") / 1000)
    assert j["client_busy"] == pytest.approx(in_flight / run.threads, rel=0.3)
    assert 0 < j["client_busy"] < capacity.CLIENT_LIMITED and not j["client_limited"]
    assert f"client threads {j['client_busy']:.0%} busy" in j["summary"]


SLOWED = FIXTURES / "capacity-server-slowed" / "hbase-read-batch100-step-1"


def test_busy_threads_of_a_server_that_slowed_down_are_not_a_client_limit(tmp_path):
    """fixtures/capacity-server-slowed: 20 threads all busy because the server's own p99
    (290 ms) broke the 200-ms objective: the server failed the step, not the client. Under a
    looser objective its service time keeps it and only the client's queue breaks it."""
    j = capacity.judge_step_dir(SLOWED)
    assert j["client_busy"] > capacity.CLIENT_LIMITED and not j["held"]
    assert not j["client_limited"] and "CLIENT-LIMITED" not in j["summary"]
    loose = tmp_path / SLOWED.name
    shutil.copytree(SLOWED, loose)
    meta = json.loads((loose / "metadata.json").read_text())
    meta["capacity"]["objective"] |= {"text": "p99<=400ms", "bound_us": 400_000.0}
    (loose / "metadata.json").write_text(json.dumps(meta))
    j = capacity.judge_step_dir(loose)
    assert not j["held"] and j["client_limited"], j["summary"]
    assert "CLIENT-LIMITED: the service time kept the objective" in j["summary"]


def test_a_capacity_bounded_by_a_client_limited_step_says_so():
    def bounded(limited):
        rows = [dict(step=0, target=None, held=False, client_limited=False),
                dict(step=1, target=600, held=True, client_limited=False),
                dict(step=2, target=700, held=False, client_limited=limited)]
        return capacity.capacities(pl.DataFrame(rows).with_columns(
            scenario=pl.lit("S4"), timestamp=pl.lit("t"), database=pl.lit("hbase"),
            search=pl.lit("update-heavy"), repeat=pl.lit(0), objective=pl.lit("p99<=50ms"),
            check=pl.lit(math.nan), achieved_ops_per_s=pl.lit(1000.0),
            window_s=pl.lit(60.0), steady=pl.lit(True))).row(0, named=True)

    assert bounded(True)["bounded_by"] == "client threads"
    assert bounded(False)["bounded_by"] == "objective"
    # its bracket: held at 600, broke at 700
    assert (bounded(False)["capacity_ops_per_s"], bounded(False)["broken_ops_per_s"]) == (600, 700)


def test_the_runner_reads_one_step_and_bad_input_gets_one_sentence():
    j = capacity.judge_step_dir(CASSANDRA / "cassandra-update-heavy-threads-4-step-1")
    assert j["target"] == 269 and j["held"] is False and j["fell_behind"] == ["READ", "UPDATE"]
    with pytest.raises(UnreadableInput):
        capacity.judge_step_dir(FIXTURES / "trials-s4")
    load_dir = next((FIXTURES / "trials-s4").glob("*/cassandra-load-repeat-1"))
    with pytest.raises(UnreadableInput, match="not a capacity step"):
        capacity.judge_step_dir(load_dir)


BOTH = FIXTURES / "capacity-s4-both"


def test_cassandra_vs_hbase_capacity_is_a_ratio_from_the_trials_paired_a_b_b_a():
    runs = load([str(p) for p in BOTH.glob("2*")], skipped=[])
    found = capacity.capacities(capacity.steps_table(runs))
    assert sorted(set(found["database"])) == ["cassandra", "hbase"]
    assert sorted(found["repeat"].to_list()) == [1, 1, 2, 2]
    # the runner's own account of each search (scenario-run.json) is what the analysis finds
    run_log = json.loads(next(BOTH.glob("2*/scenario-run.json")).read_text())
    for s in run_log["steps"]:
        if "capacity" in s:
            row = found.filter((pl.col("database") == s["database"])
                               & (pl.col("repeat") == s["trial"]))
            assert row["capacity_ops_per_s"][0] == pytest.approx(s["capacity"]["capacity"])
    (v,) = capacity.capacity_verdicts(found).to_dicts()
    assert v["figure"].startswith("max sustainable throughput at p99<=")
    by = {(r["database"], r["repeat"]): r["capacity_ops_per_s"]
          for r in found.iter_rows(named=True)}
    if all(by.values()):
        logs = [math.log(by[("cassandra", t)] / by[("hbase", t)]) for t in (1, 2)]
        assert v["ratio"] == pytest.approx(math.exp(sum(logs) / 2))
        assert v["pairs"] == 2 and "2 paired trials" in v["verdict"]
    else:  # a search where nothing held has no ratio to draw
        assert v["verdict"].startswith("no ratio: nothing held in ") and not v["significant"]


def test_each_database_s_capacity_has_its_interval_over_trials_and_each_trial_its_bracket():
    runs = load([str(p) for p in BOTH.glob("2*")], skipped=[])
    found = capacity.capacities(capacity.steps_table(runs))
    across = {r["database"]: r for r in capacity.across_trials(found).iter_rows(named=True)}
    assert sorted(across) == ["cassandra", "hbase"]
    for db, row in across.items():
        trials = found.filter(pl.col("database") == db)
        values = trials["capacity_ops_per_s"].to_list()
        assert row["trials"] == 2 and row["capacity_ops_per_s"] == pytest.approx(
            sum(values) / 2)
        assert row["ci_low"] <= row["capacity_ops_per_s"] <= row["ci_high"]
        # a bracket per trial: the highest target held, the lowest that broke above it
        for r in trials.iter_rows(named=True):
            assert f"trial {r['repeat']}: {r['capacity_ops_per_s']:,.0f}-" in row["brackets"]
            assert not r["broken_ops_per_s"] <= r["capacity_ops_per_s"]


def test_a_capacity_set_by_steps_that_were_not_steady_is_not_judged():
    runs = load([str(p) for p in BOTH.glob("2*")], skipped=[])
    found = capacity.capacities(capacity.steps_table(runs))
    shaky = found.with_columns(steady=(pl.col("database") != "hbase") | (pl.col("repeat") != 2))
    (v,) = capacity.capacity_verdicts(shaky).to_dicts()
    assert v["verdict"] == ("not judged: hbase the steps that set its capacity NOT steady in "
                            "trial 2")
    assert not v["significant"]


def test_under_slo_the_precision_headline_is_the_capacity_not_its_steps():
    """run-scenario --slo --precision reads this after each block: the search's capacity ratio
    is the headline (its steps ran at each database's own targets and are none)."""
    from ycsb_analysis.precision import headlines
    (results,) = BOTH.glob("2*")
    found = capacity.capacities(capacity.steps_table(load([str(results)], skipped=[])))
    (v,) = capacity.capacity_verdicts(found).to_dicts()
    (head,) = headlines(str(results), 0.10).headlines
    assert head.phase == v["phase"] and head.what.startswith("cassandra/hbase max sustainable")
    assert head.ratio == pytest.approx(v["ratio"]) and head.trials == "2/2"
    assert head.more_trials is not None  # a target and a spread: how many more it needs


def test_an_operation_whose_intended_log_cannot_be_read_fails_the_step_named_not_left_out(
        tmp_path):
    """A step's operations come from its clients' final reports too: were its Intended-READ
    log unreadable, the step is judged on READ as well, and fails for want of its figure."""
    d = tmp_path / "step"
    shutil.copytree(CASSANDRA / "cassandra-update-heavy-threads-4-step-2", d)
    log = d / "hdr" / "client-0-Intended-READ.hdr"
    log.write_text("\n".join(log.read_text().splitlines()[:4] + ["0.030,1.000,0.001,HISTFAAA"])
                   + "\n")
    run = load_phase_dir(d)
    assert any("client-0-Intended-READ.hdr not used" in u for u in run.unused)
    j = capacity.judge(run)
    assert not j["held"] and any(w.startswith("no intended latency of READ") for w in j["why"])


def test_a_step_measured_longer_is_judged_over_its_whole_longer_window(tmp_path):
    # a real step (warm at 18 s, then 5 s measured), its metadata as if 2 s had been planned
    # and the runner had extended the window to 4 s (capacity.py's LONGER)
    d = tmp_path / "step-2"
    shutil.copytree(CASSANDRA / "cassandra-update-heavy-threads-4-step-2", d)
    meta = json.loads((d / "metadata.json").read_text())
    meta["warmup"]["measured_s"] = 2.0
    (d / "metadata.json").write_text(json.dumps(meta))
    assert capacity.judge(load_phase_dir(d))["window_s"] == 2
    meta["warmup"]["extended"] = {"to_s": 4, "why": "READ p99 about 5 ms, within a factor 3"}
    (d / "metadata.json").write_text(json.dumps(meta))
    judged = capacity.judge(load_phase_dir(d))
    assert judged["window_s"] == 4 and " over 4 s;" in judged["summary"]


def test_a_search_where_nothing_held_says_the_objective_lies_below_the_latency_floor(tmp_path):
    """Not "capacity 0 ops/s": the floor is the lowest objective figure of the paced steps
    (each step's worst operation's intended p99), and the report's capacity section says it."""
    steps = capacity.steps_table(load([str(CASSANDRA)], skipped=[]))
    (found,) = capacity.capacities(steps).to_dicts()
    worst = steps.filter(pl.col("step") > 0).group_by("step").agg(pl.col("intended_p99_us").max())
    floor = worst["intended_p99_us"].min()
    assert found["objective"] == "p99<=20ms" and found["floor_us"] == floor > 20_000
    assert found["capacity"] == (f"none: {capacity.BELOW_FLOOR} (floor: p99 "
                                 f"{floor / 1000:,.1f} ms, intended)")
    assert main([str(CASSANDRA), "-o", str(tmp_path)]) == 0
    page = (tmp_path / "report.html").read_text()
    assert capacity.BELOW_FLOOR in page and "capacity ops per s" not in page


def test_a_search_that_held_gives_its_capacity_in_ops_per_s_and_the_probe_is_drawn_apart(
        monkeypatch, tmp_path):
    """On real searches of both databases (fixtures/capacity-s4-both): each trial's capacity in
    words is its figure; on the chart each probe is one unjoined marker, and no line of the
    paced steps reaches the probe's rate."""
    runs = load([str(FIXTURES / "capacity-s4-both")], skipped=[])
    steps = capacity.steps_table(runs)
    found = capacity.capacities(steps)
    assert [r["capacity"] for r in found.to_dicts()] == [
        f"{r['capacity_ops_per_s']:,.0f} ops/s" for r in found.to_dicts()]
    drawn = []
    monkeypatch.setattr(capacity_chart, "save", lambda fig, *a: drawn.append(fig) or None)
    capacity_chart.capacity_charts(runs, tmp_path)
    (ax, _) = drawn[0].axes
    probes = steps.filter(pl.col("step") == 0).unique(["database", "repeat"], keep="first")
    markers = [line for line in ax.get_lines() if "unthrottled probe" in line.get_label()]
    assert len(markers) == len(probes) == 4
    assert all(m.get_linestyle() == "None" and len(m.get_xdata()) == 1 for m in markers)
    paced = [line for line in ax.get_lines() if line not in markers and len(line.get_xdata()) > 1
             and line.get_linestyle() != "None" and line.get_xdata()[0] != line.get_xdata()[-1]]
    probe_rates = set(probes["achieved_ops_per_s"])
    assert paced and not any(probe_rates & set(map(float, line.get_xdata())) for line in paced)
