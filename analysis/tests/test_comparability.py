"""Comparability of a verdict's two sides: the facts of each phase's metadata.json that can
move a figure, and which of them a comparison holds against each other."""

import polars as pl
from ycsb_analysis import comparability as cmp


def _meta(driver="4.19.3", netty="4.1.130.Final", setting="64MiB/s", cluster="5.0.9",
          server_cores=(2,)):
    return {
        "provenance": {
            "pack": {"commit": "3d189112dd414e55699f42770e9696f1b612aaa0", "modified": False},
            "jdk": {"java.version": "17.0.15", "java.vm.name": "OpenJDK 64-Bit Server VM"},
            "jvm_flags": [],
            "libraries": {"java-driver-core": driver, "netty-handler": netty, "core": "0.17.0"},
            "telemetry": {"otel_agent": False, "client_metrics_properties": {}},
            "machine": {"cores": 2, "memory_gib": 23.5},
        },
        "servers": {"versions": {"cluster": cluster, "nodes": {"127.0.0.41": cluster}},
                    "machines": {f"127.0.0.{41 + i}": {"cores": c, "memory_bytes": 25165824000}
                                 for i, c in enumerate(server_cores)},
                    "settings": {"compaction_throughput": setting},
                    "schema": "CREATE TABLE ycsb.usertable (y_id text PRIMARY KEY)"},
    }


def test_a_changed_client_library_and_server_setting_are_named_against_a_baseline():
    a, b = cmp.fingerprint(_meta(netty="4.1.118.Final", setting="0MiB/s")), cmp.fingerprint(_meta())
    found = cmp.differences(a, b, cross_database=False)
    assert found == [("client library netty-handler", "4.1.118.Final", "4.1.130.Final"),
                     ("server setting compaction_throughput", "0MiB/s", "64MiB/s")]


def test_across_databases_servers_and_one_sided_libraries_are_not_held_against_each_other():
    hbase = _meta(cluster="2.6.4")
    hbase["provenance"]["libraries"] = {"hbase-client": "2.6.4-hadoop3", "core": "0.17.0",
                                        "netty-handler": "4.1.118.Final"}
    hbase["servers"]["settings"] = {"hbase.regionserver.handler.count": "30"}
    found = cmp.differences(cmp.fingerprint(_meta()), cmp.fingerprint(hbase), cross_database=True)
    assert found == [("client library netty-handler", "4.1.130.Final", "4.1.118.Final"),
                     ("server version", "5.0.9", "2.6.4"),
                     ("server versions of the nodes", "5.0.9", "2.6.4")]
    # what two databases' bindings load at their own versions is what is compared
    assert all(cmp.inherent(fact, cross_database=True) for fact, _, _ in found)
    assert not cmp.inherent("client library netty-handler", cross_database=False)


def test_settings_that_only_say_where_are_not_compared():
    a, b = _meta(), _meta()
    a["servers"]["settings"]["commitlog_directory"] = "/tmp/run-a/node1/commitlog"
    b["servers"]["settings"]["commitlog_directory"] = "/tmp/run-b/node1/commitlog"
    assert cmp.differences(cmp.fingerprint(a), cmp.fingerprint(b), False) == []


def test_a_side_without_any_record_is_not_called_different():
    assert cmp.differences(cmp.fingerprint({}), cmp.fingerprint(_meta()), False) == []


def test_the_verdict_line_names_unexpected_differences_and_the_table_keeps_every_one():
    verdicts = pl.DataFrame([{"scenario": "S4", "phase": "p", "verdict": "no significant "
                              "difference (95% CI -6% to +3%; 4 paired trials)"}])
    fa = cmp.fingerprint(_meta(netty="4.1.118.Final", setting="0MiB/s"))
    fb = cmp.fingerprint(_meta())
    pairs = {0: ("S4", "p", "current", "baseline", fa, fb, False)}
    out, table = cmp.annotate(verdicts, "current vs baseline", pairs,
                              expected=["server setting compaction_*"])
    line = out["verdict"][0]
    assert line.startswith("no significant difference")
    assert line.endswith("; not like for like [1]")
    assert out["marks"][0] == "1"
    assert cmp.footnotes(table) == {
        "1": "client library netty-handler 4.1.118.Final (current) vs 4.1.130.Final (baseline)"}
    assert list(table["fact"]) == ["client library netty-handler",
                                   "server setting compaction_throughput"]
    assert list(table["expected"]) == [False, True]
    assert list(table["mark"]) == ["1", ""]


def test_trials_that_ran_different_software_show_both_values():
    class Run:  # the attributes side_facts reads of a loaded run
        def __init__(self, meta):
            self.scenario, self.timestamp, self.phase, self.database = "S4", "t", "p", "cassandra"
            self.metadata = meta

    facts = cmp.side_facts([Run(_meta()), Run(_meta(driver="4.17.0"))])
    assert facts[("S4", "t", "p", "cassandra")]["client library java-driver-core"] == \
        "4.17.0 | 4.19.3"


def test_servers_on_machines_with_other_core_counts_are_not_like_for_like():
    a = cmp.fingerprint(_meta(server_cores=(8, 8)))
    b = cmp.fingerprint(_meta(server_cores=(2, 4)))
    assert (a["server cores"], b["server cores"]) == ("8", "2, 4")
    assert a["server memory gib"] == "23.4"
    assert cmp.differences(a, b, cross_database=False) == [("server cores", "8", "2, 4")]
    hbase = _meta(cluster="2.6.4", server_cores=(4,))
    assert ("server cores", "8", "4") in cmp.differences(a, cmp.fingerprint(hbase), True)
    verdicts = pl.DataFrame([{"scenario": "S4", "phase": "p", "verdict": "no significant "
                              "difference (95% CI -6% to +3%; 4 paired trials)"}])
    out, _ = cmp.annotate(verdicts, "current vs baseline",
                          {0: ("S4", "p", "current", "baseline", a, b, False)}, expected=[])
    assert out["verdict"][0].endswith("not like for like [1]")
    assert cmp.footnotes(_) == {"1": "server cores 8 (current) vs 2, 4 (baseline)"}


def test_a_side_whose_servers_machines_were_not_read_is_not_called_different_across_databases():
    hbase = _meta(cluster="2.6.4")
    del hbase["servers"]["machines"]
    hbase["servers"]["settings"] = {}
    hbase["provenance"]["libraries"] = {"core": "0.17.0"}
    found = cmp.differences(cmp.fingerprint(_meta()), cmp.fingerprint(hbase), True)
    assert [fact for fact, _, _ in found if not cmp.inherent(fact, True)] == []


def test_servers_and_clients_on_other_cpu_sets_are_not_like_for_like_across_databases():
    """metadata.json cpu.cpu_sets (the runner reads them from the kernel): a Cassandra whose
    server had CPU 0 against an HBase on CPUs 0-1 is marked; the same sets are not."""
    def meta(servers):
        return {"cpu": {"cpu_sets": {"clients": [1], "servers": servers}}}
    one = cmp.fingerprint(meta({"cassandra-node1": [0]}))
    assert one == {"CPUs of the clients": "1", "CPUs of the local servers": "0"}
    two = cmp.fingerprint(meta({"hbase": [0, 1]}))
    assert cmp.differences(one, two, cross_database=True) == [
        ("CPUs of the local servers", "0", "0,1")]
    assert cmp.differences(one, cmp.fingerprint(meta({"hbase": [0]})), cross_database=True) == []


def test_a_setting_that_names_one_server_process_is_not_compared():
    """Seen in a real A/A run of HBase (2026-12-06): the master's mapreduce.task.attempt.id holds
    its "host,port,start code", different at every start of the same configuration."""
    a = {"server setting mapreduce.task.attempt.id": "hb_m_127.0.0.1,16000,1796548842921"}
    b = {"server setting mapreduce.task.attempt.id": "hb_m_127.0.0.1,16000,1796548931146"}
    assert cmp.differences(a, b, cross_database=False) == []
    c = {"server setting hbase.regionserver.handler.count": "30"}
    d = {"server setting hbase.regionserver.handler.count": "60"}
    assert cmp.differences(c, d, cross_database=False) != []
