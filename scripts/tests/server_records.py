"""What the tests hold a phase's servers' record against: the servers' versions as an
independent client reads them (metadata.json "servers" is read by bin/ycsb servers through the
binding's own client), and the counters of servers.csv that grew."""

import csv
import json
import re
import urllib.request
from pathlib import Path

from ycsbpack.servers import mysql_local


def hbase_versions(info_ports: list) -> set:
    """Each region server's HBase version as its own JVM says it: the hbase-server jar on the
    classpath its info server's /jmx reports (java.lang:type=Runtime), not the cluster metrics
    the probe reads over RPC."""
    found = set()
    for port in info_ports:
        url = f"http://127.0.0.1:{port}/jmx?qry=java.lang:type=Runtime"
        with urllib.request.urlopen(url, timeout=30) as r:
            classpath = json.load(r)["beans"][0]["ClassPath"]
        found |= set(re.findall(r"hbase-server-([^/:]+?)\.jar", classpath))
    return found


def mysql_version(run_dir: Path, port: int) -> str:
    """SELECT VERSION() through the MariaDB package's own command-line client."""
    server = mysql_local.Server(run_dir, port, "")
    out = mysql_local.query(server, mysql_local.binaries(), "SELECT VERSION()")
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()[-1].strip()


def recorded(out: Path) -> set:
    """Every server version the phases of a results directory recorded (cluster and nodes)."""
    seen = set()
    for meta in out.glob("*/metadata.json"):
        versions = json.loads(meta.read_text())["servers"]["versions"]
        seen |= {versions["cluster"]} | {v for v in versions["nodes"].values() if v != "unknown"}
    return seen


def machines(out: Path) -> dict:
    """{node: cores} of the servers' machines the phases of a results directory recorded."""
    seen = {}
    for meta in out.glob("*/metadata.json"):
        for node, m in json.loads(meta.read_text())["servers"].get("machines", {}).items():
            seen[node] = m["cores"]
    return seen


def grown(phase_dir: Path, metrics=("flushes_total", "compactions_total")) -> set:
    """(node, metric) of the counters among `metrics` that grew during the phase (servers.csv)."""
    series = {}
    with open(phase_dir / "servers.csv", newline="") as f:
        for r in csv.DictReader(f):
            series.setdefault((r["node"], r["metric"]), []).append(float(r["value"]))
    return {k for k, v in series.items() if k[1] in metrics and v[-1] > v[0]}
