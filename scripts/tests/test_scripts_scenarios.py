"""The scenario pack without servers: workload files, plans, client splits, the fault verdict."""
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from ycsbpack import databases
from ycsbpack.core.errors import ScriptError
from ycsbpack.databases import fault_checks
from ycsbpack.phases.phase_runner import RUN_INSERT_STRIDE, Phase, client_split
from ycsbpack.phases.properties import read_property_files
from ycsbpack.runner import run_scenario
from ycsbpack.scenarios import fault_timeline
from ycsbpack.scenarios.catalogue import SCENARIOS, scenario_id
from ycsbpack.scenarios.scenario_plan import WORKLOADS, Composite, Context
from ycsbpack.servers.local_servers import LocalCassandra, LocalHBase


def plan(scenario, database="cassandra", scale="local", local=True, clients=1, quick=False):
    cassandra = LocalCassandra(Path("/nonexistent"), SCENARIOS[scenario].CASSANDRA_NODES)
    hbase = LocalHBase(Path("/nonexistent"), nodes=getattr(SCENARIOS[scenario], "HBASE_NODES", 1))
    server = {"cassandra": cassandra, "hbase": hbase}.get(database) if local else None
    ctx = Context(scenario, databases.database(database, server), scale, clients,
                  {"hosts": "127.0.0.1"}, quick=quick, out_dir=Path("/tmp/out"))
    return ctx, SCENARIOS[scenario].plan(ctx)


def phases(steps):
    return [s for s in steps if isinstance(s, Phase)]


@pytest.mark.parametrize("path", sorted(p for p in WORKLOADS.rglob("*.properties")
                                        if p.parent.name.startswith("s")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_scenario_file_opens_with_its_source_report_and_scaling(path):
    header = "\n".join(ln for ln in path.read_text().splitlines() if ln.startswith("#"))
    assert path.read_text().startswith("#")
    assert re.search(r"\bS[1-4] report \(docs/sources\.md\)", header), "names the source report"
    assert re.search(r"(?i)local scale|scaled|ci size", header), "says what was scaled"


def test_scenario_names_and_aliases_resolve_and_unknown_ones_list_the_known():
    assert scenario_id("S2") == "s2" and scenario_id("list-append") == "s1"
    with pytest.raises(ScriptError, match="known: S1"):
        scenario_id("S9")


def test_later_files_win_and_the_scale_and_database_files_follow_the_phase():
    ctx, _ = plan("s1", scale="ci")
    files = [Path(f).relative_to(WORKLOADS).as_posix()
             for f in ctx.files(["batched-write"], ["cassandra-table-leveled"])]
    assert files == ["s1/batched-write.properties", "s1/local.properties", "s1/ci.properties",
                     "db/cassandra.properties", "s1/cassandra.properties",
                     "s1/cassandra-table-leveled.properties"]
    props = ctx.merged(ctx.files(["write"]))
    # every run phase is time-bound: a count nobody reaches, the scale's measured seconds
    assert props["cassandra.keyspace"] == "test" and props["operationcount"] == "2000000000"
    assert props["maxexecutiontime"] == "4"


def test_s1_recreates_the_table_per_variant_and_reads_again_after_a_major_compaction():
    _, steps = plan("s1")
    names = [s.name for s in steps]
    assert names.count("drop test.history") == 4
    for v in ("default", "leveled-rowcache", "rowcache", "leveled"):
        i = names.index(f"{v}-read-1-thread-compacted")
        assert names[i - 1] == "compact test.history"
    concurrent = [p for p in phases(steps) if p.clients == 2]
    assert [p.name for p in concurrent] == ["leveled-rowcache-mixed-1+1",
                                            "leveled-rowcache-mixed-10+10",
                                            "leveled-rowcache-batched-10+10"]
    writer, reader = (read_property_files(f) for f in concurrent[2].client_property_files)
    assert (writer["appendproportion"], reader["readlistproportion"]) == ("1", "1")
    assert writer["batchsize"] == reader["batchsize"] == "10"


def test_ci_scale_runs_each_code_path_of_s1_and_s2_once():
    for database in ("cassandra", "hbase", "mysql"):
        _, steps = plan("s1", database, scale="ci")
        concurrent = sorted("-".join(p.name.split("-")[-2:]) for p in phases(steps)
                            if p.clients > 1)
        assert concurrent == ["batched-2+2", "mixed-2+1"], concurrent
    _, steps = plan("s2", scale="ci")
    assert [p.name for p in phases(steps)][2:] == ["read-batch1", "read-batch100"]


def test_s1_runs_the_reports_mysql_trio_on_every_database():
    for database in ("cassandra", "hbase", "mysql"):
        _, steps = plan("s1", database)
        trio = [p for p in phases(steps) if p.clients == 3]
        assert [p.name.split("-", 2 if database == "cassandra" else 1)[-1] for p in trio] \
            == ["mixed-2+1"]
        files = [read_property_files(f) for f in trio[0].client_property_files]
        assert [f["appendproportion"] for f in files] == ["1", "1", "0"]
        assert trio[0].threads == 1
    _, steps = plan("s1", "mysql")
    assert phases(steps)[0].binding == "jdbc"


def test_mysql_runs_s1_only_and_all_means_three_databases(capsys, tmp_path):
    with pytest.raises(ScriptError, match="MySQL runs S1 only"):
        run_scenario.main(["S4", "--db", "all", "--dry-run"])
    assert run_scenario.main(["S1", "--dry-run", "--db", "all", "--scale", "ci", "--out",
                              str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "# cassandra on" in out and "# hbase on" in out and "# mysql on" in out
    assert "bin/ycsb run jdbc" in out and "db.url=jdbc:mariadb://127.0.0.1:13306/ycsb" in out


def test_s1_on_your_cluster_leaves_out_what_needs_nodetool():
    _, steps = plan("s1", local=False)
    assert not any("compact" in s.name for s in steps)


def test_s2_runs_rf3_all_one_and_the_fault_phase_on_local_servers_of_both_databases():
    ctx, steps = plan("s2")
    assert isinstance(steps[-1], Composite) and steps[-1].phases == 4  # probe, down, up, read-back
    props = ctx.merged(steps[0].property_files)
    assert props["cassandra.replication"] == "NetworkTopologyStrategy:datacenter1=3"
    assert (props["cassandra.writeconsistencylevel"], props["cassandra.readconsistencylevel"]) \
        == ("ALL", "ONE")
    assert [p.name for p in phases(steps)] == ["load-value10-batch100", "load-value100-batch200",
                                               "read-batch1", "read-batch10", "read-batch100"]
    assert not any(isinstance(s, Composite) for s in plan("s2", local=False)[1])
    assert not any(isinstance(s, Composite) for s in plan("s2", "hbase", local=False)[1])
    ctx, steps = plan("s2", "hbase")
    assert ctx.database.server.nodes == 3, "HBase on 3 nodes, like for like with Cassandra's RF 3"
    assert isinstance(steps[-1], Composite) and "crashed (SIGKILL)" in steps[-1].describe
    fault = ctx.merged(ctx.files(["fault"], ["hbase-fault"]))
    assert int(fault["hbase.client.operation.timeout"]) <= 10000


def test_s3_runs_like_for_like_three_cassandra_nodes_and_three_region_servers(capsys, tmp_path):
    for db in ("cassandra", "hbase"):
        assert run_scenario.main(["S3", "--dry-run", "--db", db, "--out", str(tmp_path)]) == 0
        assert f"# {db} on local servers (3 nodes) in" in capsys.readouterr().out


def test_s3_sweep_points_use_disjoint_key_ranges():
    _, steps = plan("s3", scale="cluster")
    ranges = {}
    for p in phases(steps):
        if p.command == "load":
            start, count = int(p.properties["insertstart"]), int(p.properties["insertcount"])
            ranges[p.name] = range(start, start + count)
    spans = sorted((r.start, r.stop) for r in ranges.values())
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
    assert [p.threads for p in phases(steps) if p.name.startswith("select-threads")] \
        == [100, 200, 500, 1000, 1500]


def test_load_clients_get_disjoint_ranges_that_cover_the_records():
    props = {"recordcount": "1000"}
    parts = [client_split("load", props, 3, i) for i in range(3)]
    assert parts == [{"insertstart": "0", "insertcount": "333"},
                     {"insertstart": "333", "insertcount": "333"},
                     {"insertstart": "666", "insertcount": "334"}]


def test_run_clients_read_the_loaded_keys_and_insert_into_distinct_ranges():
    parts = [client_split("run", {"recordcount": "1000"}, 2, i) for i in range(2)]
    assert [p["insertcount"] for p in parts] == ["1000", "1000"]
    assert [int(p["recordcount"]) for p in parts] == [1000, 1000 + RUN_INSERT_STRIDE]
    assert client_split("run", {"recordcount": "1000"}, 1, 0) == {}


def test_the_dry_run_prints_every_ycsb_command_without_starting_anything(capsys, tmp_path):
    assert run_scenario.main(["S4", "--dry-run", "--db", "both", "--out", str(tmp_path),
                              "--run-dir", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert "bin/ycsb load cassandra4" in out and "bin/ycsb run hbase-salted" in out
    assert not (tmp_path / "run").exists()


def test_both_databases_on_your_servers_need_both_addresses():
    with pytest.raises(ScriptError, match="--hbase-hosts"):
        run_scenario.main(["S2", "--db", "both", "--hosts", "10.0.0.1", "--dry-run"])


def test_the_node_failure_is_a_choice_recorded_in_the_plan(capsys, tmp_path):
    assert run_scenario.main(["S2", "--dry-run", "--db", "both", "--node-failure", "drain",
                              "--out", str(tmp_path), "--run-dir", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert "node3 drained (SIGTERM)" in out
    assert "region server 3 and DataNode 3 drained (SIGTERM)" in out
    with pytest.raises(SystemExit):
        run_scenario.main(["S2", "--dry-run", "--node-failure", "unplug"])


BACK = fault_checks.READ_BACK  # the read-back's per-key counts


def judge(down, up, back, batch, tried, node_failure="drain"):
    return fault_checks.finish(databases.database("cassandra").judge_fault(
        down, up, back, batch, tried, node_failure=node_failure))


UNAVAILABLE_ONLY = dict(
    down={"BATCH_INSERT": {"OK": 30, "UNAVAILABLE": 50}, "BATCH_READ": {"OK": 80}},
    up={"BATCH_INSERT": {"OK": 20}, "BATCH_READ": {"OK": 20}})


def test_the_fault_verdict_passes_when_exactly_the_acknowledged_keys_are_found():
    v = judge(**UNAVAILABLE_ONLY, back={BACK: {"OK": 500, "NOT_FOUND": 500}}, batch=10,
              tried=1000)
    assert v["failed"] == [] and v["exact"] and v["keys_acknowledged"] == 500


def test_the_fault_verdict_fails_when_an_acknowledged_write_is_missing():
    v = judge(**UNAVAILABLE_ONLY, back={BACK: {"OK": 499, "NOT_FOUND": 501}}, batch=10,
              tried=1000)
    assert v["failed"] == ["no acknowledged write is missing (found >= acknowledged)"]


def test_timed_out_writes_may_or_may_not_be_found():
    down = {"BATCH_INSERT": {"OK": 30, "WRITE_TIMEOUT": 2, "UNAVAILABLE": 48},
            "BATCH_READ": {"OK": 80}}
    v = judge(down, UNAVAILABLE_ONLY["up"], {BACK: {"OK": 510, "NOT_FOUND": 490}}, 10, 1000)
    assert v["failed"] == [] and not v["exact"]
    v = judge(down, UNAVAILABLE_ONLY["up"], {BACK: {"OK": 530, "NOT_FOUND": 470}}, 10, 1000)
    assert "nothing was found that was never written" in v["failed"][0]


def test_failed_reads_at_cl_one_fail_the_verdict():
    down = dict(UNAVAILABLE_ONLY["down"], BATCH_READ={"OK": 70, "UNAVAILABLE": 10})
    v = judge(down, UNAVAILABLE_ONLY["up"], {BACK: {"OK": 500, "NOT_FOUND": 500}}, 10, 1000)
    assert v["failed"][0].startswith("reads at CL ONE kept succeeding while the node was down")


def test_a_rare_shutting_down_answer_of_the_stopping_node_is_tolerated_for_reads():
    down = dict(UNAVAILABLE_ONLY["down"], BATCH_READ={"OK": 535, "OVERLOADED": 1})
    v = judge(down, UNAVAILABLE_ONLY["up"], {BACK: {"OK": 500, "NOT_FOUND": 500}}, 10, 1000)
    assert v["failed"] == []


def test_a_crashed_cassandra_node_may_fail_the_reads_it_was_coordinating_but_few():
    down = {"BATCH_INSERT": {"OK": 30, "WRITE_TIMEOUT": 5, "UNAVAILABLE": 45},
            "BATCH_READ": {"OK": 96, "ERROR": 4}}
    back = {BACK: {"OK": 520, "NOT_FOUND": 480}}
    assert judge(down, UNAVAILABLE_ONLY["up"], back, 10, 1000, "crash")["failed"] == []
    down["BATCH_READ"] = {"OK": 90, "ERROR": 10}
    assert judge(down, UNAVAILABLE_ONLY["up"], back, 10, 1000, "crash")["failed"][0] \
        .startswith("reads at CL ONE kept succeeding")


# A real status line of the fault phase's client (hbase-salted, status.interval=1, a region
# server just killed): failed batches are measured under <OP>-FAILED.
STATUS = ("2026-11-24 00:40:12:301 21 sec: 620 operations; 6 current ops/sec; est completion in "
          "1 hour [BATCH_INSERT: Count=2, Max=9999, Min=1200, Avg=5599.5, 90=9999, 99=9999, "
          "99.9=9999, 99.99=9999] [BATCH_INSERT-FAILED: Count=3, Max=4011519, Min=4001792, "
          "Avg=4005376, 90=4011519, 99=4011519, 99.9=4011519, 99.99=4011519] [BATCH_READ: "
          "Count=1, Max=3000, Min=3000, Avg=3000, 90=3000, 99=3000, 99.9=3000, 99.99=3000] "
          "[BATCH_INSERT-RECORDS: Count=0, Max=0, Min=0, Avg=0, 90=0, 99=0, 99.9=0, 99.99=0]")


def status_line(second, ok_w, failed_w, ok_r, failed_r):
    """A status line shaped like STATUS, with these counts (latencies left at 1 µs)."""
    def hdr(metric, count):
        return f"[{metric}: Count={count}, Max=1, Min=1, Avg=1, 90=1, 99=1, 99.9=1, 99.99=1]"
    return (f"2026-11-24 00:40:{second:02d}:000 {second} sec: 1 operations; 1 current ops/sec; "
            f"{hdr('BATCH_INSERT', ok_w)} {hdr('BATCH_INSERT-FAILED', failed_w)} "
            f"{hdr('BATCH_READ', ok_r)} {hdr('BATCH_READ-FAILED', failed_r)}")


def test_the_timeline_counts_ok_and_failed_batches_per_status_line(tmp_path):
    f = tmp_path / "client-0.err"
    f.write_text("some warning\n" + STATUS + "\n")
    rows = fault_timeline.timeline(f)
    assert len(rows) == 1
    assert rows[0]["ok"] == {"BATCH_INSERT": 2, "BATCH_READ": 1}
    assert rows[0]["failed"] == {"BATCH_INSERT": 3, "BATCH_READ": 0}


def _utc(stamp: str) -> str:
    """A status line's stamp (the client JVM's local time: this machine's) in UTC ISO."""
    return datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S:%f").astimezone(timezone.utc).isoformat()


def test_unavailability_runs_from_the_first_to_the_last_failure_after_the_node_went_down(tmp_path):
    f = tmp_path / "client-0.err"
    lines = [status_line(s, 5, 0, 5, 0) for s in range(10, 15)]          # before: all OK
    lines += [status_line(s, 1, 3, 1, 2) for s in range(15, 25)]         # regions unassigned
    lines += [status_line(s, 5, 0, 5, 0) for s in range(25, 30)]         # reassigned
    f.write_text("\n".join(lines) + "\n")
    down = _utc("2026-11-24 00:40:14:500")
    u = fault_timeline.unavailability(fault_timeline.timeline(f), down)
    assert u["BATCH_INSERT"]["first_failure_s"] == 0.5
    assert u["BATCH_INSERT"]["last_failure_s"] == 9.5
    assert u["BATCH_INSERT"]["failed"] == 30 and u["BATCH_READ"]["failed"] == 20
    assert u["recovered_while_down"]
    f.write_text("\n".join(lines[:15]) + "\n")  # the phase ended before any recovery
    assert not fault_timeline.unavailability(fault_timeline.timeline(f), down)[
        "recovered_while_down"
    ]


def test_hbase_s_node_down_phase_ends_once_the_client_has_recovered_for_some_seconds(tmp_path):
    f = tmp_path / "client-0.err"
    down = _utc("2026-11-24 00:40:14:500")
    before = [status_line(s, 5, 0, 5, 0) for s in range(10, 15)]
    unassigned = [status_line(s, 1, 3, 1, 2) for s in range(15, 25)]   # last failure +9.5 s

    def recovered(lines, failures_needed=True):
        f.write_text("\n".join(lines) + "\n")
        return fault_timeline.recovered_for(fault_timeline.timeline(f), down, 5, failures_needed)

    assert not recovered(before + [status_line(15, 5, 0, 5, 0)] * 1)  # a crash not yet noticed
    assert not recovered(before + unassigned)
    assert not recovered(before + unassigned + [status_line(s, 5, 0, 5, 0) for s in (25, 26)])
    assert recovered(before + unassigned + [status_line(s, 5, 0, 5, 0) for s in range(25, 30)])
    # reads back, writes not yet: not recovered however long it has been
    assert not recovered(before + unassigned + [status_line(s, 0, 0, 5, 0) for s in range(25, 35)])
    # a drained server need not fail anything: 5 quiet seconds after it went down will do
    quiet = before + [status_line(s, 5, 0, 5, 0) for s in range(15, 21)]
    assert recovered(quiet, failures_needed=False) and not recovered(quiet)


HBASE_DOWN = {"BATCH_INSERT": {"OK": 200, "RETRIES_EXHAUSTED": 40, "TIMEOUT": 10},
              "BATCH_INSERT-RECORDS": {"OK": 2300, "RETRIES_EXHAUSTED": 150, "TIMEOUT": 50},
              "BATCH_READ": {"OK": 230, "TIMEOUT": 20}}
HBASE_UP = {"BATCH_INSERT": {"OK": 100}, "BATCH_INSERT-RECORDS": {"OK": 1000},
            "BATCH_READ": {"OK": 100}}


def hbase_judge(found, recovered=True):
    back = {BACK: {"OK": found, "NOT_FOUND": 3500 - found}}
    return fault_checks.finish(databases.database("hbase").judge_fault(
        HBASE_DOWN, HBASE_UP, back, 10, 3500,
        unavailability={"recovered_while_down": recovered}))


def test_the_hbase_verdict_counts_acknowledged_rows_not_batches():
    v = hbase_judge(3330)
    assert v["failed"] == [] and v["keys_acknowledged"] == 3300
    assert v["keys_failed"] == 200 and v["keys_failed_but_stored"] == 30


def test_the_hbase_verdict_fails_when_an_acknowledged_row_is_missing_or_no_recovery():
    assert hbase_judge(3299)["failed"] == [
        "no acknowledged write is missing (found >= acknowledged)"
    ]
    assert hbase_judge(3300, recovered=False)["failed"][0].startswith(
        "writes and reads succeeded again while the node was still down")


def test_a_drained_hbase_node_need_not_fail_any_operation_a_crashed_one_must():
    quiet = {"BATCH_INSERT": {"OK": 250}, "BATCH_INSERT-RECORDS": {"OK": 2500},
             "BATCH_READ": {"OK": 250}}
    back = {BACK: {"OK": 3500, "NOT_FOUND": 0}}
    drained = fault_checks.finish(databases.database("hbase").judge_fault(
        quiet, HBASE_UP, back, 10, 3500, unavailability={"recovered_while_down": True},
        node_failure="drain"))
    assert drained["failed"] == []
    crashed = fault_checks.finish(databases.database("hbase").judge_fault(
        quiet, HBASE_UP, back, 10, 3500, unavailability={"recovered_while_down": True}))
    assert crashed["failed"] == [
        "operations failed while the dead server's regions were unassigned"
    ]


def test_a_batch_whose_coordinator_crashed_mid_request_may_be_stored():
    """The numbers of a real CI run: node3 killed, 2 batches failed ERROR (their coordinator
    died mid-request) and all 20 of their keys were stored on the live replicas."""
    down = {"BATCH_INSERT": {"OK": 126, "WRITE_TIMEOUT": 39, "ERROR": 2}, "BATCH_READ": {"OK": 150}}
    up = {"BATCH_INSERT": {"OK": 125}, "BATCH_READ": {"OK": 123}}
    v = judge(down, up, {BACK: {"OK": 2920, "NOT_FOUND": 0}}, 10, 2920, "crash")
    assert v["failed"] == [] and v["keys_maybe_applied"] == 410 and not v["exact"]
    v = judge(down, up, {BACK: {"OK": 2920, "NOT_FOUND": 0}}, 10, 2940, "crash")
    assert v["failed"] == ["the read-back read every key tried"]
