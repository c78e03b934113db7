"""The local databases a scenario run needs, through scripts/cassandra-local, scripts/hbase-local
and scripts/mysql-local.

The runner uses its own run directories (run/scenarios/cassandra, run/scenarios/hbase,
run/scenarios/mysql), so a
server the user started with the scripts' defaults is never touched. A server already running
in the runner's run directory (with enough nodes) is used as it is and left running; a server
the runner starts gets fresh data and is always stopped again (ServerSet.stop_started).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional
from xml.etree import ElementTree

from ..core import cpu_sets, procs
from ..core.errors import ScriptError
from ..core.paths import REPO_ROOT, command
from . import cassandra_local, hbase_cluster, hbase_local, live_state, mysql_local
from .node_signals import PausableNodes


def _cli(script: str, args: List[str], capture: bool = False,
         cpus: Optional[FrozenSet[int]] = None) -> subprocess.CompletedProcess:
    """scripts/<script> args; with `cpus`, it and every process it starts (the server JVMs,
    nodetool) on those CPUs only (cpu_sets.py)."""
    cmd = [str(command(script))] + args
    proc = subprocess.run(cmd, cwd=REPO_ROOT, stdin=subprocess.DEVNULL, text=True,
                          capture_output=capture, preexec_fn=cpu_sets.starter(cpus))
    if proc.returncode != 0 and not capture:
        raise ScriptError(f"`scripts/{script} {' '.join(args)}` failed (exit {proc.returncode}); "
                          "its messages are above")
    return proc


@dataclass
class LocalCassandra(PausableNodes):
    run_dir: Path
    nodes: int
    first_address: str = "127.0.0.1"
    jmx_port: int = 7199
    started_here: bool = False
    cpus: Optional[FrozenSet[int]] = None  # the servers' CPU set (cpu_sets.py), None: any
    keep_data: bool = False  # start on the data in run_dir (saved_state.restore put it there)

    def _opts(self) -> List[str]:
        return ["--run-dir", str(self.run_dir), "--first-address", self.first_address,
                "--jmx-port", str(self.jmx_port)]

    def _cluster(self) -> cassandra_local.Cluster:
        return cassandra_local.Cluster(self.run_dir, self.nodes, self.first_address,
                                       self.jmx_port, "1G")

    def address(self, node: int) -> str:
        return self._cluster().address(node)

    def hosts(self) -> str:
        return self._cluster().hosts()

    def connection(self) -> Dict[str, str]:
        return {"hosts": self.hosts()}

    def start(self) -> None:
        """Uses the cluster of the run directory when it runs with enough nodes; else starts
        `nodes` nodes on fresh data."""
        saved = self.run_dir / "cluster.json"
        if saved.exists():
            c = cassandra_local.Cluster.load_or_create(self.run_dir, None)
            running = c.running()
            if running and len(running) == c.nodes and c.nodes >= self.nodes \
                    and c.first_address == self.first_address and c.jmx_port == self.jmx_port:
                self.nodes = c.nodes
                print(f"using the running {c.nodes}-node Cassandra in {self.run_dir} "
                      f"(left running)", flush=True)
                return
            if running:
                raise ScriptError(
                    f"{self.run_dir} holds a Cassandra on {c.first_address} with nodes {running} "
                    f"of {c.nodes} running; this scenario needs {self.nodes} running node(s) from "
                    f"{self.first_address}: stop it (scripts/cassandra-local stop --run-dir "
                    f"{self.run_dir}) and start again")
        if self.keep_data:
            print(f"starting {self.nodes} local Cassandra node(s) on {self.hosts()} (on the "
                  f"saved data in {self.run_dir})", flush=True)
            self.started_here = True
            _cli("cassandra-local", ["start", "--nodes", str(self.nodes)] + self._opts(),
                 cpus=self.cpus)
            return
        if saved.exists() or any(self.run_dir.glob("node*")):
            for d in self.run_dir.glob("node*"):
                if d.is_dir():
                    shutil.rmtree(d)
            saved.unlink(missing_ok=True)
        print(f"starting {self.nodes} local Cassandra node(s) on {self.hosts()} "
              f"(fresh data in {self.run_dir})", flush=True)
        self.started_here = True
        _cli("cassandra-local", ["start", "--nodes", str(self.nodes)] + self._opts(),
             cpus=self.cpus)

    def stop(self, kill: bool = False) -> None:
        _cli("cassandra-local", ["stop"] + (["--kill"] if kill else []) + self._opts())

    def data_dirs(self) -> List[str]:
        """What a stopped cluster's state is, relative to run_dir (saved_state.py): each node's
        data, commit log, saved caches and hints, and cluster.json; not its logs or config."""
        return ["cluster.json"] + [f"node{i}/{sub}" for i in range(1, self.nodes + 1)
                                   for sub in ("data", "commitlog", "saved_caches", "hints")]

    def pids(self) -> Dict[str, int]:
        """The running nodes' server processes (their CPU time goes into each phase's record)."""
        c = self._cluster()
        return {f"cassandra-node{i}": c.pid(i) for i in c.running()}

    def running_nodes_count(self) -> int:
        return len(self._cluster().running())

    def probe_properties(self) -> Dict[str, str]:
        """What bin/ycsb servers needs beyond the clients' properties: each node's JMX (local
        only, no authentication), in node order."""
        c = self._cluster()
        return {"serverprobe.jmx": ",".join(f"127.0.0.1:{c.jmx(i)}"
                                            for i in range(1, self.nodes + 1))}

    def node_names(self) -> Dict[str, str]:
        """Each node's address -> the name its process has in the phase's records."""
        return {self.address(i): f"cassandra-node{i}" for i in range(1, self.nodes + 1)}

    def stop_node(self, node: int, kill: bool = False) -> None:
        _cli("cassandra-local", ["stop", "--node", str(node)] + (["--kill"] if kill else [])
             + self._opts())

    def start_node(self, node: int) -> None:
        _cli("cassandra-local", ["start", "--node", str(node)] + self._opts(), cpus=self.cpus)

    def node_pids(self, node: int) -> Dict[str, Optional[int]]:
        """Node `node`'s one process (the Cassandra JVM), None when it does not run."""
        return {f"cassandra-node{node}": self._cluster().pid(node)}

    def node_log(self, node: int) -> Path:
        return self._cluster().node_dir(node) / "logs" / "system.log"

    def setting(self, name: str, node: int = 1) -> Optional[str]:
        """A top-level setting of node `node`'s cassandra.yaml; None when the file does not set
        it (Cassandra's default applies) or the node was never started."""
        yaml = self._cluster().node_dir(node) / "conf" / "cassandra.yaml"
        text = yaml.read_text() if yaml.exists() else ""
        m = re.search(rf"^{re.escape(name)}:\s*(\S+)", text, re.M)
        return m.group(1) if m else None

    def nodetool(
        self, node: int, args: List[str], capture: bool = False
    ) -> subprocess.CompletedProcess:
        return _cli("cassandra-local", ["nodetool", "--node", str(node)] + self._opts()
                    + ["--"] + args, capture=capture, cpus=self.cpus)

    def save_live(self, dest: Path, name: str) -> List[Path]:
        """The running nodes' user tables saved to `dest` (live_state.py)."""
        return live_state.cassandra_save(self, dest, name)

    def restore_live(self, src: Path, name: str) -> List[Path]:
        """The tables saved in `src` put back under the running nodes (live_state.py)."""
        return live_state.cassandra_restore(self, src, name)

    def wait_all_up(self, timeout: float = 120) -> None:
        """Until every node sees every node Up/Normal (`nodetool status`): a restarted node must
        be known alive to each coordinator before CL ALL writes can succeed again."""
        want = {self.address(i) for i in range(1, self.nodes + 1)}
        t0 = time.monotonic()
        pending = list(range(1, self.nodes + 1))
        while pending:
            node = pending[0]
            out = self.nodetool(node, ["status"], capture=True).stdout
            up = set(re.findall(r"^UN\s+(\S+)", out, re.M))
            if want <= up:
                pending.pop(0)
                continue
            if time.monotonic() - t0 > timeout:
                raise ScriptError(f"node{node} still does not see all of {sorted(want)} Up/Normal "
                                  f"after {timeout:.0f} s:\n{out}")
            time.sleep(2)
        print(f"every node sees {self.nodes} nodes Up/Normal after "
              f"{time.monotonic() - t0:.0f} s", flush=True)


@dataclass
class LocalHBase(PausableNodes):
    """The runner's HBase: standalone (nodes=1) or a cluster of `nodes` region servers and
    DataNodes (scripts/hbase-local start --nodes N)."""
    run_dir: Path
    zk_port: int = 2181
    master_port: int = 16000
    regionserver_port: int = 16020
    nodes: int = 1
    started_here: bool = False
    cpus: Optional[FrozenSet[int]] = None  # the servers' CPU set (cpu_sets.py), None: any
    keep_data: bool = False  # start on the data in run_dir (saved_state.restore put it there)

    def _opts(self) -> List[str]:
        return ["--run-dir", str(self.run_dir), "--zk-port", str(self.zk_port),
                "--master-port", str(self.master_port),
                "--regionserver-port", str(self.regionserver_port)]

    def connection(self) -> Dict[str, str]:
        return {"hbase.zookeeper.quorum": hbase_local.HOST,
                "hbase.zookeeper.property.clientPort": str(self.zk_port)}

    def _saved_nodes(self) -> int:
        saved = self.run_dir / "hbase.json"
        return json.loads(saved.read_text()).get("nodes", 1) if saved.exists() else self.nodes

    def pids(self) -> Dict[str, int]:
        """{process name: pid} of the running server processes (for CPU time per process):
        standalone {"hbase": pid}; a cluster zookeeper, namenode, datanode-<i>, master,
        regionserver-<i>."""
        return hbase_local.Server(self.run_dir, self.zk_port, self.master_port,
                                  self.regionserver_port, None, self._saved_nodes()).pids()

    def running(self) -> bool:
        return bool(self.pids())

    def node_names(self) -> Dict[str, str]:
        """bin/ycsb servers' names of the region servers and the master (host:RPC port) -> the
        names their processes have in the phase's records."""
        host, n = hbase_local.HOST, self._saved_nodes()
        if n == 1:  # standalone: one JVM
            return {f"{host}:{port}": "hbase" for port in (self.regionserver_port,
                                                           self.master_port)}
        names = {f"{host}:{self.regionserver_port + i - 1}": f"regionserver-{i}"
                 for i in range(1, n + 1)}
        return names | {f"{host}:{self.master_port}": "master"}

    def start(self) -> None:
        if self.running():
            have = self._saved_nodes()
            if have < self.nodes:
                raise ScriptError(
                    f"{self.run_dir} holds a running HBase with {have} node(s); this scenario "
                    f"needs {self.nodes}: stop it (scripts/hbase-local stop --run-dir "
                    f"{self.run_dir}) and start again")
            self.nodes = have
            print(f"using the running {have}-node HBase in {self.run_dir} (left running)",
                  flush=True)
            return
        for sub in ("tmp",) if self.keep_data else ("data", "tmp"):
            if (self.run_dir / sub).is_dir():
                shutil.rmtree(self.run_dir / sub)
        what = "standalone" if self.nodes == 1 else f"{self.nodes}-node cluster"
        data = "the saved data" if self.keep_data else "fresh data"
        print(f"starting a local HBase {what} (ZooKeeper 127.0.0.1:{self.zk_port}, {data} "
              f"in {self.run_dir})", flush=True)
        self.started_here = True
        # --owner-pid: HBase also stops if this runner is killed without a chance to clean up
        _cli("hbase-local", ["start", "--nodes", str(self.nodes), "--owner-pid",
                             str(os.getpid())] + self._opts(), cpus=self.cpus)

    def stop(self, kill: bool = False) -> None:
        _cli("hbase-local", ["stop"] + (["--kill"] if kill else []) + self._opts())

    def data_dirs(self) -> List[str]:
        """What a stopped HBase's state is, relative to run_dir (saved_state.py): its root
        directory and ZooKeeper's data (standalone), and hbase.json; not its logs or config."""
        if self.nodes != 1:
            raise ScriptError("saved data is for a standalone HBase (its data/ directory); an "
                              "N-node HBase on HDFS loads in every trial")
        return ["hbase.json", "data"]

    # node failures (S2's fault phase): node i is region server i and DataNode i
    def running_nodes_count(self) -> int:
        pids = self.pids()
        return sum(1 for i in range(1, self.nodes + 1)
                   if f"regionserver-{i}" in pids and f"datanode-{i}" in pids)

    def stop_node(self, node: int, kill: bool = False) -> None:
        _cli("hbase-local", ["stop", "--node", str(node)] + (["--kill"] if kill else [])
             + self._opts())

    def _layout(self) -> hbase_cluster.Layout:
        return hbase_cluster.Layout(self.run_dir, self._saved_nodes(), self.zk_port,
                                    self.master_port, self.regionserver_port, "")

    def node_pids(self, node: int) -> Dict[str, Optional[int]]:
        """Node `node`'s processes: region server `node` and DataNode `node` (None: not
        running; a standalone server has no nodes)."""
        if self._saved_nodes() == 1:
            return {}
        layout = self._layout()
        return {p: layout.pid(p) for p in (f"regionserver-{node}", f"datanode-{node}")}

    def site_setting(self, name: str, process: str = "regionserver-1") -> Optional[str]:
        """A property of `process`'s hbase-site.xml as the cluster wrote it; None when unset."""
        site = self.run_dir / "conf" / process / "hbase-site.xml"
        if not site.exists():
            return None
        for prop in ElementTree.parse(site).getroot().iter("property"):
            if prop.findtext("name") == name:
                return prop.findtext("value")
        return None

    def process_log(self, process: str) -> Path:
        """logs/<process>.log of the cluster (master, regionserver-<i>, ...)."""
        return self._layout().log(process)

    def start_node(self, node: int) -> None:
        """Restarts the node; returns once a client sees every region server live."""
        _cli("hbase-local", ["start", "--node", str(node)] + self._opts(), cpus=self.cpus)

    def wait_all_up(self, timeout: float = 120) -> None:
        """start_node already waits until every region server is live again."""

    def compact(self, table: str) -> None:
        """Flush and major-compact `table`, waiting until done (scripts/hbase-local compact)."""
        _cli("hbase-local", ["compact", "--table", table] + self._opts(), cpus=self.cpus)

    def balance(self) -> None:
        """Every live region server holding a user region again (scripts/hbase-local balance)."""
        _cli("hbase-local", ["balance"] + self._opts(), cpus=self.cpus)

    def save_live(self, dest: Path, name: str) -> List[Path]:
        """A snapshot `name`-<table> of every user table (live_state.py); returns its
        manifests (what the snapshot holds lives in HBase's root directory, not in `dest`)."""
        _cli("hbase-local", ["snapshot", "--snapshot", name] + self._opts(), cpus=self.cpus)
        return self._manifests(name)

    def restore_live(self, src: Path, name: str) -> List[Path]:
        """Every table of the snapshots `name`-<table> restored to it (live_state.py)."""
        _cli("hbase-local", ["restore", "--snapshot", name] + self._opts(), cpus=self.cpus)
        return self._manifests(name)

    def _manifests(self, name: str) -> List[Path]:
        found = sorted(self.run_dir.glob(f"data/hbase/.hbase-snapshot/{name}-*/data.manifest"))
        if not found and self.nodes == 1:
            raise ScriptError(f"no snapshot {name}-<table> in {self.run_dir}/data/hbase")
        return found

    def region_layout(self) -> Dict[str, Dict[str, int]]:
        """{region server address: {table: regions}} of the live region servers."""
        proc = _cli("hbase-local", ["status"] + self._opts(), capture=True)
        return hbase_local.region_layout(proc.stdout)


@dataclass
class LocalMySQL:
    """A MariaDB of scripts/mysql-local (the relational side of S1)."""
    run_dir: Path
    port: int = mysql_local.DEFAULT_PORT
    started_here: bool = False

    def _opts(self) -> List[str]:
        return ["--run-dir", str(self.run_dir), "--port", str(self.port)]

    def connection(self) -> Dict[str, str]:
        return {"db.url": f"jdbc:mariadb://{mysql_local.HOST}:{self.port}/{mysql_local.DATABASE}",
                "db.user": mysql_local.USER}

    def running(self) -> bool:
        return procs.alive(procs.read_pid(self.run_dir / "mysql.pid"))

    def start(self) -> None:
        if self.running():
            print(f"using the running MariaDB in {self.run_dir} (left running)", flush=True)
            return
        for sub in ("data", "tmp"):
            if (self.run_dir / sub).is_dir():
                shutil.rmtree(self.run_dir / sub)
        print(f"starting a local MariaDB ({mysql_local.HOST}:{self.port}, fresh data in "
              f"{self.run_dir})", flush=True)
        self.started_here = True
        _cli("mysql-local", ["start", "--owner-pid", str(os.getpid())] + self._opts())

    def stop(self) -> None:
        _cli("mysql-local", ["stop"] + self._opts())

    def pids(self) -> Dict[str, int]:
        """The MariaDB server process, for the runner's CPU accounting."""
        pid = procs.read_pid(self.run_dir / "mysql.pid")
        return {"mariadb": pid} if procs.alive(pid) else {}


@dataclass
class ServerSet:
    """The servers of one run; stop_started() stops exactly those this run started."""
    started: List[object] = field(default_factory=list)

    def start(self, server) -> None:
        try:
            server.start()
        finally:
            # also when interrupted half-way: whatever it began to start is stopped again
            if server.started_here:
                self.started.append(server)

    def stop_started(self, discard: bool = False) -> None:
        """Stops the servers this run started; `discard`: their data is a trial's copy that
        nobody reads again (saved_data.py), so they are killed, not shut down cleanly (a clean
        Cassandra shutdown flushes for about 5 s)."""
        while self.started:
            server = self.started.pop()
            try:
                print(f"stopping the {type(server).__name__[5:]} this run started"
                      + (" (SIGKILL: its data was a trial's copy)" if discard else ""), flush=True)
                server.stop(kill=True) if discard else server.stop()
            except BaseException as e:  # keep stopping the others
                print(f"ERROR stopping {server.run_dir}: {e}", file=sys.stderr, flush=True)
