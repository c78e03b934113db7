"""The Database interface without servers: the lookup, and each database's facts (binding,
connection, local server, start estimate, saved data, compaction, durability, the fault
phase's words and bounds) as the runner and the scenarios ask them."""
import re
from pathlib import Path

import pytest
from ycsbpack.core.bindings import BINDINGS
from ycsbpack.core.errors import ScriptError
from ycsbpack.core.paths import REPO_ROOT
from ycsbpack.databases import NAMES, database
from ycsbpack.databases.base import MACHINE, NOTHING
from ycsbpack.phases.durability import durability
from ycsbpack.runner.scenario_args import Settings, parser, settings_from
from ycsbpack.scenarios import scenario_s4
from ycsbpack.scenarios.scenario_plan import Context
from ycsbpack.servers.local_servers import LocalCassandra, LocalHBase, LocalMySQL

LIB = REPO_ROOT / "scripts" / "lib" / "ycsbpack"


class RecordingServer:
    """A local server that records what it is asked to run."""

    def __init__(self, nodes=1):
        self.nodes, self.calls = nodes, []

    def nodetool(self, node, args):
        self.calls.append((node, *args))

    def compact(self, table):
        self.calls.append(("compact", table))


def test_the_lookup_knows_the_three_databases_by_their_db_names():
    assert NAMES == ("cassandra", "hbase", "mysql")
    assert [database(n).name for n in NAMES] == list(NAMES)
    assert [database(n).binding for n in NAMES] == ["cassandra4", "hbase-salted", "jdbc"]
    assert all(database(n).binding in BINDINGS for n in NAMES)
    with pytest.raises(ScriptError, match="unknown database 'mongodb': the pack knows "
                                          "cassandra, hbase, mysql"):
        database("mongodb")


def test_a_database_is_local_exactly_when_it_has_a_local_server():
    server = LocalCassandra(Path("/nonexistent"), 1)
    assert database("cassandra", server).local and database("cassandra", server).server is server
    assert not database("cassandra").local


def test_your_own_servers_go_into_each_bindings_own_property():
    assert database("cassandra").connection("10.0.0.1,10.0.0.2") == {"hosts": "10.0.0.1,10.0.0.2"}
    assert database("hbase").connection("zk1,zk2") == {"hbase.zookeeper.quorum": "zk1,zk2"}
    assert database("mysql").connection("jdbc:mysql://db:3306/ycsb") == {
        "db.url": "jdbc:mysql://db:3306/ycsb"}


def test_every_local_server_answers_connection_alike():
    cassandra = database("cassandra", LocalCassandra(Path("/nonexistent"), 3, "127.0.0.11"))
    assert cassandra.connection() == {"hosts": "127.0.0.11,127.0.0.12,127.0.0.13"}
    hbase = database("hbase", LocalHBase(Path("/nonexistent"), zk_port=23181))
    assert hbase.connection() == {"hbase.zookeeper.quorum": "127.0.0.1",
                                  "hbase.zookeeper.property.clientPort": "23181"}
    mysql = database("mysql", LocalMySQL(Path("/nonexistent"), 13307))
    assert mysql.connection() == {"db.url": "jdbc:mariadb://127.0.0.1:13307/ycsb",
                                  "db.user": "root"}


def test_the_local_servers_take_their_addresses_and_ports_from_the_settings(tmp_path):
    settings = Settings(cassandra_address="127.0.0.21", cassandra_jmx_port=7221,
                        hbase_ports=(22181, 22000, 22020), mysql_port=13399)
    c = database("cassandra").local_server(tmp_path / "c", 3, settings, frozenset({1}))
    assert (type(c), c.run_dir, c.nodes, c.first_address, c.jmx_port, c.cpus) == \
        (LocalCassandra, tmp_path / "c", 3, "127.0.0.21", 7221, frozenset({1}))
    h = database("hbase").local_server(tmp_path / "h", 3, settings)
    assert (type(h), h.zk_port, h.master_port, h.regionserver_port, h.nodes) == \
        (LocalHBase, 22181, 22000, 22020, 3)
    m = database("mysql").local_server(tmp_path / "m", 1, settings)
    assert (type(m), m.run_dir, m.port) == (LocalMySQL, tmp_path / "m", 13399)


def test_the_start_estimate_follows_the_database_and_its_nodes():
    def estimate(name, nodes):
        return database(name, RecordingServer(nodes)).start_estimate_s()
    assert [estimate("cassandra", 1), estimate("cassandra", 3)] == [25, 60]
    assert [estimate("hbase", 1), estimate("hbase", 3)] == [25, 75]
    assert estimate("mysql", 1) == 20
    assert estimate("cassandra", 5) == 75  # a size without its own figure: the longest


def test_only_an_n_node_hbase_refuses_saved_data():
    assert "N-node HBase" in database("hbase", LocalHBase(Path("/x"), nodes=3)).saved_data_refusal()
    assert database("hbase", LocalHBase(Path("/x"))).saved_data_refusal() is None
    assert database("cassandra", LocalCassandra(Path("/x"), 3)).saved_data_refusal() is None


def test_hosts_names_the_one_databases_servers_and_mysql_has_its_own_option():
    def hosts(*argv):
        return settings_from(parser("run-scenario").parse_args(["S1", *argv])).hosts
    assert hosts("--db", "hbase", "--hosts", "zk1") == {"hbase": "zk1"}
    assert hosts("--db", "cassandra", "--hosts", "c1") == {"cassandra": "c1"}
    assert hosts("--db", "both", "--hosts", "c1", "--hbase-hosts", "zk1") == {
        "cassandra": "c1", "hbase": "zk1"}
    assert hosts("--db", "mysql", "--mysql-url", "jdbc:mysql://db/ycsb") == {
        "mysql": "jdbc:mysql://db/ycsb"}
    assert [database(n).takes_hosts for n in NAMES] == [True, True, False]


def test_mysql_runs_s1_only_and_only_cassandra_varies_its_table_options():
    assert [database(n).scenarios for n in NAMES] == [None, None, ("s1",)]
    assert [database(n).table_options for n in NAMES] == [True, False, False]


def test_cassandra_compacts_on_every_node_hbase_through_its_admin_mysql_not_at_all():
    server = RecordingServer(nodes=3)
    cassandra = database("cassandra", server)
    assert cassandra.compaction("ycsb", "usertable") == "nodetool flush + compact ycsb usertable"
    cassandra.compact("ycsb", "usertable")
    assert server.calls == [(n, verb, "ycsb", "usertable") for n in (1, 2, 3)
                            for verb in ("flush", "compact")]
    server = RecordingServer()
    hbase = database("hbase", server)
    assert hbase.compaction("ycsb", "usertable") == "flush + major compaction of usertable"
    hbase.compact("ycsb", "usertable")
    assert server.calls == [("compact", "usertable")]
    assert database("mysql").compaction("ycsb", "usertable") is None


def test_s4_settles_its_load_where_the_database_compacts():
    def load(name):
        return scenario_s4.plan(Context("s4", database(name), "local"))[0]
    assert load("cassandra").then_what.startswith("nodetool flush + compact ycsb usertable")
    assert load("hbase").then_what.startswith("flush + major compaction of usertable")
    assert load("mysql").then is None


def test_durability_is_each_databases_own_and_unknown_for_the_others():
    group = database("cassandra").durability(
        {"commitlog_sync": "group", "commitlog_sync_group_window": "15ms"}, "", {})
    assert (group["survives"], group["settings"]["commitlog_sync_group_window"]) == \
        (MACHINE, "15ms")
    skipped = database("cassandra").durability(
        {"commitlog_sync": "batch"}, "CREATE KEYSPACE k WITH durable_writes = false", {})
    assert (skipped["survives"], skipped["default"]) == (NOTHING, False)
    assert database("mysql").durability({"version": "11.4.5"}, "", {}) is None
    for name in ("mysql", "mariadb"):
        assert durability({"database": name, "settings": {"x": "1"}}, {}) == {
            "unknown": f"what {name} does with an acknowledged write is not described"}


def test_the_fault_phase_words_and_bounds_of_each_database():
    cassandra, hbase = database("cassandra"), database("hbase")
    assert (cassandra.node_name(3), hbase.node_name(3)) == (
        "node3", "region server 3 and DataNode 3")
    assert cassandra.fault_down_s("ci", 45) == 45
    assert [hbase.fault_down_s(s, 45) for s in ("ci", "local", "cluster")] == [120, 120, 180]
    assert (cassandra.recovers_while_down, hbase.recovers_while_down) == (False, True)
    assert cassandra.fault_read_back == {"cassandra.readconsistencylevel": "ALL"}
    assert hbase.fault_read_back == {}
    assert (cassandra.fault_overhead_s, hbase.fault_overhead_s) == (60, 90)
    assert cassandra.layout() is None and cassandra.fault_recovery(3, "2026-01-01") is None


def test_no_code_outside_databases_tells_the_databases_apart_by_name():
    compare = re.compile(r'(==|!=) "(cassandra|hbase|mysql)"|in \("(cassandra|hbase|mysql)"')
    found = [f"{p.relative_to(LIB)}:{i}" for p in LIB.rglob("*.py")
             if p.parent.name != "databases"
             for i, line in enumerate(p.read_text().splitlines(), 1) if compare.search(line)]
    assert found == []


def test_what_mysql_does_not_do_is_one_sentence_naming_it_not_a_bare_error():
    mysql = database("mysql")
    for ask in (lambda: mysql.compact("ycsb", "usertable"), lambda: mysql.node_name(2),
                lambda: mysql.start_script_server(),
                lambda: mysql.judge_fault({}, {}, {}, 1, 1, "crash", {})):
        with pytest.raises(ScriptError, match=r"^MySQL has no .* in this pack \(it runs s1\): "
                                              "choose Cassandra or HBase"):
            ask()
