"""metadata.json "durability" without a server: what the runner records of each side's handling
of an acknowledged write, from the settings real servers reported (the kept quickstart run,
analysis/tests/fixtures/quickstart-s4), and what the analysis reads of it."""
import copy
import json
from pathlib import Path

import pytest
from ycsbpack.databases.base import MACHINE, NOTHING, PROCESS
from ycsbpack.phases.durability import durability

QUICKSTART = (Path(__file__).parents[2] / "analysis" / "tests" / "fixtures" / "quickstart-s4"
              / "qs-main")


def recorded(database: str) -> dict:
    """The metadata.json of the quickstart's first trial on `database` (real server records)."""
    return json.loads((QUICKSTART / f"{database}-update-heavy-threads-8-repeat-1"
                       / "metadata.json").read_text())


def with_settings(m: dict, **settings) -> dict:
    servers = copy.deepcopy(m["servers"])
    servers["settings"].update(settings)
    return servers


def test_cassandras_periodic_commit_log_survives_a_process_crash_by_default():
    m = recorded("cassandra")
    d = durability(m["servers"], m["properties"])
    assert (d["survives"], d["default"]) == (PROCESS, True)
    assert d["settings"] == {"commitlog_sync": "periodic", "commitlog_sync_period": "10000ms",
                             "durable_writes": "true"}
    assert "up to 10000ms of acknowledged writes" in d["acknowledged_write"]
    batch = durability(with_settings(m, commitlog_sync="batch"), m["properties"])
    assert (batch["survives"], batch["default"]) == (MACHINE, False)


def test_a_standalone_hbase_wal_on_the_local_filesystem_cannot_hflush_hdfs_can():
    m = recorded("hbase")
    d = durability(m["servers"], m["properties"])
    assert (d["survives"], d["default"]) == (NOTHING, True)
    assert d["wal"] == "file: the local filesystem, which cannot hflush"
    hdfs = durability(with_settings(m, **{"hbase.rootdir": "hdfs://nn:8020/hbase"}),
                      m["properties"])
    assert (hdfs["survives"], hdfs["default"]) == (PROCESS, True)
    assert "hflushed to the DataNodes' memory" in hdfs["acknowledged_write"]
    hsync = durability(with_settings(m, **{"hbase.rootdir": "hdfs://nn:8020/hbase",
                                           "hbase.wal.hsync": "true"}), m["properties"])
    assert (hsync["survives"], hsync["default"]) == (MACHINE, False)
    skip = durability(m["servers"], dict(m["properties"], **{"hbase.durability": "SKIP_WAL"}))
    assert (skip["survives"], skip["default"]) == (NOTHING, False)


def test_servers_not_read_give_a_reason_not_a_guess():
    assert durability({"skipped": ["the servers were not sampled (--no-server-watch)"]}, {}) == {
        "unknown": "the servers' settings were not read (the servers were not sampled "
                   "(--no-server-watch))"}
    m = recorded("cassandra")
    servers = dict(m["servers"], database="mysql")
    assert "not described" in durability(servers, {})["unknown"]


def test_the_analysis_reads_the_record_the_runner_writes():
    comparability = pytest.importorskip("ycsb_analysis.comparability")
    for database, survives in (("cassandra", PROCESS), ("hbase", NOTHING)):
        m = recorded(database)
        facts = comparability.fingerprint(m | {"durability": durability(m["servers"],
                                                                        m["properties"])})
        assert facts[comparability.SURVIVES] == survives + comparability.DEFAULT
        assert facts[comparability.DURABILITY]
