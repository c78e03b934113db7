"""What ran, read from the source, on the real shared servers (shared_servers.py): the servers'
versions as an independent client reads them, the servers' time series of a load with its flush
and compaction, and a comparison between runs that differ in one client library and one server
setting naming exactly those differences on the verdict's line.

Two loads of S4 on the shared 3-node Cassandra (`--only load`: the load, then its flush and
major compaction within the phase): A as it is, B with stock YCSB 0.17's HdrHistogram 2.1.4 put
first on the clients' classpath (--client-cp) and after `nodetool setcompactionthroughput` on
every node (one load for both differences: a third load cost ~35 s of CI). About a minute."""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

from server_marks import ON_REAL_SERVERS
from server_records import grown
from shared_servers import HBASE_PORTS, run_scenario
from ycsbpack.core.paths import REPO_ROOT
from ycsbpack.servers.local_servers import LocalCassandra

pytestmark = ON_REAL_SERVERS

STOCK_HDR = REPO_ROOT / "ycsb-runtime" / "target" / "stock-ycsb-release-lib" / \
    "HdrHistogram-2.1.4.jar"
REPORT = REPO_ROOT / ".venv" / "bin" / "ycsb-report"


def _load(out: Path, run_dir: Path, *extra) -> dict:
    p = run_scenario("S4", "cassandra", out, run_dir, "--only", "load", *extra, watch=True)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return json.loads((out / "cassandra-load" / "metadata.json").read_text())


def _report(current: Path, out: Path, *extra) -> Path:
    p = subprocess.run([str(REPORT), str(current), "-o", str(out), *map(str, extra)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    return out


def _rows(path: Path) -> list:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_versions_the_servers_time_series_and_differences_named_on_the_verdict(run_dir,
                                                                              tmp_path):
    cassandra = LocalCassandra(run_dir / "cassandra", 3, "127.0.0.51", 7251)
    a = _load(tmp_path / "a", run_dir)

    # every node's version as nodetool (JMX, another client) reads it
    nodes = a["servers"]["versions"]["nodes"]
    for i in (1, 2, 3):
        said = cassandra.nodetool(i, ["version"], capture=True).stdout
        assert f"ReleaseVersion: {nodes[cassandra.address(i)]}" in said, (i, said, nodes)
    assert a["servers"]["schema"].startswith("CREATE KEYSPACE") and a["servers"]["settings"]
    # every node's machine as its JVM sees it (JMX): this machine, within what /proc tells
    mem_total = int(Path("/proc/meminfo").read_text().split()[1]) * 1024
    machines = a["servers"]["machines"]
    assert sorted(machines) == sorted(nodes), machines
    for m in machines.values():
        assert 1 <= m["cores"] <= os.cpu_count() and 0 < m["memory_bytes"] <= mem_total, m
    assert a["provenance"]["libraries"]["HdrHistogram"] == "2.1.12"
    for f in (tmp_path / "a").rglob("*"):
        if f.is_file() and f.suffix in (".json", ".csv", ".out", ".err", ".jsonl"):
            assert "${" not in f.read_text(errors="replace"), f"{f}: an unresolved property"

    # the load's flush and major compaction, in its servers' time series
    load = tmp_path / "a" / "cassandra-load"
    assert grown(load), "no flush or compaction seen in servers.csv"
    assert grown(load, ("cpu_ms_total",)) >= {(f"cassandra-node{i}", "cpu_ms_total")
                                              for i in (1, 2, 3)}

    old = {}
    try:
        for i in (1, 2, 3):
            old[i] = cassandra.nodetool(i, ["getcompactionthroughput"], capture=True).stdout
            cassandra.nodetool(i, ["setcompactionthroughput", "7"])
        b = _load(tmp_path / "b", run_dir, "--client-cp", STOCK_HDR)
    finally:
        for i in old:
            mib = "".join(ch for ch in old[i].split(":")[-1] if ch.isdigit()) or "64"
            cassandra.nodetool(i, ["setcompactionthroughput", mib])
    assert b["provenance"]["libraries"]["HdrHistogram"] == "2.1.4 (-cp)"

    rep_a = _report(tmp_path / "a", tmp_path / "report-a")
    assert list(rep_a.glob("servers-*.png")) and _rows(rep_a / "servers.csv")
    assert "What ran" in (rep_a / "report.html").read_text()

    rep_b = _report(tmp_path / "b", tmp_path / "report-b", "--baseline", tmp_path / "a")
    verdict = _rows(rep_b / "comparison.csv")[0]["verdict"]
    assert "; not like for like [" in verdict, verdict
    marked = [r for r in _rows(rep_b / "comparability.csv") if r["mark"]]
    assert ("client library HdrHistogram", "2.1.4 (-cp)", "2.1.12") in [
        (r["fact"], r["value_a"], r["value_b"]) for r in marked]
    # exactly the two differences made, nothing else (no JDK, no other setting or library)
    assert {r["fact"].split()[0] + " " + r["fact"].split()[1] for r in marked} == {
        "client library", "server setting"}, marked
    # (Cassandra 5 reports the setting under its name and its old *_mb_per_sec alias)
    assert all(r["fact"].startswith("server setting compaction_throughput") for r in marked
               if r["fact"].startswith("server setting")), marked
    # a difference the user meant to make is named as expected, not marked on the verdict
    rep_b2 = _report(tmp_path / "b", tmp_path / "report-b2", "--baseline", tmp_path / "a",
                     "--expected-difference", "server setting compaction_*")
    verdict = _rows(rep_b2 / "comparison.csv")[0]["verdict"]
    assert "; not like for like [" in verdict and "compaction" not in verdict, verdict
    assert {r["expected"] for r in _rows(rep_b2 / "comparability.csv")
            if r["fact"].startswith("server setting compaction_throughput")} == {"True"}
    rep_b3 = _report(tmp_path / "b", tmp_path / "report-b3", "--baseline", tmp_path / "a",
                     "--expected-difference", "server setting compaction_*",
                     "--expected-difference", "client library *")
    assert "like for like" not in _rows(rep_b3 / "comparison.csv")[0]["verdict"]


def _threads(pid: int) -> set:
    return {(t / "comm").read_text().strip() for t in Path(f"/proc/{pid}/task").iterdir()}


def test_the_hbase_watch_asks_the_info_servers_and_never_starts_the_hbase_client(run_dir):
    """Under -watch the HBase probe's own JVM opens no HBase connection: a child JVM reads the
    facts and exits. Once used, the HBase client keeps two timers ticking every 10 ms for the rest
    of its JVM's life (three quarters of the probe's CPU when it did; issue 34's cost). The
    rounds come from the info servers the facts name (sampled_from); the shared 3-node HBase."""
    zk = HBASE_PORTS.split(",")[0]
    cmd = [sys.executable, str(REPO_ROOT / "bin" / "ycsb"), "servers", "hbase-salted",
           "-P", str(REPO_ROOT / "workloads" / "db" / "hbase.properties"),
           "-p", "hbase.zookeeper.quorum=127.0.0.1",
           "-p", f"hbase.zookeeper.property.clientPort={zk}", "-watch", "1"]
    probe = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        facts = json.loads(probe.stdout.readline())
        first_sample = json.loads(probe.stdout.readline())
        threads = _threads(probe.pid)  # bin/ycsb execs the JVM
        command = Path(f"/proc/{probe.pid}/cmdline").read_bytes().split(b"\0")
    finally:
        probe.stdin.close()
    rest = [json.loads(line) for line in probe.stdout.read().splitlines()]
    assert probe.wait(timeout=60) == 0, probe.stderr.read()[-2000:]
    assert b"org.ycsbpack.hbase.ServerProbe" in command and "VM Thread" in threads, threads
    assert not [t for t in threads if t.startswith(("RpcClient-timer", "Async-Client-Retry"))], \
        threads
    rs = [f"127.0.0.1:{int(HBASE_PORTS.split(',')[2]) + i}" for i in range(3)]
    assert set(rs) <= set(facts["sampled_from"]), facts["sampled_from"]
    samples = [first_sample] + [d for d in rest if "metric" in d]
    assert {d["node"] for d in samples if d["metric"] == "flushes_total"} == set(rs), samples
    assert rest[-1]["database"] == "hbase" and rest[-1]["versions"] == facts["versions"]
