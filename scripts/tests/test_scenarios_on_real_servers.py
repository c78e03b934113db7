"""CI-SIZED scenario runs on real local servers (scripts/run-scenario --scale ci).

Every scenario once, seconds per phase: each phase must leave a result the analysis package
parses, with the operations the phase is about and no error status it does not expect; S2's
fault phase, on each database, a node crashed (SIGKILL) mid-run: on Cassandra CL ALL writes
failing while the node is down and CL ONE reads going on, on HBase the dead region server's
regions reassigned; on both every acknowledged write read back; on Cassandra also the pause
fault (node 3 stopped 3 s, then 25 s: marked down by its peers in the long pause only; ~113 s
of CI). S4's trials, which start servers of their own, are in test_s4_trials_on_own_servers.py.

Servers: those of shared_servers.py (conftest's `run_dir`: a 3-node Cassandra, a 3-node HBase and
a MariaDB, started once for every test file that uses them). Nothing here uses the default
addresses or ports, nor the ones of the Java integration tests (127.0.0.41, 22181, 24306).
"""

import csv
import json
import os
import re
import subprocess

from phase_results import assert_phases, returns_by_phase
from scenario_commands import script
from server_marks import ON_REAL_SERVERS
from server_records import hbase_versions, machines, mysql_version, recorded
from shared_servers import MYSQL_PORT, run_scenario
from ycsbpack.core.paths import REPO_ROOT

pytestmark = ON_REAL_SERVERS



def test_s1_list_append_on_cassandra_every_phase_variant_and_compaction(run_dir, tmp_path):
    p = run_scenario("S1", "cassandra", tmp_path, run_dir)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    v = "cassandra-leveled-rowcache"
    assert_phases(
        tmp_path,
        {
            f"{v}-write-1-thread": ["APPEND"],
            f"{v}-read-1-thread": ["READ_LIST"],
            f"{v}-read-1-thread-compacted": ["READ_LIST"],
            f"{v}-mixed-2+1": ["APPEND", "READ_LIST"],
            f"{v}-batched-2+2": ["BATCH_APPEND", "BATCH_READ_LIST"],
        },
        # an empty list reads as NOT_FOUND: with ~10 appends per key a rare, legitimate answer
        allowed=("OK", "NOT_FOUND"),
    )
    assert "compact test.history" in p.stdout


def test_s1_list_append_on_hbase(run_dir, tmp_path):
    p = run_scenario("S1", "hbase", tmp_path, run_dir, watch=True)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert_phases(
        tmp_path,
        {
            "hbase-default-write-1-thread": ["APPEND"],
            "hbase-default-read-1-thread": ["READ_LIST"],
            "hbase-default-mixed-2+1": ["APPEND", "READ_LIST"],
            "hbase-default-batched-2+2": ["BATCH_APPEND", "BATCH_READ_LIST"],
        },
        allowed=("OK", "NOT_FOUND"),
    )
    # the version each phase recorded is the one the region servers' own JVMs run
    assert recorded(tmp_path) == hbase_versions([23030, 23031, 23032])
    # the machine of each region server and of the master, as their JVMs see it (/jmx)
    cores = machines(tmp_path)
    assert len(cores) == 4 and all(1 <= c <= os.cpu_count() for c in cores.values()), cores


def test_s1_list_append_on_mysql_the_reports_phases_and_nothing_lost(run_dir, tmp_path):
    p = run_scenario("S1", "mysql", tmp_path, run_dir, watch=True)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert_phases(
        tmp_path,
        {
            "mysql-default-write-1-thread": ["APPEND"],
            "mysql-default-read-1-thread": ["READ_LIST"],
            "mysql-default-mixed-2+1": ["APPEND", "READ_LIST"],
            "mysql-default-batched-2+2": ["BATCH_APPEND", "BATCH_READ_LIST"],
        },
        allowed=("OK", "NOT_FOUND"),
    )
    # every phase appended to the same fresh table: all acknowledged appends are stored
    outputs = sorted(str(f) for f in tmp_path.glob("mysql-*/client-*.out"))
    check = subprocess.run(
        script(
            "check-list-appends",
            "jdbc",
            *outputs,
            "--",
            "-p",
            f"db.url=jdbc:mariadb://127.0.0.1:{MYSQL_PORT}/ycsb",
            "-p",
            "listappend.table=history",
        ),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert "OK: every acknowledged append is stored" in check.stdout
    assert recorded(tmp_path) == {mysql_version(run_dir / "mysql", int(MYSQL_PORT))}


S2_PHASES = {
    "load-value10-batch100": ["BATCH_INSERT"],
    "load-value100-batch200": ["BATCH_INSERT"],
    "read-batch1": ["BATCH_READ"],
    "read-batch100": ["BATCH_READ"],
}


def test_s2_on_three_nodes_a_crash_and_a_pause_lose_no_acknowledged_write(run_dir, tmp_path):
    # S2's reads at batch 100 only (--only): batch 1 takes the same code path on Cassandra (an
    # IN query of one key), and the HBase test below runs both (22 s less CI)
    p = run_scenario("S2", "cassandra", tmp_path, run_dir, "--faults", "crash,pause",
                     "--only", "read-batch100,fault")
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-3000:]
    found = returns_by_phase(tmp_path)
    assert not (tmp_path / "cassandra-read-batch1").exists()
    meta = json.loads((tmp_path / "cassandra-read-batch100" / "metadata.json").read_text())
    assert meta["properties"]["hosts"] == "127.0.0.51,127.0.0.52,127.0.0.53"
    for phase, ops in S2_PHASES.items():
        if phase == "read-batch1":
            continue
        for op in ops:
            assert set(found[f"cassandra-{phase}"][op]) == {"OK"}, (
                phase,
                found[f"cassandra-{phase}"],
            )
    down = found["cassandra-fault-node-down"]
    assert (
        down["BATCH_INSERT"].get("UNAVAILABLE", 0) + down["BATCH_INSERT"].get("WRITE_TIMEOUT", 0)
        > 0
    )
    assert down["BATCH_READ"]["OK"] > 0
    assert set(found["cassandra-fault-restarted"]["BATCH_INSERT"]) == {"OK"}
    verdict = json.loads((tmp_path / "fault-verdict-cassandra.json").read_text())
    assert verdict["failed"] == [], verdict["lines"]
    assert verdict["keys_found"] >= verdict["keys_acknowledged"] > 0
    assert verdict["acknowledged_writes_lost"] == 0 and verdict["repeat"] == 0
    # key by key (the key logs, fault_keys.py): the batches refused while node3 was down are
    # named, and the logs agree with the Return= counts (the verdict's checks)
    assert verdict["keys"]["judged"] and verdict["keys"]["lost"] == 0, verdict["keys"]
    assert verdict["keys"]["not_acknowledged"] > 0, verdict["keys"]
    assert (verdict["node_failure"], verdict["signal"]) == ("crash", "SIGKILL")
    # the fault traffic offers half the rate the unthrottled probe just achieved
    offered = verdict["offered"]
    assert offered["target"] == max(1, round(offered["probe_batches_per_s"] / 2))
    down_meta = json.loads((tmp_path / "cassandra-fault-node-down" / "metadata.json").read_text())
    assert down_meta["target"] == offered["target"] and offered["probe_keys"] > 0
    # the node the fault phase stopped runs again: the cluster is left as it was found
    assert "node3 answers CQL" in p.stdout
    # the pause fault (SIGSTOP, SIGCONT): 3 s, below the ~18 s of the phi failure detector, then
    # 25 s, above it; the peers mark node3 down in the long pause only, and up again
    assert {"cassandra-fault-pause", "cassandra-fault-pause-read-back"} <= set(found)
    pause = json.loads((tmp_path / "fault-verdict-cassandra-pause.json").read_text())
    assert pause["failed"] == [], pause["lines"]
    assert [x["length_s"] for x in pause["pauses"]] == [3, 25]
    short, long_ = pause["effects"]
    assert all(m["down_s"] is None for m in short["peers"].values()), short
    assert all(m["down_s"] is not None and m["up_s"] is not None
               for m in long_["peers"].values()), long_
    assert pause["acknowledged_writes_lost"] == 0 and pause["keys_acknowledged"] > 0
    assert pause["keys"]["judged"] and pause["keys"]["lost"] == 0, pause["keys"]
    # the pause writes keys after every key the crash wrote (its read-back would find them)
    assert pause["offered"]["first_key"] >= offered["first_key"] + verdict["keys_tried"]
    assert pause["keys_found"] >= pause["keys_acknowledged"]
    assert len(pause["measures"]["faults"]) == 2 and pause["measures"]["pre_fault"]["rate"] > 0
    assert re.search(r"pause 25 s of node3: outage [\d.]+ s, [\d.]+ s below half rate, ", p.stdout)
    # intended latency (measurement.interval=both): the 25-s pause keeps batches waiting well
    # beyond the pre-fault seconds' p99
    band = pause["measures"]["pre_fault"]["p99_band_us"]
    assert band and band[1] < pause["measures"]["faults"][1]["worst_p99_us"], pause["measures"]
    assert any(r["intended_p99_us"] for r in verdict["client_timeline"])
    assert re.search(r"pause 25 s of node3: .* worst second's p99 of intended latency [\d,.]+ ms "
                     r"\(before the fault up to [\d,.]+ ms\)", p.stdout)


def hbase_status(run_dir):
    p = subprocess.run(
        script("hbase-local", "status", "--run-dir", run_dir / "hbase"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    return p.returncode, p.stdout + p.stderr


def test_s2_on_three_hbase_nodes_regions_spread_and_a_crashed_region_server(run_dir, tmp_path):
    code, status = hbase_status(run_dir)
    assert code == 0 and "3 live region server(s)" in status, status
    assert len(re.findall(r"^regionserver-\d +pid=\d+ running", status, re.M)) == 3, status
    # S2's reads at batch 100 only (--only): batch 1 is the same Table.batch call (15 s less CI)
    p = run_scenario("S2", "hbase", tmp_path, run_dir, "--faults",
                     "crash,slow-disk,partition", "--only", "read-batch100,fault")
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-3000:]
    found = returns_by_phase(tmp_path)
    phases = [ph for ph in S2_PHASES if ph != "read-batch1"]
    assert sorted(found) == sorted(
        [f"hbase-{ph}" for ph in phases]
        + ["hbase-fault-probe", "hbase-fault-node-down", "hbase-fault-restarted",
           "hbase-fault-read-back", "hbase-fault-slow-disk-probe", "hbase-fault-slow-disk",
           "hbase-fault-slow-disk-read-back", "hbase-fault-partition-probe",
           "hbase-fault-partition", "hbase-fault-partition-read-back"]
    )
    # hbase-salted batches (Table.batch): every phase ran its BATCH_* operation, not the single
    # operations a binding without batches falls back to, and counted the records of each batch
    for phase in phases:
        ops, by_op = S2_PHASES[phase], found[f"hbase-{phase}"]
        assert all(set(s) == {"OK"} for s in by_op.values()), (phase, by_op)
        for op in ops:
            batches = by_op.get(op, {}).get("OK", 0)
            records = by_op.get(f"{op}-RECORDS", {}).get("OK", 0)
            assert batches > 0, (phase, by_op)
            assert records >= batches, (phase, by_op)
            if not phase.endswith("batch1"):
                assert records > batches, (phase, by_op)
        # the single-operation fallback would also record INSERT/READ through YCSB's DBWrapper
        assert not {"INSERT", "READ"} & set(by_op), (phase, by_op)
    verdict = json.loads((tmp_path / "fault-verdict-hbase.json").read_text())
    # the report's 64 pre-split regions were spread over the three region servers before the crash
    per_server = [tables.get("t2", 0) for tables in verdict["regions_before"].values()]
    assert len(per_server) == 3 and sum(per_server) == 64 and min(per_server) >= 10, verdict
    code, status = hbase_status(run_dir)
    assert code == 0 and "3 live region server(s)" in status, status
    assert verdict["failed"] == [], verdict["lines"]
    assert verdict["keys_found"] >= verdict["keys_acknowledged"] > 0
    assert verdict["acknowledged_writes_lost"] == 0
    assert (verdict["node_failure"], verdict["signal"]) == ("crash", "SIGKILL")
    assert verdict["regions"]["regions"], "the dead server's regions and when they reopened"
    # the restarted region server holds no region until the balancer's next round (5 minutes):
    # a fault of it then would touch nothing, so the next fault, the slow disk, balances first
    # (HBase.ready_for_fault: hbase-local balance's command) and says so
    assert verdict["regions_after"][max(verdict["regions_after"])] == {}, verdict["regions_after"]
    slow = json.loads((tmp_path / "fault-verdict-hbase-slow-disk.json").read_text())
    assert any("the balancer moved" in line for line in slow["lines"]), slow["lines"]
    assert len(slow["regions_before"]) == 3 and all(slow["regions_before"].values()), slow
    cut = json.loads((tmp_path / "fault-verdict-hbase-partition.json").read_text())
    assert cut["failed"] == [], cut["lines"]
    assert not any("the balancer moved" in line for line in cut["lines"]), cut["lines"]
    assert len(cut["regions_before"]) == 3 and all(cut["regions_before"].values()), cut
    # the partition (nftables drops by cgroup): region server 3 cut off from the clients, then
    # from its peers; the master declares it dead in the second cut only, and once healed it
    # aborts (fenced) and is restarted; no acknowledged write lost
    assert [w["what"] for w in cut["pauses"]] == ["8 s cut off from the clients",
                                                  "25 s cut off from its peers"]
    clients, peers = cut["effects"]
    assert clients["declared_dead_s"] is None and peers["declared_dead_s"] is not None, cut
    assert peers["aborting_s"] is not None and peers["process_exited"], peers
    # the master's crash procedure reopened its regions on the other two (the master's log)
    assert peers["regions"]["min_s"] is not None and not peers["regions"]["not_reopened"], peers
    assert "regions reopened elsewhere" in " ".join(cut["lines"]), cut["lines"]
    assert set(cut["rules"]) == {"clients", "peers"} and all(cut["rules"].values())
    assert cut["acknowledged_writes_lost"] == 0 and cut["keys_acknowledged"] > 0
    assert cut["measures"]["faults"][1]["outage_s"] > 0, cut["measures"]
    assert re.search(r"partition 25 s \(cut off from its peers\) of region server 3 and "
                     r"DataNode 3: outage [\d.]+ s", p.stdout)
    # the slow disk (Byteman in DataNode 3's JVM): its packet writes slowed by 100 ms, then
    # stalled; no failure detector notices; every WAL's pipeline holds DataNode 3, so the
    # client's writes wait in both windows; no acknowledged write lost
    assert slow["failed"] == [], slow["lines"]
    assert [w["what"] for w in slow["pauses"]] == ["6 s of 100-ms slower log writes",
                                                   "12 s of stalled log writes"]
    assert all(e["declared_dead_s"] is None for e in slow["effects"]), slow["effects"]
    assert slow["acknowledged_writes_lost"] == 0 and slow["keys_acknowledged"] > 0
    calls = [int(re.search(r": (\d+) call\(s\) slowed", line).group(1))
             for line in slow["lines"] if "call(s) slowed" in line]
    assert len(calls) == 2 and all(n > 0 for n in calls), slow["lines"]
    assert slow["measures"]["faults"][1]["outage_s"] > 0, slow["measures"]
    # key by key (the key logs): nothing lost in any of the three faults
    for v in (verdict, slow, cut):
        assert v["keys"]["judged"] and v["keys"]["lost"] == 0, v["keys"]


def test_a_capacity_search_on_three_hbase_nodes_its_steps_table_and_chart_in_the_report(
        run_dir, tmp_path):
    """S2's batch-100 reads on the shared 3-node HBase under --slo: an unthrottled probe, then
    -target steps with intended latency; ycsb-report's capacity table, steps and chart."""
    out = tmp_path / "out"
    p = run_scenario("S2", "hbase", out, run_dir, "--only", "read-batch100", "--slo",
                     "p99<=200ms")
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-3000:]
    assert "probe:" in p.stdout and "capacity at p99<=200ms (intended)" in p.stdout
    steps = sorted(d.name for d in out.glob("hbase-read-batch100-step-*"))
    assert steps[0] == "hbase-read-batch100-step-0" and len(steps) >= 2, steps
    # hbase-salted's Table.batch reads: 100 records a batch
    probe = returns_by_phase(out)["hbase-read-batch100-step-0"]
    assert probe["BATCH_READ-RECORDS"]["OK"] > probe["BATCH_READ"]["OK"] > 0, probe
    assert set(probe["BATCH_READ"]) == {"OK"} and not {"INSERT", "READ"} & set(probe), probe
    assert not list(out.glob("hbase-fault*")), "--only leaves the fault phase out"
    first = json.loads((out / steps[1] / "metadata.json").read_text())
    assert first["target"] > 0 and first["properties"]["measurement.interval"] == "both"
    assert first["capacity"]["objective"]["bound_us"] == 200_000
    probe = json.loads((out / steps[0] / "metadata.json").read_text())
    # threads for its target: at 60% of the probe's rate, 2.4 x the probe's (runner/capacity.py)
    assert first["threads"] > probe["threads"], (first["threads"], probe["threads"])
    assert list((out / steps[1] / "hdr").glob("client-0-Intended-BATCH_READ.hdr"))
    report = tmp_path / "report"
    subprocess.run([str(REPO_ROOT / ".venv" / "bin" / "ycsb-report"), str(out), "-o",
                    str(report)], check=True, capture_output=True)
    (found,) = list(csv.DictReader(open(report / "capacity.csv")))
    assert found["database"] == "hbase" and found["search"] == "read-batch100"
    assert float(found["ceiling_ops_per_s"]) > 0 and found["bounded_by"] in (
        "ceiling", "objective", "nothing held", "client threads")
    rows = list(csv.DictReader(open(report / "capacity-steps.csv")))
    assert {int(r["step"]) for r in rows} == set(range(len(steps)))
    assert all(float(r["intended_p99_us"]) > 0 for r in rows), "intended latency in every step"
    assert all(0 < float(r["client_busy"]) <= 1.1 for r in rows if int(r["step"]) > 0), rows
    assert (report / "capacity-s2-read-batch100.png").exists()
    assert "Capacity under a latency objective" in (report / "report.html").read_text()


def test_s3_thread_sweep_with_intervals_on_three_nodes(run_dir, tmp_path):
    """S3's two-point sweep at CI scale (2 and 4 threads, one client); the split of a load
    between several clients runs on the fleet (test_fleet_on_real_ray), a point's key range in
    test_scripts_scenarios."""
    p = run_scenario("S3", "cassandra", tmp_path, run_dir)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    expected = {}
    for suffix in ("threads-2", "threads-4"):
        expected.update(
            {
                f"cassandra-insert-{suffix}": ["INSERT"],
                f"cassandra-select-{suffix}": ["READ"],
                f"cassandra-update-{suffix}": ["UPDATE"],
                f"cassandra-delete-{suffix}": ["DELETE"],
            }
        )
    assert_phases(tmp_path, expected)
    starts = [
        int(json.loads((tmp_path / f"cassandra-insert-{s}" / "metadata.json").read_text())
            ["properties"]["insertstart"]) for s in ("threads-2", "threads-4")
    ]
    assert starts[0] < starts[1], "each sweep point inserts its own key range"
    # the thread sweep: time-bound points with their intervals, drawn per operation
    report = tmp_path / "report"
    subprocess.run([str(REPO_ROOT / ".venv" / "bin" / "ycsb-report"), str(tmp_path), "-o",
                    str(report)], check=True, capture_output=True)
    points = {r["phase"]: r for r in csv.DictReader(open(report / "summary.csv"))}
    for op in ("select", "update"):
        for t in (2, 4):
            r = points[f"{op}-threads-{t}"]
            low, mid, high = (float(r[f"throughput_ops_per_s{k}"]) for k in ("_ci_low", "",
                                                                               "_ci_high"))
            # (a few seconds measured at CI scale: wide intervals, the low end clipped at 0)
            assert 0 <= low <= mid <= high and low < high and mid > 0, (op, t, low, mid, high)
        assert list(report.glob(f"thread-sweep-*-{op}*.png")), sorted(report.glob("*.png"))
