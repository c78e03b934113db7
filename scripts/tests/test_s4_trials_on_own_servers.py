"""S4's trials on servers of their own (scripts/run-scenario --scale ci): each trial on fresh
servers over a copy of the data loaded once, and an A/A test on warm servers restored from a
snapshot before every trial. These tests start and stop their own Cassandra (127.0.0.61) and
HBase standalone (their own ports), to check that the runner stops what it started; the test
files that share the 3-node servers run after them (conftest.py), so that those idle clusters
take no CPU from these trials.
"""

import csv
import json
import math
import re
import subprocess

import pytest
from phase_results import assert_phases
from scenario_commands import s4_at_ci_scale, scenario_at_ci_scale, script
from server_marks import ON_REAL_SERVERS
from server_records import grown
from ycsb_analysis.precision import headlines
from ycsbpack.core import procs
from ycsbpack.core.paths import REPO_ROOT

pytestmark = ON_REAL_SERVERS

T95_ONE_DF = 12.706204736174694  # two-sided 95% t quantile, 1 df (two pairs): scipy t.ppf


OWN_HBASE_PORTS = "27181,27000,27020"


def test_s4_on_fresh_servers_each_database_loads_once_and_its_trial_starts_on_a_copy(tmp_path):
    """A trial of S4 (its update-heavy phase: --only) on Cassandra and on HBase, each on fresh
    servers this run starts and stops (back to back in one run directory), on a copy of the data
    its database loaded once (saved_data.py), the servers and the clients on disjoint CPU sets.
    One trial each: the blocks A,B,B,A and the verdict from the spread of paired trials run on
    real servers in the A/A test below, and on this test's kept outputs of two trials each in
    analysis/tests (fixtures/trials-s4); two here cost 100 s of CI. About 3 minutes."""
    own, out = tmp_path / "own-servers", tmp_path / "out"
    proc = subprocess.run(
        s4_at_ci_scale(out, own, "127.0.0.61", 7261, "--db", "both", "--hbase-ports",
                       OWN_HBASE_PORTS, "--only", "update-heavy", "--cpu-sets", "split"),
        capture_output=True,
        text=True,
        timeout=900,
    )
    try:
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        steps = json.loads((out / "scenario-run.json").read_text())["steps"]
        # each database loads once, saves the loaded state, then its trial starts fresh
        # servers on a copy of it
        assert [(s["database"], s["step"]) for s in steps if s["step"] == "load"] == [
            ("cassandra", "load"), ("hbase", "load")]
        assert [s["database"] for s in steps if s["step"].startswith("update")] == [
            "cassandra", "hbase"]
        assert_phases(out, {f"{db}-{phase}": ops for db in ("cassandra", "hbase")
                            for phase, ops in (("update-heavy-threads-4", ["READ", "UPDATE"]),
                                               ("load", ["INSERT"]))})
        for db in ("cassandra", "hbase"):
            state = json.loads((out / f"{db}-update-heavy-threads-4" / "metadata.json")
                               .read_text())["start_state"]
            saved = re.search(rf"saved {db}'s loaded data \(([\d.]+) MB, fingerprint (\w+)\)",
                              proc.stdout)
            assert saved and state["fingerprint"] == saved.group(2), (state, proc.stdout[-2000:])
            assert state["servers"] == "fresh" and state["bytes"] > 1_000_000, state
        meta = json.loads((out / "cassandra-update-heavy-threads-4" / "metadata.json")
                          .read_text())
        assert meta["warmup"]["in_run"] and meta["warmup"]["max_s"] == 8
        assert meta["cpu"]["server_cpu_s"]["cassandra-node1"] > 0 and meta["cpu"]["shared_machine"]
        # servers and clients on disjoint CPU sets, as the kernel reported them during the phase
        sets = meta["cpu"]["cpu_sets"]
        assert sets["clients"] and sets["servers"]["cassandra-node1"]
        assert not set(sets["clients"]) & set(sets["servers"]["cassandra-node1"])
        load = json.loads((out / "hbase-load" / "metadata.json").read_text())
        assert load["finite_job"] and "none" in load["warmup"]
        # the flush and major compaction after the load, within its phase: in its time series
        assert grown(out / "hbase-load") and grown(out / "cassandra-load")
        for pid_file in [own / "cassandra" / "node1.pid", own / "hbase" / "hbase.pid"]:
            assert not procs.alive(procs.read_pid(pid_file)), f"{pid_file}: still running"

        report = tmp_path / "report"
        subprocess.run([str(REPO_ROOT / ".venv" / "bin" / "ycsb-report"), str(out), "-o",
                        str(report)], check=True, capture_output=True)
        verdicts = {(r["phase"], r["figure"]): r
                    for r in csv.DictReader(open(report / "verdicts.csv"))}
        # one trial a database: a figure each, no verdict (at CI scale the 8-s warm-up may end
        # NOT steady: "not judged"), and nothing --precision could stop on
        for phase in ("load", "update-heavy-threads-4"):
            assert verdicts[(phase, "throughput")]["verdict"].startswith(
                ("one trial", "not judged")), phase
        found = headlines(str(out), 0.05)
        (head,) = [h for h in found.headlines if h.phase == "update-heavy-threads-4"]
        assert head.what == "cassandra/hbase throughput" and head.precision is None, head
    finally:
        subprocess.run(script("cassandra-local", "stop", "--run-dir", own / "cassandra",
                              "--first-address", "127.0.0.61", "--jmx-port", "7261"),
                       capture_output=True)
        subprocess.run(script("hbase-local", "stop", "--run-dir", own / "hbase"),
                       capture_output=True)


WARM_HBASE_PORTS = "28181,28000,28020"


def test_s4_aa_on_warm_servers_one_database_as_both_sides_from_the_same_saved_data(tmp_path):
    """`--aa --trial-servers warm`: HBase as both sides of the comparison, two trials each in
    blocks A,B then B,A, all on the one standalone HBase of the load, the loaded tables restored
    from their snapshots before every trial (servers/live_state.py); the report compares
    hbase-A with hbase-B like two databases and says what difference this environment resolves.
    The trials follow the two-stage rule (a first stage of 2 pairs, at most 2: it ends there
    either way), recorded for the report; bench-aa reads the experiment. About 2 minutes."""
    from ycsbpack.bench import bench_aa

    own, out = tmp_path / "own-servers", tmp_path / "out"
    proc = subprocess.run(
        scenario_at_ci_scale("S4", out, own, "--db", "hbase", "--aa", "--trial-servers", "warm",
                             "--hbase-ports", WARM_HBASE_PORTS, "--precision", "50%",
                             "--first-stage", "2", "--max-trials", "2", "--only",
                             "update-heavy"),
        capture_output=True, text=True, timeout=900)
    try:
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        run = json.loads((out / "scenario-run.json").read_text())
        design = {"rule": "two-stage (Stein)", "first_stage": 2, "precision_target": 0.5,
                  "order": "Thue-Morse"}
        assert run["trials_design"] == design and run["trials"] == 2, run["stopped"]
        assert run["trial_servers"] == "warm"
        # (at CI scale an 8-s warm-up often ends NOT steady, which stops the trials too)
        assert run["stopped"].startswith(("precision planned: 2 pairs", "trial budget: 2",
                                          "a trial was NOT steady")), run["stopped"]
        steps = run["steps"]
        runs = [(s["database"], s["trial"]) for s in steps if s["step"].startswith("update")]
        assert runs == [("hbase-A", 1), ("hbase-B", 1), ("hbase-B", 2), ("hbase-A", 2)]
        assert [s["step"] for s in steps].count("load") == 1  # one load for both sides
        # the servers started once, for the load, and ran every trial
        assert proc.stdout.count("starting a local HBase") == 1, proc.stdout[-3000:]
        assert proc.stdout.count("restored usertable from ycsbpack-saved-usertable") == 4
        states, lifetimes = set(), []
        for side in ("A", "B"):
            for t in (1, 2):
                meta = json.loads((out / f"hbase-{side}-update-heavy-threads-4-repeat-{t}" /
                                   "metadata.json").read_text())
                assert meta["database"] == f"hbase-{side}" and meta["binding"] == "hbase-salted"
                assert meta["aa"] == {"database": "hbase", "side": side}
                assert meta["trials_design"] == design
                assert meta["start_state"]["servers"] == "warm"
                states.add(meta["start_state"]["fingerprint"])
                lifetimes.append(meta["start_state"]["server_lifetime"])
        assert len({tuple(life["pids"]) for life in lifetimes}) == 1, lifetimes
        assert sorted(life["trial"] for life in lifetimes) == [1, 2, 3, 4]
        assert not procs.alive(procs.read_pid(own / "hbase" / "hbase.pid"))
        assert len(states) == 1, states
        report = tmp_path / "report"
        subprocess.run([str(REPO_ROOT / ".venv" / "bin" / "ycsb-report"), str(out), "-o",
                        str(report)], check=True, capture_output=True)
        (v,) = [r for r in csv.DictReader(open(report / "verdicts.csv"))
                if r["phase"] == "update-heavy-threads-4" and r["figure"] == "throughput"]
        assert v["trials"] == "2/2" and int(v["pairs"]) == 2, v
        found = bench_aa.read_experiment(out)  # (writes out/report: what bench-aa tallies)
        assert found["pairs"] == 2 and found["design"] == "two-stage (Stein), Thue-Morse"
        # its ledger row reads back as the tally reads it when the raw results are gone
        from ycsbpack.bench import aa_ledger
        aa_ledger.add(tmp_path / "ledger.csv", [found])
        (back,) = aa_ledger.read(tmp_path / "ledger.csv")
        assert (back["db"], back["kind"], back["experiment"]) == ("hbase", "aa", out.name)
        assert back["a_figures"] == pytest.approx(found["a_figures"], abs=0.05)
        assert len(back["b_figures"]) == 2 and back["significant"] == found["significant"]
        assert found["significant"] == (v["significant"] == "True")
        # judged: steady trials, for which alone the report says what the A/A resolves (at CI
        # scale an 8-s warm-up often ends NOT steady: an interval, but no verdict)
        assert found["judged"] == (v["resolves_percent"] != "") and 0 < found["cv"] < 1
        if v["ratio_low"] != "":
            assert found["low"] == pytest.approx(float(v["ratio_low"]))
            # the interval is the paired-trial interval of the trials' own figures
            own_figures = {(r["database"], int(float(r["repeat"]))):
                           float(r["throughput_ops_per_s"])
                           for r in csv.DictReader(open(report / "summary.csv"))
                           if r["phase"] == "update-heavy-threads-4"}
            d = [math.log(own_figures[("hbase-A", t)] / own_figures[("hbase-B", t)])
                 for t in (1, 2)]
            mean, half = sum(d) / 2, T95_ONE_DF * abs(d[0] - d[1]) / math.sqrt(2) / math.sqrt(2)
            assert float(v["ratio"]) == pytest.approx(math.exp(mean), rel=1e-9)
            assert float(v["ratio_low"]) == pytest.approx(math.exp(mean - half), rel=1e-9)
            assert float(v["ratio_high"]) == pytest.approx(math.exp(mean + half), rel=1e-9)
            # what --precision reads after each block: the same interval, as a half width
            (head,) = [h for h in headlines(str(out), 0.5, 2).headlines
                       if h.phase == "update-heavy-threads-4"]
            assert head.precision == pytest.approx(float(v["precision"]))
    finally:
        subprocess.run(script("hbase-local", "stop", "--run-dir", own / "hbase"),
                       capture_output=True)
