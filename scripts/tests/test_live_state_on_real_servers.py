"""Warm trials' restore (servers/live_state.py) on the shared real servers (shared_servers.py):
a 3-node Cassandra and a 3-node HBase on HDFS. The tables are saved with the databases' own
snapshots, a record is written after the save, and the restore under the running servers must
take it away again while every saved record reads back; YCSB itself reads (bin/ycsb run, one key
at a time), so what is checked is what a trial's client sees. About 1 minute.

The save takes every user table; the restore puts each back as it was at the save, so the
tables of other tests come back as this test found them.
"""

import re
import subprocess

import pytest
from server_marks import ON_REAL_SERVERS
from ycsbpack.core.paths import REPO_ROOT
from ycsbpack.servers import live_state
from ycsbpack.servers.local_servers import LocalCassandra, LocalHBase

pytestmark = ON_REAL_SERVERS

RECORDS = 100
BINDINGS = {
    "cassandra": ["cassandra4", "-p", "hosts=127.0.0.51", "-p", "cassandra.keyspace=livestate",
                  "-p", "cassandra.createschema=true"],
    "hbase": ["hbase-salted", "-p", "hbase.zookeeper.quorum=127.0.0.1", "-p",
              "hbase.zookeeper.property.clientPort=23181", "-p", "table=livestate", "-p",
              "hbase.createtable=true"],
}


def ycsb(command, db, first, count, *extra):
    """bin/ycsb load (records first..first+count-1) or run (reads of those keys only)."""
    binding, *props = BINDINGS[db]
    cmd = [str(REPO_ROOT / "bin" / "ycsb"), command, binding, "-P",
           str(REPO_ROOT / "workloads" / "s4" / "update-heavy.properties"), *props,
           "-p", f"recordcount={first + count}", "-p", f"insertstart={first}",
           "-p", f"insertcount={count}", "-p", "fieldcount=2", "-p", "maxexecutiontime=60",
           "-p", "readproportion=1", "-p", "updateproportion=0",
           "-p", "requestdistribution=uniform", "-threads", "1", *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return dict(re.findall(r"\[(?:READ|INSERT)(?:-FAILED)?\], Return=(\w+), (\d+)", proc.stdout))


def servers(root):
    return {"cassandra": LocalCassandra(root / "cassandra", 3, "127.0.0.51", 7251),
            "hbase": LocalHBase(root / "hbase", 23181, 23000, 23020, nodes=3)}


@pytest.mark.parametrize("db", ["cassandra", "hbase"])
def test_a_restore_under_running_servers_takes_back_what_was_written_after_the_save(
        run_dir, tmp_path, db):
    server = servers(run_dir)[db]
    assert ycsb("load", db, 0, RECORDS) == {"OK": str(RECORDS)}
    saved = live_state.save(server, tmp_path / "saved")
    if db == "cassandra":  # the copies of every node's SSTables, outside the data directories
        assert saved["bytes"] > 0 and {p.name for p in (tmp_path / "saved").iterdir()} == {
            "node1", "node2", "node3"}
    assert ycsb("load", db, RECORDS, 1) == {"OK": "1"}  # written after the save
    assert ycsb("run", db, RECORDS, 1, "-p", "operationcount=1") == {"OK": "1"}
    restored = live_state.restore(server, tmp_path / "saved")
    assert restored["fingerprint"] == saved["fingerprint"]
    assert ycsb("run", db, RECORDS, 1, "-p", "operationcount=1") == {"NOT_FOUND": "1"}
    assert ycsb("run", db, 0, RECORDS, "-p", f"operationcount={RECORDS}") == {"OK": str(RECORDS)}
    if db == "cassandra":  # the truncate's own snapshots are cleared: no disk grows per trial
        listed = server.nodetool(1, ["listsnapshots"], capture=True).stdout
        assert "There are no snapshots" in listed, listed


def test_a_restore_without_a_snapshot_says_so(run_dir, tmp_path):
    with pytest.raises(Exception, match="no saved Cassandra tables"):
        live_state.restore(servers(run_dir)["cassandra"], tmp_path / "nothing-saved")
