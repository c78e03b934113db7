"""S2's faults without servers: --faults, the pause mechanism on a real process of this user,
the "skipped: ..." sentence when the mechanism is missing, what a failed write means per
database, and the availability measures on constructed series and on a real client's status
lines (fixtures/fault-pause-cassandra-client-0.err, cut from a CI-scale pause on Cassandra)."""
import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import SimpleNamespace

import psutil
import pytest
from ycsbpack import databases
from ycsbpack.runner import run_scenario
from ycsbpack.scenarios import fault_measures, fault_pause, fault_phase, fault_timeline
from ycsbpack.scenarios.scenario_plan import Context
from ycsbpack.servers import node_signals
from ycsbpack.servers.local_servers import LocalCassandra, LocalHBase

FIXTURE = Path(__file__).parent / "fixtures" / "fault-pause-cassandra-client-0.err"
T0 = datetime(2026, 12, 6, 21, 0, 0, tzinfo=timezone.utc)


def rows(oks, fails=None, start=T0, step=1.0):
    """Timeline rows (fault_timeline.timeline's shape), one per second, all on one operation."""
    fails = fails or [0] * len(oks)
    return [{"time": (start + timedelta(seconds=step * (i + 1))).isoformat(),
             "ok": {"BATCH_INSERT": ok, "BATCH_READ": 0},
             "failed": {"BATCH_INSERT": f, "BATCH_READ": 0}}
            for i, (ok, f) in enumerate(zip(oks, fails))]


def at(second):
    return (T0 + timedelta(seconds=second)).isoformat()


# -- the measures on constructed series ------------------------------------------------------

def test_an_outage_its_seconds_below_half_rate_and_the_recovery_to_success_and_to_the_band():
    # 2 start-up seconds without operations, a partial first second, 6 steady seconds (38-42),
    # the fault at +9 s: 3 s with nothing, one failing second, then a catch-up burst and normal
    oks = [0, 0, 12, 40, 41, 39, 40, 42, 38, 0, 0, 0, 15, 80, 40, 40]
    fails = [0] * 12 + [3, 0, 0, 0]
    m = fault_measures.measures(rows(oks, fails), [{"start": at(9.5)}])
    pre = m["pre_fault"]
    assert pre["seconds"] == 6 and pre["rate"] == 40 and pre["band"] == [38, 42]
    w = m["faults"][0]
    assert w["outage_s"] == 3.0
    assert w["below_half_s"] == 4.0          # the 3 empty seconds and the one with 15
    assert w["first_bad_s"] == 0.5           # the line stamped +10 s is the first bad second
    assert w["recovery_to_success_s"] == 5.0  # +9 (end of the last good second) -> +14
    assert w["recovery_to_band_s"] == 6.0     # the burst of 80 is above the band: +15
    assert (w["ok"], w["failed"]) == (175, 3)


def test_a_second_of_reads_alone_while_every_write_still_fails_is_no_recovery():
    series = rows([5, 40, 40, 40, 40, 0, 10, 10, 40])
    for r, (w_ok, w_failed, r_ok) in zip(series[5:], [(0, 2, 0), (0, 0, 10), (0, 3, 10),
                                                      (20, 0, 20)]):
        r["ok"] = {"BATCH_INSERT": w_ok, "BATCH_READ": r_ok}
        r["failed"] = {"BATCH_INSERT": w_failed, "BATCH_READ": 0}
    w = fault_measures.measures(series, [{"start": at(5.5)}])["faults"][0]
    assert w["recovery_to_success_s"] == 4.0  # not 2.0: the second with reads only


def test_a_fault_the_client_never_noticed_has_no_recovery_and_says_so():
    m = fault_measures.measures(rows([10, 40, 40, 40, 39, 41, 40, 40]), [{"start": at(4.5)}])
    w = m["faults"][0]
    assert (w["outage_s"], w["below_half_s"], w["first_bad_s"]) == (0.0, 0.0, None)
    line = fault_measures.line("pause", "3 s of node3", w, 0)
    assert line == ("pause 3 s of node3: outage 0 s, 0 s below half rate, no failed or empty "
                    "second; acknowledged writes lost: 0")


def test_each_window_ends_where_the_next_fault_starts_and_both_use_the_first_faults_band():
    oks = [5, 40, 40, 40, 40, 0, 40, 40, 40, 0, 0, 40, 40]
    m = fault_measures.measures(rows(oks), [{"start": at(5.5)}, {"start": at(9.5)}])
    first, second = m["faults"]
    assert (first["seconds"], first["outage_s"], first["recovery_to_success_s"]) == (4, 1.0, 2.0)
    assert (second["seconds"], second["outage_s"], second["recovery_to_success_s"]) == (4, 2.0,
                                                                                        3.0)
    assert m["pre_fault"]["seconds"] == 4


def test_a_late_status_line_counts_its_real_length():
    series = rows([5, 40, 40, 40, 40, 0, 40])
    # the client stalled: the empty second's line came 4 s after the previous one
    series[5]["time"] = at(9)
    series[6]["time"] = at(10)
    w = fault_measures.measures(series, [{"start": at(5.5)}])["faults"][0]
    assert w["outage_s"] == 4.0


def test_too_few_seconds_before_the_fault_leave_the_band_unknown_not_guessed():
    m = fault_measures.measures(rows([5, 40, 0, 40]), [{"start": at(2.5)}])
    assert m["pre_fault"] is None
    w = m["faults"][0]
    assert w["below_half_s"] is None and w["recovery_to_band_s"] is None
    assert "? s below half rate" in fault_measures.line("pause", "x", w, None)


def test_back_in_the_band_needs_the_intended_latency_back_too_and_the_worst_second_is_said():
    """measurement.interval=both: a second whose throughput is back in the band while its
    batches still wait behind the stall (p99 of intended latency above the pre-fault band) is
    not yet back; the window names its worst second's p99."""
    oks = [5, 40, 40, 40, 40, 0, 40, 40, 40]
    series = rows(oks)
    for r, p99 in zip(series, [900, 1000, 1100, 1000, 1200, None, 2_500_000, 30_000, 1100]):
        r["intended_p99_us"] = {} if p99 is None else {"BATCH_INSERT": p99, "BATCH_READ": 500}
    m = fault_measures.measures(series, [{"start": at(5.5)}])
    assert m["pre_fault"]["p99_band_us"] == [1000, 1200]   # the seconds 2-5, nearest rank
    w = m["faults"][0]
    assert w["recovery_to_success_s"] == 2.0   # +5 -> +7: the first second that succeeded
    assert w["recovery_to_band_s"] == 4.0      # +9: the first one whose p99 is back too
    assert w["worst_p99_us"] == 2_500_000
    assert fault_measures.line("pause", "25 s of node3", w, 0, m["pre_fault"]) == (
        "pause 25 s of node3: outage 1 s, 1 s below half rate, recovered in 2 s (back in the "
        "pre-fault band after 4 s), worst second's p99 of intended latency 2,500.0 ms (before "
        "the fault up to 1.2 ms); acknowledged writes lost: 0")


def test_the_pause_phase_ends_only_once_its_newest_second_is_back_in_the_band():
    series = rows([5, 40, 40, 40, 40, 0, 40, 40])
    for r, p99 in zip(series, [900, 1000, 1100, 1000, 1200, None, 2_500_000, 1100]):
        r["intended_p99_us"] = {} if p99 is None else {"BATCH_INSERT": p99}
    assert not fault_measures.back_in_band(series[:7], at(5.5))   # p99 still 2.5 s
    assert fault_measures.back_in_band(series, at(5.5))
    # with too few seconds before the fault there is no band to wait for
    assert fault_measures.back_in_band(rows([5, 40, 0, 40]), at(2.5))


def test_a_status_line_gives_each_operations_p99_of_intended_latency(tmp_path):
    status = tmp_path / "client-0.err"
    status.write_text(
        "2026-12-07 01:00:01:000 1 sec: 80 operations; 80 current ops/sec; est completion in 1 "
        "hour [BATCH_INSERT: Count=40, Max=9000, Min=800, Avg=1200.5, 90=1500, 99=4000, "
        "99.9=9000, 99.99=9000] [Intended-BATCH_INSERT: Count=40, Max=2100000, Min=900, "
        "Avg=60000, 90=1900, 99=2100000, 99.9=2100000, 99.99=2100000] [BATCH_READ: Count=40, "
        "Max=700, Min=300, Avg=400, 90=600, 99=700, 99.9=700, 99.99=700] "
        "[Intended-BATCH_READ: Count=0, Max=0, Min=0, Avg=0, 90=0, 99=0, 99.9=0, 99.99=0]\n")
    (row,) = fault_timeline.timeline(status)
    assert row["intended_p99_us"] == {"BATCH_INSERT": 2_100_000}   # no read measured: none
    assert row["ok"] == {"BATCH_INSERT": 40, "BATCH_READ": 40}


def test_each_fault_writes_keys_no_earlier_fault_wrote_on_these_servers(tmp_path):
    """A crash then a pause in one run, or a second run on the same servers: the read-back of a
    range an earlier fault wrote would find keys "never written" (a false failure)."""
    db = SimpleNamespace(server=SimpleNamespace(run_dir=tmp_path))
    assert fault_phase.free_key(db, 2000) == 2000      # nothing written yet: after the load
    fault_phase.keys_used(db, 9300)
    assert fault_phase.free_key(db, 2000) == 9300      # a later fault (or run) starts after
    assert fault_phase.free_key(db, 10_000) == 10_000  # a larger load moves it on
    (tmp_path / fault_phase.FREE_KEY_FILE).write_text("not a number\n")
    assert fault_phase.free_key(db, 2000) == 2000


def test_percentiles_are_nearest_rank():
    assert fault_measures.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 10) == 1
    assert fault_measures.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90) == 9
    assert fault_measures.percentile([7], 90) == 7


# -- the measures on a real client's status lines -----------------------------------------------

def test_the_measures_of_a_real_pause_on_cassandra(monkeypatch):
    # the client stamped its status lines in its local time zone, UTC on the machine that ran it
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        timeline = fault_timeline.timeline(FIXTURE)
    finally:
        monkeypatch.undo()
        time.tzset()
    meta = json.loads(FIXTURE.with_suffix(".pauses.json").read_text())
    m = fault_measures.measures(timeline, meta["pauses"])
    # 40 batches/s offered; the busy 2-core machine managed 25 before the first pause
    short, long_ = m["faults"]
    assert {k: m["pre_fault"][k] for k in meta["pre_fault"]} == meta["pre_fault"]
    # (a run from before the fault traffic measured intended latency: no latency band)
    assert m["pre_fault"]["p99_band_us"] is None and long_["worst_p99_us"] is None
    for got, expected in zip((short, long_), meta["expected"]):
        assert {k: got[k] for k in expected} == expected
    # the 25-s pause: a trickle of reads kept the longest empty run at 7 s, but 25 s were below
    # half the rate; the client's 2 shut-down seconds at the end are not counted
    assert timeline[-1].get("cleanup") and long_["seconds"] < len(
        [r for r in timeline if r["time"] > meta["pauses"][1]["start"]])


# -- the mechanism: signals to a real process of this user --------------------------------------

class OneProcessNode(node_signals.PausableNodes):
    """A local "node" that is one real process of this user (a sleeping Python)."""

    def __init__(self, pid):
        self.pid = pid

    def node_pids(self, node):
        return {f"process-{node}": self.pid}


def test_pause_stops_the_nodes_process_and_resume_lets_it_run_again():
    p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        node = OneProcessNode(p.pid)
        assert node.pause_refusal(1) is None
        paused = node.pause_node(1)
        assert node_signals.process_state(p.pid) == psutil.STATUS_STOPPED
        assert node.pause_refusal(1) == f"process-1 (pid {p.pid}) is already stopped"
        node.resume_node(paused)
        for _ in range(100):  # SIGCONT is delivered asynchronously too
            if node_signals.process_state(p.pid) != psutil.STATUS_STOPPED:
                break
            time.sleep(0.02)
        assert node_signals.process_state(p.pid) in (psutil.STATUS_SLEEPING, psutil.STATUS_RUNNING)
    finally:
        p.send_signal(signal.SIGCONT)
        p.kill()
        p.wait()


def test_a_process_that_ended_cannot_be_paused():
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    assert OneProcessNode(p.pid).pause_refusal(1) == f"process-1 (pid {p.pid}) does not run"


def test_a_process_of_another_user_cannot_be_paused():
    assert node_signals.owner(1) == 0
    why = node_signals.refusal({"init": 1})
    assert why is None or why == "init (pid 1) belongs to user id 0, not to this runner's " \
                                 f"{__import__('os').getuid()}"
    if __import__("os").getuid() != 0:
        assert why is not None


# -- what is missing becomes "skipped: ..." -----------------------------------------------------

def test_your_own_cluster_cannot_be_paused_the_sentence_says_why():
    db = databases.database("cassandra")  # no local server: --hosts
    assert db.pause_refusal(3) == ("the cluster is not local (your own servers): the runner "
                                   "cannot signal its processes")


@pytest.mark.parametrize("name,server,process", [
    ("cassandra", LocalCassandra, "cassandra-node3"),
    ("hbase", lambda d, n: LocalHBase(d, nodes=n), "regionserver-3"),
])
def test_a_pause_without_the_nodes_pid_is_skipped_with_the_sentence(tmp_path, name, server,
                                                                    process):
    if name == "hbase":
        (tmp_path / "hbase.json").write_text(json.dumps({"nodes": 3}))
    db = databases.database(name, server(tmp_path, 3))
    ctx = Context("s2", db, "ci", out_dir=tmp_path)
    verdict = fault_pause.run_pause(ctx, 0, tmp_path)
    why = f"{process} has no PID (no PID file, or the process does not run)"
    assert verdict["skipped"] == why and verdict["failed"] == []
    assert verdict["lines"] == [f"pause: skipped: {why}"]
    saved = json.loads((tmp_path / f"fault-verdict-{name}-pause.json").read_text())
    assert saved["skipped"] == why
    assert not list(tmp_path.glob(f"{name}-fault-pause*")), "no phase ran"


def test_each_repeat_keeps_its_own_verdict_file(tmp_path):
    """--repeat N: trial 2's verdict beside trial 1's, not over it (the summary across repeats
    reads them all: analysis/ycsb_analysis/faults.py)."""
    db = databases.database("cassandra", LocalCassandra(tmp_path, 3))
    for repeat in (1, 2):
        fault_pause.run_pause(Context("s2", db, "ci", out_dir=tmp_path, repeat=repeat, repeats=2),
                              0, tmp_path)
    names = sorted(p.name for p in tmp_path.glob("fault-verdict-*"))
    assert names == ["fault-verdict-cassandra-pause-repeat-1.json",
                     "fault-verdict-cassandra-pause-repeat-2.json"]
    assert json.loads((tmp_path / names[1]).read_text())["repeat"] == 2
    assert fault_phase.verdict_file(tmp_path, "hbase", "crash", 3).name == (
        "fault-verdict-hbase-repeat-3.json")


class RestartedCluster:
    """What HBase.ready_for_fault asks of a local cluster: its region layout (region server 3
    restarted after a crash: no region until balanced) and the balancer (the real command is
    checked on three real nodes: test_scenarios_on_real_servers.py)."""
    regionserver_port = 16020

    def __init__(self, held: int):
        self.held, self.balanced = held, 0

    def region_layout(self):
        third = {"t2": 21} if self.held or self.balanced else {}
        return {"127.0.0.1:16020": {"t2": 21}, "127.0.0.1:16021": {"t2": 22},
                "127.0.0.1:16022": third}

    def balance(self):
        self.balanced += 1


def test_a_region_server_holding_no_region_is_balanced_before_its_fault_and_it_is_said():
    cluster = RestartedCluster(held=0)
    lines, layout = databases.database("hbase", cluster).ready_for_fault(3)
    assert cluster.balanced == 1 and layout["127.0.0.1:16022"] == {"t2": 21}
    assert lines == ["region server 3 held no user region (restarted after an earlier fault, "
                     "and the balancer runs every 5 minutes): the balancer moved 21 back to it "
                     "before this fault"]
    held = RestartedCluster(held=21)
    assert databases.database("hbase", held).ready_for_fault(3)[0] == [] and held.balanced == 0
    assert databases.database("cassandra", None).ready_for_fault(3) == ([], None)


def test_a_standalone_hbase_has_no_nodes_to_pause(tmp_path):
    (tmp_path / "hbase.json").write_text(json.dumps({"nodes": 1}))
    db = databases.database("hbase", LocalHBase(tmp_path, nodes=1))
    assert db.pause_refusal(1) == "no process of the node is known"


# -- --faults ------------------------------------------------------------------------------------

def test_faults_run_in_the_order_given_each_its_own_step(capsys, tmp_path):
    assert run_scenario.main(["S2", "--dry-run", "--db", "both", "--faults", "pause,crash",
                              "--out", str(tmp_path), "--run-dir", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert out.index("cassandra fault-pause:") < out.index("cassandra fault:")
    assert "node3 paused (SIGSTOP, then SIGCONT) for 3 s" in out
    assert "region server 3 and DataNode 3 paused (SIGSTOP, then SIGCONT) for 3 s" in out


def test_the_partition_is_a_step_of_its_own_on_both_databases(capsys, tmp_path):
    assert run_scenario.main(["S2", "--dry-run", "--db", "both", "--faults", "partition",
                              "--out", str(tmp_path), "--run-dir", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert "cassandra fault-partition: node3 cut off from its clients for 15 s" in out
    assert ("hbase fault-partition: region server 3 and DataNode 3 cut off from its clients "
            "for 15 s") in out
    assert "and 15 s later from its peers for 30 s (packets dropped)" in out


class OneLiveNode(LocalCassandra):
    """A local cluster whose node 3 is this test's own process: alive, this user's, running;
    what the partition needs beyond it is the machine's (node_partition.missing)."""

    def node_pids(self, node):
        return {f"cassandra-node{node}": os.getpid()}


def test_a_partition_without_nft_is_skipped_with_the_sentence(tmp_path, monkeypatch):
    from ycsbpack.scenarios import fault_partition
    from ycsbpack.servers import node_partition
    monkeypatch.setattr(node_partition.shutil, "which", lambda _: None)  # nft removed
    monkeypatch.setattr(node_partition.os, "geteuid", lambda: 0)
    db = databases.database("cassandra", OneLiveNode(tmp_path, 3))
    verdict = fault_partition.run_partition(Context("s2", db, "ci", out_dir=tmp_path), 0,
                                            tmp_path)
    why = "the nft command is not installed (Debian's nftables package)"
    assert verdict["skipped"] == why and verdict["failed"] == []
    assert verdict["lines"] == [f"partition: skipped: {why}"]
    saved = json.loads((tmp_path / "fault-verdict-cassandra-partition.json").read_text())
    assert saved["skipped"] == why
    assert not list(tmp_path.glob("cassandra-fault-partition*")), "no phase ran"


def test_an_unknown_fault_names_those_there_are_and_exits_2(capsys):
    with pytest.raises(SystemExit) as e:
        run_scenario.main(["S2", "--dry-run", "--faults", "crash,slow-network"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert ("unknown fault 'slow-network': choose from crash, drain, pause, partition, "
            "slow-disk") in err


def test_the_slow_disk_is_a_step_of_its_own_on_both_databases(capsys, tmp_path):
    assert run_scenario.main(["S2", "--dry-run", "--db", "both", "--faults", "slow-disk",
                              "--out", str(tmp_path), "--run-dir", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert ("cassandra fault-slow-disk: node3 log writes slowed by 100 ms each for 15 s "
            "(Byteman at CommitLogSegment.flush)") in out
    assert ("hbase fault-slow-disk: region server 3 and DataNode 3 log writes slowed by 100 ms "
            "each for 15 s (Byteman at ReplicaOutputStreams.writeDataToDisk)") in out
    assert "and 10 s later stalled for 30 s" in out


def test_a_slow_disk_without_byteman_is_skipped_with_the_sentence(tmp_path, monkeypatch):
    from ycsbpack.core.errors import ScriptError
    from ycsbpack.scenarios import fault_slow_disk
    from ycsbpack.servers import byteman

    def unresolved(pom, what):
        raise ScriptError("Maven (mvn) is not on the PATH")
    monkeypatch.setattr(byteman.maven, "classpath", unresolved)
    db = databases.database("cassandra", OneLiveNode(tmp_path, 3))
    verdict = fault_slow_disk.run_slow_disk(Context("s2", db, "ci", out_dir=tmp_path), 0,
                                            tmp_path)
    why = ("Byteman's jars could not be resolved from Maven Central (Maven (mvn) is not on the "
           "PATH)")
    assert verdict["skipped"] == why and verdict["failed"] == []
    assert verdict["lines"] == [f"slow-disk: skipped: {why}"]
    assert not list(tmp_path.glob("cassandra-fault-slow-disk*")), "no phase ran"


def test_the_slow_disk_is_not_built_for_mysql(tmp_path):
    db = databases.database("mysql")
    assert db.slow_disk_refusal(1) == "the slow disk is not built for MySQL"


def test_the_older_node_failure_option_still_works_but_not_beside_faults(capsys, tmp_path):
    from ycsbpack.core.errors import ScriptError
    with pytest.raises(ScriptError, match="--node-failure is the older spelling of --faults"):
        run_scenario.main(["S2", "--dry-run", "--faults", "pause", "--node-failure", "drain"])


# -- what a failed write means -------------------------------------------------------------------

def test_a_refused_cassandra_write_failed_and_a_timed_out_one_is_indeterminate():
    db = databases.database("cassandra")
    counts = {"BATCH_INSERT": {"OK": 50, "UNAVAILABLE": 7, "WRITE_TIMEOUT": 3, "CLIENT_TIMEOUT": 1},
              "BATCH_READ": {"OK": 60, "CLIENT_TIMEOUT": 2}}
    assert db.fault_outcomes(counts) == {
        "BATCH_INSERT": {"ok": 50, "failed": 7, "indeterminate": 4},
        "BATCH_READ": {"ok": 60, "failed": 2, "indeterminate": 0}}
    assert db.write_keys(counts, 10) == (500, 40)


def test_every_failed_hbase_row_is_indeterminate_counted_in_rows():
    db = databases.database("hbase")
    counts = {"BATCH_INSERT": {"OK": 40, "TIMEOUT": 2},
              "BATCH_INSERT-RECORDS": {"OK": 405, "TIMEOUT": 15}}
    assert db.fault_outcomes(counts)["BATCH_INSERT"] == {"ok": 40, "failed": 0,
                                                         "indeterminate": 2}
    assert db.write_keys(counts, 10) == (405, 15)
