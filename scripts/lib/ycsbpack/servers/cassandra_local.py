"""scripts/cassandra-local: real Apache Cassandra 5.0 nodes on loopback, from Maven Central.

One node on 127.0.0.1, or three on 127.0.0.1-3 (datacenter1), each with its own data, logs,
PID file and JMX port under one run directory. Facts behind the choices: README.md,
"Local Cassandra".
"""
import argparse
import ipaddress
import json
import string
import subprocess
import sys
import time
from pathlib import Path

from ..core import java, maven, procs
from ..core.arg_checks import check_heap, check_loopback, check_port
from ..core.errors import ArgParser, ScriptError, run_main
from ..core.paths import LOCAL_SERVERS, run_dir
from . import tls_local
from .cql import cql_answers

CASSANDRA = LOCAL_SERVERS / "cassandra"
STORAGE_PORT = 7000
NATIVE_PORT = 9042
DATACENTER = "datacenter1"
MAIN = "org.apache.cassandra.service.CassandraDaemon"
NODETOOL = "org.apache.cassandra.tools.NodeTool"


def node_tokens(n: int) -> list:
    """Evenly spaced Murmur3 tokens: fixed tokens avoid vnode allocation and its ring delay."""
    return [-(2 ** 63) + i * (2 ** 64 // n) for i in range(n)]


class Cluster:
    """The nodes of one run directory, as recorded in cluster.json when they were first started."""

    def __init__(self, root: Path, nodes: int, first_address: str, jmx_port: int, heap: str,
                 tls: bool = False):
        self.root = root
        self.nodes = nodes
        self.first_address = first_address
        self.jmx_port = jmx_port
        self.heap = heap
        self.tls = tls

    @classmethod
    def load_or_create(cls, root: Path, args) -> "Cluster":
        saved = root / "cluster.json"
        if saved.exists():
            c = json.loads(saved.read_text())
            cluster = cls(root, c["nodes"], c["first_address"], c["jmx_port"], c["heap"],
                          c.get("tls", False) or getattr(args, "tls", False))
            asked = getattr(args, "nodes", None)
            if asked and asked != cluster.nodes and cluster.running():
                raise ScriptError(
                    f"{root} holds a running {cluster.nodes}-node cluster; stop it before "
                    f"starting {asked} nodes (scripts/cassandra-local stop)")
            if asked and asked != cluster.nodes:
                return cls(root, asked, args.first_address, args.jmx_port, args.heap,
                           getattr(args, "tls", False))
            return cluster
        return cls(root, getattr(args, "nodes", None) or 1, args.first_address, args.jmx_port,
                   args.heap, getattr(args, "tls", False))

    def save(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "cluster.json").write_text(json.dumps(
            {"nodes": self.nodes, "first_address": self.first_address,
             "jmx_port": self.jmx_port, "heap": self.heap, "tls": self.tls}, indent=2))

    def address(self, i: int) -> str:
        return str(ipaddress.IPv4Address(self.first_address) + (i - 1))

    def jmx(self, i: int) -> int:
        return self.jmx_port + 100 * (i - 1)

    def node_dir(self, i: int) -> Path:
        return self.root / f"node{i}"

    def pid_file(self, i: int) -> Path:
        return self.root / f"node{i}.pid"

    def pid(self, i: int):
        pid = procs.read_pid(self.pid_file(i))
        return pid if procs.alive(pid) else None

    def running(self) -> list:
        return [i for i in range(1, self.nodes + 1) if self.pid(i)]

    def hosts(self) -> str:
        return ",".join(self.address(i) for i in range(1, self.nodes + 1))


def _write_config(cluster: Cluster, i: int) -> Path:
    d = cluster.node_dir(i)
    for sub in ("data", "commitlog", "saved_caches", "hints", "cdc_raw", "logs", "conf"):
        (d / sub).mkdir(parents=True, exist_ok=True)
    template = string.Template((CASSANDRA / "cassandra.yaml.template").read_text())
    tls = (
        tls_local.ensure(
            cluster.root / "tls", [cluster.address(n) for n in range(1, cluster.nodes + 1)]
        )
        if cluster.tls
        else None
    )
    yaml = d / "conf" / "cassandra.yaml"
    yaml.write_text(template.substitute(
        node_dir=d, initial_token=node_tokens(cluster.nodes)[i - 1],
        seeds=f"{cluster.address(1)}:{STORAGE_PORT}", address=cluster.address(i),
        storage_port=STORAGE_PORT, native_port=NATIVE_PORT,
        client_encryption=tls_local.client_encryption_yaml(tls)))
    yaml.chmod(0o600)
    return yaml


def _jvm_command(cluster: Cluster, i: int, classpath: list, yaml: Path) -> list:
    d = cluster.node_dir(i)
    jamm = [j for j in classpath if Path(j).name.startswith("jamm-")]
    cmd = [java.java17(), f"-Xms{cluster.heap}", f"-Xmx{cluster.heap}", "-Xss256k",
           "-XX:+UseG1GC", "-XX:+PerfDisableSharedMem", f"@{CASSANDRA / 'jvm17.options'}"]
    cmd += [f"-javaagent:{j}" for j in jamm[:1]]
    cmd += [f"-Dcassandra.config={yaml.as_uri()}", f"-Dcassandra.storagedir={d}",
            f"-Dcassandra.logdir={d / 'logs'}",
            f"-Dlogback.configurationFile={(CASSANDRA / 'logback.xml').as_uri()}",
            "-Dcassandra-foreground=yes", f"-Dcassandra.jmx.local.port={cluster.jmx(i)}",
            "-Dcassandra.skip_wait_for_gossip_to_settle=0",
            "-cp", ":".join(classpath), MAIN]
    return procs.without_memlock(cmd)


def _refuse_taken_ports(cluster: Cluster, nodes: list) -> None:
    ports = []
    for i in nodes:
        ports += [(cluster.address(i), NATIVE_PORT, f"node{i} CQL"),
                  (cluster.address(i), STORAGE_PORT, f"node{i} storage"),
                  ("127.0.0.1", cluster.jmx(i), f"node{i} JMX")]
    taken = procs.taken_ports(ports)
    if taken:
        where = ", ".join(f"{h}:{p} ({what})" for h, p, what in taken)
        raise ScriptError(
            f"cannot start Cassandra: something else already listens on {where}. Stop it, or "
            "choose other addresses with --first-address 127.0.0.N and --jmx-port")


def start(cluster: Cluster, only_node=None, timeout: float = 240) -> None:
    nodes = [only_node] if only_node else list(range(1, cluster.nodes + 1))
    to_start = [i for i in nodes if not cluster.pid(i)]
    for i in nodes:
        if i not in to_start:
            print(f"node{i} already running (pid {cluster.pid(i)}) on {cluster.address(i)}")
    if not to_start:
        return
    _refuse_taken_ports(cluster, to_start)
    classpath = maven.classpath(CASSANDRA / "pom.xml", "Cassandra 5.0.9 (cassandra-all)")
    cluster.save()
    started = {}
    for i in to_start:
        yaml = _write_config(cluster, i)
        out = open(cluster.node_dir(i) / "logs" / "node.out", "ab")
        p = subprocess.Popen(_jvm_command(cluster, i, classpath, yaml), stdout=out, stderr=out,
                             stdin=subprocess.DEVNULL, start_new_session=True,
                             cwd=cluster.node_dir(i))
        cluster.pid_file(i).write_text(str(p.pid))
        started[i] = p
        print(f"node{i} starting on {cluster.address(i)}:{NATIVE_PORT} (pid {p.pid}, "
              f"JMX 127.0.0.1:{cluster.jmx(i)})", flush=True)
    t0 = time.monotonic()
    waiting = set(started)
    while waiting:
        for i in sorted(waiting):
            if started[i].poll() is not None:
                raise ScriptError(_failure_report(cluster, i, f"exited with status "
                                                              f"{started[i].returncode}"))
            if cql_answers(cluster.address(i), NATIVE_PORT):
                waiting.discard(i)
                print(f"node{i} answers CQL after {time.monotonic() - t0:.0f} s", flush=True)
        if waiting and time.monotonic() - t0 > timeout:
            for i in waiting:
                procs.stop(started[i].pid, 10)
            raise ScriptError(_failure_report(
                cluster, min(waiting), f"did not answer CQL within {timeout:.0f} s (stopped)"))
        time.sleep(0.5)
    print(f"Cassandra ready: hosts={cluster.hosts()} (datacenter {DATACENTER})")
    if cluster.tls:
        tls = cluster.root / "tls"
        print(f"TLS (optional) on the CQL port: -p cassandra.ssl=true -jvm-args "
              f"\"-Djavax.net.ssl.trustStore={tls / 'truststore.jks'} "
              f"-Djavax.net.ssl.trustStorePassword=$(cat {tls / 'password'})\"")


def _failure_report(cluster: Cluster, i: int, what: str) -> str:
    logs = cluster.node_dir(i) / "logs"
    return (f"Cassandra node{i} on {cluster.address(i)} {what}.\n"
            f"--- last lines of {logs / 'system.log'} ---\n{procs.tail(logs / 'system.log')}\n"
            f"--- last lines of {logs / 'node.out'} ---\n{procs.tail(logs / 'node.out', 20)}")


def stop(cluster: Cluster, only_node=None, kill: bool = False) -> None:
    nodes = [only_node] if only_node else list(range(1, cluster.nodes + 1))
    for i in nodes:
        pid = procs.read_pid(cluster.pid_file(i))
        if pid and procs.alive(pid):
            how = procs.stop(pid, 60, kill=kill)
            print(f"node{i} (pid {pid}) {how}")
        else:
            print(f"node{i} not running")
        cluster.pid_file(i).unlink(missing_ok=True)


def status(cluster: Cluster) -> int:
    down = 0
    for i in range(1, cluster.nodes + 1):
        pid = cluster.pid(i)
        cql = pid and cql_answers(cluster.address(i), NATIVE_PORT)
        state = "UP, answers CQL" if cql else ("starting (no CQL yet)" if pid else "DOWN")
        down += 0 if cql else 1
        print(f"node{i} {cluster.address(i)}:{NATIVE_PORT} pid={pid or '-'} {state}")
    return 0 if down == 0 else 3


def nodetool(cluster: Cluster, node: int, args: list) -> int:
    classpath = maven.classpath(CASSANDRA / "pom.xml", "Cassandra 5.0.9 (cassandra-all)")
    cmd = [java.java17(), f"@{CASSANDRA / 'jvm17.options'}", "-Xmx256m",
           "-Dlogback.configurationFile=" + (CASSANDRA / "logback.xml").as_uri(),
           f"-Dcassandra.logdir={cluster.node_dir(node) / 'logs'}",
           "-cp", ":".join(classpath), NODETOOL,
           "-h", "127.0.0.1", "-p", str(cluster.jmx(node))] + args
    return subprocess.run(cmd).returncode


def parser() -> argparse.ArgumentParser:
    p = ArgParser(
        prog="cassandra-local",
        description="Start, stop and inspect real local Cassandra 5.0 nodes on loopback.")
    p.add_argument("command", choices=["start", "stop", "status", "nodetool"])
    p.add_argument("--nodes", type=int, choices=[1, 3], help="1 (default) or 3 nodes (start)")
    p.add_argument("--node", type=int, help="act on this node only (start, stop, nodetool)")
    p.add_argument(
        "--kill", action="store_true", help="stop with SIGKILL (a crash, for fault tests)"
    )
    p.add_argument("--run-dir", type=Path, default=run_dir("cassandra"),
                   help="data, logs and PID files (default: run/cassandra)")
    p.add_argument("--first-address", default="127.0.0.1",
                   help="address of node1; node N gets the next addresses (default 127.0.0.1)")
    p.add_argument("--jmx-port", type=int, default=7199,
                   help="JMX port of node1 on 127.0.0.1; node N uses +100*(N-1) (default 7199)")
    p.add_argument("--heap", default="1G", help="heap per node (default 1G)")
    p.add_argument("--tls", action="store_true",
                   help="also accept TLS clients (self-signed certificate in <run-dir>/tls)")
    p.add_argument("--timeout", type=float, default=240, help="seconds to wait for CQL (start)")
    p.epilog = "nodetool arguments follow a --: cassandra-local nodetool --node 2 -- status"
    return p


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser().parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    check_loopback("--first-address", args.first_address, args.nodes or 1)
    for i in range(args.nodes or 1):
        check_port("--jmx-port", str(args.jmx_port + 100 * i))
    check_heap("--heap", args.heap)
    cluster = Cluster.load_or_create(args.run_dir.resolve(), args)
    if args.node is not None and not 1 <= args.node <= cluster.nodes:
        raise ScriptError(f"--node {args.node}: the cluster in {cluster.root} has nodes "
                          f"1..{cluster.nodes}")
    if args.command == "start":
        start(cluster, args.node, args.timeout)
    elif args.command == "stop":
        stop(cluster, args.node, args.kill)
    elif args.command == "status":
        return status(cluster)
    elif args.command == "nodetool":
        return nodetool(cluster, args.node or 1, extra)
    return 0


if __name__ == "__main__":
    run_main(main)
