"""The real servers the scenario tests share, and how a test runs a scenario on them.

One 3-node Cassandra on 127.0.0.51-53 (JMX 7251, 7351, 7451), one 3-node HBase (ZooKeeper 23181,
master 23000, HDFS 23001/23002, region servers 23020-23022) and one MariaDB on 127.0.0.1:25306,
in a temporary run directory, shared by the tests through the runner's "use what runs in
--run-dir" rule: conftest's session fixture `run_dir` starts them once, when a test first asks,
and stops them at the end, also when a test fails. Nothing here uses the default addresses or
ports, nor the ones of the Java integration tests (127.0.0.41, 22181, 24306).
"""

import os
import subprocess
from contextlib import contextmanager

from scenario_commands import scenario_at_ci_scale, script
from ycsbpack.core import procs

CASSANDRA = ["--cassandra-address", "127.0.0.51", "--cassandra-jmx-port", "7251"]
HBASE_PORTS = "23181,23000,23020"
MYSQL_PORT = "25306"


@contextmanager
def shared_servers(root):
    """The three servers in `root`, started side by side (each waits on its own servers: ~1
    minute less than in turn; each must succeed), stopped on leaving."""
    cassandra = ["--run-dir", root / "cassandra", "--first-address", "127.0.0.51",
                 "--jmx-port", "7251"]
    zk, master, rs = HBASE_PORTS.split(",")
    hbase = ["--run-dir", root / "hbase", "--zk-port", zk, "--master-port", master,
             "--regionserver-port", rs]
    mysql = ["--run-dir", root / "mysql", "--port", MYSQL_PORT]
    try:
        starting = [
            subprocess.Popen(script("cassandra-local", "start", "--nodes", "3", *cassandra)),
            subprocess.Popen(
                script("hbase-local", "start", "--nodes", "3", "--owner-pid", os.getpid(), *hbase)
            ),
            subprocess.Popen(script("mysql-local", "start", "--owner-pid", os.getpid(), *mysql)),
        ]
        codes = [p.wait(timeout=900) for p in starting]
        assert codes == [0, 0, 0], f"cassandra, hbase, mysql start exit codes: {codes}"
        yield root
    finally:  # side by side too
        servers = (("cassandra-local", cassandra), ("hbase-local", hbase), ("mysql-local", mysql))
        stopping = [subprocess.Popen(script(name, "stop", *opts)) for name, opts in servers]
        for p in stopping:
            p.wait(timeout=300)
        left = [
            p for p in (root / "hbase" / "pids").glob("*.pid") if procs.alive(procs.read_pid(p))
        ]
        assert not left, f"HBase processes still running after stop: {left}"


def run_scenario(name, db, out, run_dir, *extra, watch=False):
    """`run-scenario NAME --db DB` at CI scale on the shared servers; the servers sampled only
    with `watch` (the tests of what sampling records: the probe's JVM beside every phase made
    each scenario test 10-20% slower)."""
    return subprocess.run(
        scenario_at_ci_scale(name, out, run_dir, "--db", db, "--hbase-ports", HBASE_PORTS,
                             *CASSANDRA, "--mysql-port", MYSQL_PORT, *extra,
                             *([] if watch else ["--no-server-watch"])),
        capture_output=True, text=True, timeout=900,
    )
