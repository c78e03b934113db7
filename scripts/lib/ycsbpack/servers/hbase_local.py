"""scripts/hbase-local: a real Apache HBase 2.6 on loopback, from Maven Central.

--nodes 1 (the default) is standalone, what HBase's own bin/start-hbase.sh runs: `HMaster start`
in one JVM holding an in-process ZooKeeper, the master and one region server, on the local
filesystem. --nodes N (N >= 2) is a multi-process cluster on HDFS with N DataNodes and N region
servers (hbase_cluster.py). Data, logs, configuration and PID files live under one run directory.
"""
import argparse
import json
import re
import shutil
import string
import subprocess
import time
from pathlib import Path

from ..core import java, procs
from ..core.arg_checks import check_heap
from ..core.errors import ArgParser, ScriptError, run_main
from ..core.paths import run_dir
from . import hbase_cluster, hbase_tool
from .hbase_tool import HBASE, jvm_flags, probe

HOST = "127.0.0.1"
MAIN = "org.apache.hadoop.hbase.master.HMaster"


class Server:
    """The HBase of one run directory (standalone or a cluster of `nodes` nodes), with the ports
    it was last started on."""

    def __init__(self, root: Path, zk_port: int, master_port: int, regionserver_port: int,
                 heap: str = None, nodes: int = 1):
        self.root = root
        self.zk_port = zk_port
        self.master_port = master_port
        self.regionserver_port = regionserver_port
        self.nodes = nodes
        # standalone: the one JVM's heap; cluster: each region server's
        self.heap = heap or ("1G" if nodes == 1 else hbase_cluster.DEFAULT_RS_HEAP)

    @classmethod
    def load_or_create(cls, root: Path, args) -> "Server":
        """start takes the ports from the command line, unless it restarts one node of a
        cluster; stop, status and node restarts read hbase.json."""
        saved = root / "hbase.json"
        node_restart = args.command == "start" and getattr(args, "node", None)
        if (args.command != "start" or node_restart) and saved.exists():
            s = json.loads(saved.read_text())
            return cls(root, s["zk_port"], s["master_port"], s["regionserver_port"], s["heap"],
                       s.get("nodes", 1))
        return cls(root, args.zk_port, args.master_port, args.regionserver_port, args.heap,
                   getattr(args, "nodes", None) or 1)

    def save(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "hbase.json").write_text(json.dumps(
            {"zk_port": self.zk_port, "master_port": self.master_port,
             "regionserver_port": self.regionserver_port, "heap": self.heap,
             "nodes": self.nodes}, indent=2))

    @property
    def distributed(self) -> bool:
        return self.nodes > 1

    def layout(self) -> hbase_cluster.Layout:
        return hbase_cluster.Layout(self.root, self.nodes, self.zk_port, self.master_port,
                                    self.regionserver_port, self.heap)

    def pids(self) -> dict:
        """{process name: pid} of the running server processes (standalone: {"hbase": pid})."""
        if self.distributed:
            return self.layout().pids()
        pid = self.pid()
        return {"hbase": pid} if pid else {}

    @property
    def pid_file(self) -> Path:
        return self.root / "hbase.pid"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    def pid(self):
        """Standalone: the JVM's pid; cluster: the master's (None when it does not run)."""
        if self.distributed:
            return self.layout().pid("master")
        pid = procs.read_pid(self.pid_file)
        return pid if procs.alive(pid) else None

    def ports(self) -> list:
        if self.distributed:
            return self.layout().ports()
        return [(HOST, self.zk_port, "ZooKeeper (--zk-port)"),
                (HOST, self.master_port, "master RPC (--master-port)"),
                (HOST, self.regionserver_port, "region server RPC (--regionserver-port)"),
                (HOST, self.master_port + hbase_cluster.INFO_PORT_OFFSET,
                 f"master info server (--master-port + {hbase_cluster.INFO_PORT_OFFSET})"),
                (HOST, self.regionserver_port + hbase_cluster.INFO_PORT_OFFSET,
                 f"region server info server (--regionserver-port + "
                 f"{hbase_cluster.INFO_PORT_OFFSET})")]

    def client_properties(self) -> str:
        return (f"-p hbase.zookeeper.quorum={HOST} "
                f"-p hbase.zookeeper.property.clientPort={self.zk_port}")


def _write_config(server: Server) -> Path:
    conf = server.root / "conf"
    for d in (conf, server.logs, server.root / "data", server.root / "tmp"):
        d.mkdir(parents=True, exist_ok=True)
    template = string.Template((HBASE / "hbase-site.xml.template").read_text())
    (conf / "hbase-site.xml").write_text(template.substitute(
        root_uri=(server.root / "data" / "hbase").as_uri(),
        tmp_dir=server.root / "tmp",
        zk_data_dir=server.root / "data" / "zookeeper",
        zk_port=server.zk_port, master_port=server.master_port,
        regionserver_port=server.regionserver_port,
        master_info_port=server.master_port + hbase_cluster.INFO_PORT_OFFSET,
        regionserver_info_port=server.regionserver_port + hbase_cluster.INFO_PORT_OFFSET))
    shutil.copy(HBASE / hbase_cluster.METRICS_FILE, conf)
    return conf


def _refuse_taken_ports(server: Server) -> None:
    taken = procs.taken_ports(server.ports())
    if taken:
        where = ", ".join(f"{h}:{p} ({what})" for h, p, what in taken)
        raise ScriptError(
            f"cannot start HBase: something else already listens on {where}. Stop it "
            "(scripts/hbase-local stop, or the other program), or choose other ports with "
            "--zk-port, --master-port and --regionserver-port")


def start(server: Server, timeout: float = 180, owner_pid=None, node=None) -> None:
    if server.distributed:
        return _start_cluster(server, timeout, owner_pid, node)
    if server.pid():
        print(f"HBase already running (pid {server.pid()}) in {server.root}: "
              f"{server.client_properties()}")
        return
    _refuse_taken_ports(server)
    classpath = hbase_tool.classpath()
    server.save()
    conf = _write_config(server)
    # a failure report must show this start's log, not the previous one's
    for name in ("hbase.log", "hbase.out", "probe.log"):
        if (server.logs / name).exists():
            (server.logs / name).replace(server.logs / f"{name}.previous")
    # the whole heap from the start, as Cassandra's (-Xms = -Xmx): the two sides of a comparison
    # run with the same heap and GC settings
    cmd = [java.java17(), f"-Xms{server.heap}", f"-Xmx{server.heap}"] + jvm_flags(
        server, "hbase.log") + [
        "-cp", ":".join([str(conf), str(hbase_cluster.webapps(server.root))] + classpath), MAIN,
        "start"]
    out = open(server.logs / "hbase.out", "ab")
    p = subprocess.Popen(cmd, stdout=out, stderr=out, stdin=subprocess.DEVNULL,
                         start_new_session=True, cwd=server.root)
    server.pid_file.write_text(str(p.pid))
    print(f"HBase starting in {server.root} (pid {p.pid}, ZooKeeper {HOST}:{server.zk_port}, "
          f"master {server.master_port}, region server {server.regionserver_port})", flush=True)
    t0 = time.monotonic()
    # the probe JVM is only worth starting once ZooKeeper listens
    while not procs.listening(HOST, server.zk_port):
        if p.poll() is not None:
            _fail(server, f"exited with status {p.returncode}")
        if time.monotonic() - t0 > timeout:
            _fail(server, f"did not open ZooKeeper's port within {timeout:.0f} s", p.pid)
        time.sleep(0.5)
    remaining = max(10.0, timeout - (time.monotonic() - t0))
    result = probe(server, classpath, remaining)
    if p.poll() is not None:
        _fail(server, f"exited with status {p.returncode}")
    if result.returncode != 0:
        _fail(server, "did not answer a client within "
                      f"{timeout:.0f} s ({(result.stdout + result.stderr).strip()[-300:]})", p.pid)
    print(f"HBase ready after {time.monotonic() - t0:.0f} s ({result.stdout.strip()}); "
          f"clients: {server.client_properties()}")
    if owner_pid:
        _start_watcher(server, owner_pid)


def _start_cluster(server: Server, timeout: float, owner_pid, node) -> None:
    layout = server.layout()
    classpath = hbase_tool.classpath()

    def check(servers, seconds):
        return probe(server, classpath, seconds, servers)
    if node:
        hbase_cluster.start_node(layout, node, classpath, check, timeout)
        return
    running = layout.pids()
    if running:
        if len(running) == len(layout.processes()):
            print(f"HBase cluster already running in {server.root}: {running}; clients: "
                  f"{server.client_properties()}")
            return
        raise ScriptError(f"part of the HBase cluster in {server.root} runs ({running}): "
                          "start the missing node with --node N, or stop it first "
                          "(scripts/hbase-local stop)")
    _refuse_taken_ports(server)
    server.save()
    print(f"HBase cluster of {server.nodes} nodes starting in {server.root} (ZooKeeper "
          f"{HOST}:{server.zk_port}, master {server.master_port}, region servers "
          f"{server.regionserver_port}..{server.regionserver_port + server.nodes - 1}, "
          f"HDFS replication {layout.replication})", flush=True)
    hbase_cluster.start(layout, classpath, check, timeout)
    print(f"clients: {server.client_properties()}")
    if owner_pid:
        _start_watcher(server, owner_pid)


def _start_watcher(server: Server, owner_pid: int) -> None:
    procs.start_owner_watch("hbase-local", server.root, owner_pid, server.logs / "watch.out")
    print(f"HBase will be stopped when process {owner_pid} exits")


def watch(server: Server, owner_pid: int) -> None:
    procs.watch_owner(owner_pid, server.pids, lambda pids: procs.stop_watched(
        pids, server.pids(), lambda: stop(server), 60), "HBase")


def _fail(server: Server, what: str, pid=None) -> None:
    procs.fail_start("HBase", server.root, what, server.pid_file,
                     server.logs / "hbase.log", server.logs / "hbase.out", pid)


def stop(server: Server, node=None, kill: bool = False) -> None:
    if server.distributed:
        hbase_cluster.stop(server.layout(), node, kill)
        return
    # SIGTERM runs HBase's shutdown hook, which stops the region server, master and ZooKeeper
    procs.stop_by_pid_file(server.pid_file, "HBase", server.root, 60, kill=kill)


def status(server: Server) -> int:
    if server.distributed:
        return _cluster_status(server)
    pid = server.pid()
    if not pid:
        print(f"HBase in {server.root} DOWN")
        return 3
    result = probe(server, hbase_tool.classpath(), 10)
    if result.returncode == 0:
        print(f"HBase pid={pid} UP, {result.stdout.strip()}; clients: {server.client_properties()}")
        return 0
    print(f"HBase pid={pid} running but not answering clients ({result.stdout.strip()})")
    return 3


_SERVER_REGIONS = re.compile(r"(\d+\.\d+\.\d+\.\d+:\d+)(?:\(([^)]*)\))?")


def region_layout(probe_answer: str) -> dict:
    """{"127.0.0.1:16020": {"t1": 21, "t2": 22}, ...} from the probe's line of live servers."""
    servers = probe_answer.split("live region server(s):", 1)[-1] if \
        "live region server(s):" in probe_answer else ""
    layout = {}
    for address, tables in _SERVER_REGIONS.findall(servers):
        layout[address] = {t: int(n) for t, n in (kv.split("=") for kv in tables.split(",") if kv)}
    return layout


def _cluster_status(server: Server) -> int:
    layout = server.layout()
    running = layout.pids()
    for name in layout.processes():
        print(f"{name:15} pid={running.get(name, '-')} {'running' if name in running else 'DOWN'}")
    if "master" not in running:
        print(f"HBase cluster in {server.root}: master DOWN")
        return 3
    result = probe(server, hbase_tool.classpath(), 10, server.nodes)
    print(f"HBase cluster ({server.nodes} nodes): {result.stdout.strip()}; clients: "
          f"{server.client_properties()}")
    return 0 if result.returncode == 0 and len(running) == len(layout.processes()) else 3


def parser() -> argparse.ArgumentParser:
    p = ArgParser(
        prog="hbase-local",
        description="Start, stop and inspect a real local HBase 2.6 on 127.0.0.1: standalone "
                    "(--nodes 1) or a cluster of N nodes on HDFS (--nodes N).")
    p.add_argument("command", choices=["start", "stop", "status", "compact", "snapshot",
                                       "restore", "balance", "watch"],
                   help="compact: flush and major-compact --table, waiting until done; "
                        "snapshot: a snapshot of every user table (--snapshot); restore: those "
                        "tables back to it; balance: run the balancer until every live region "
                        "server holds a user region (one restarted after a crash holds none); "
                        "watch (internal): stop HBase when --owner-pid exits")
    p.add_argument("--table", default="usertable", help="the table to compact (compact)")
    p.add_argument("--snapshot", default="ycsbpack-saved",
                   help="snapshot, restore: the snapshots' name, <name>-<table> "
                        "(default ycsbpack-saved)")
    p.add_argument("--run-dir", type=Path, default=run_dir("hbase"),
                   help="data, logs, configuration and PID file (default: run/hbase)")
    p.add_argument("--zk-port", type=int, default=2181, help="ZooKeeper client port (default 2181)")
    p.add_argument("--master-port", type=int, default=16000, help="master RPC port (default 16000)")
    p.add_argument("--regionserver-port", type=int, default=16020,
                   help="region server RPC port (default 16020)")
    p.add_argument("--nodes", type=int, default=1,
                   help="1 (default): standalone, one JVM on the local filesystem; N >= 2: "
                        "ZooKeeper, HDFS NameNode, N DataNodes (replication min(3, N)), "
                        "master and N region servers, each its own process (start)")
    p.add_argument("--node", type=int,
                   help="act on node N of a cluster only: its DataNode and region server "
                        "(start, stop)")
    p.add_argument("--kill", action="store_true",
                   help="stop with SIGKILL: a crashed machine (stop; default SIGTERM)")
    p.add_argument("--heap", help="heap of the standalone JVM (default 1G), or of each region "
                                  "server of a cluster (default 512m)")
    p.add_argument("--timeout", type=float, default=180,
                   help="seconds to wait until a client can list namespaces (start)")
    p.add_argument("--owner-pid", type=int,
                   help="stop HBase when this process exits (start; for tests)")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    ports = [args.zk_port, args.master_port, args.regionserver_port]
    if len(set(ports)) != 3 or not all(1024 <= p <= 65535 for p in ports):
        raise ScriptError(f"ports {ports}: give three different ports from 1024 to 65535")
    if args.heap is not None:
        check_heap("--heap", args.heap)
    if args.nodes < 1:
        raise ScriptError(f"--nodes {args.nodes}: give 1 (standalone) or more")
    server = Server.load_or_create(args.run_dir.resolve(), args)
    every_port = [port for _, port, _ in server.ports()]
    if len(set(every_port)) != len(every_port) or max(every_port) > 65535:
        raise ScriptError(f"ports {every_port} of a {server.nodes}-node cluster overlap or pass "
                          "65535: the NameNode uses --master-port + 1 and + 2, region server i "
                          "--regionserver-port + i - 1, the info servers those + 10; choose "
                          "ports further apart")
    if args.node is not None and not (server.distributed and 1 <= args.node <= server.nodes):
        raise ScriptError(f"--node {args.node}: the HBase in {server.root} has "
                          + (f"nodes 1..{server.nodes}" if server.distributed else
                             "one process (standalone); --node is for --nodes N clusters"))
    if args.command == "start":
        start(server, args.timeout, args.owner_pid, args.node)
    elif args.command == "watch":
        if not args.owner_pid:
            raise ScriptError("watch needs --owner-pid")
        watch(server, args.owner_pid)
    elif args.command == "stop":
        stop(server, args.node, args.kill)
    elif args.command == "status":
        return status(server)
    elif args.command == "compact":
        hbase_tool.compact(server, args.table)
    elif args.command == "balance":
        hbase_tool.balance(server)
    elif args.command in ("snapshot", "restore"):
        hbase_tool.snapshot(server, "save" if args.command == "snapshot" else "restore",
                            args.snapshot)
    return 0


if __name__ == "__main__":
    run_main(main)
