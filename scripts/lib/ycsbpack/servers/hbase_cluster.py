"""scripts/hbase-local start --nodes N (N >= 2): a real multi-process HBase on loopback.

Every part is its own JVM that can be stopped (or killed) like a machine of a real cluster:
    zookeeper        QuorumPeerMain, standalone, 127.0.0.1:<zk port>
    namenode         HDFS NameNode, RPC 127.0.0.1:<master port + 1>, HTTP <master port + 2>
    datanode-<i>     HDFS DataNode i (i = 1..N), free loopback ports, dfs.replication = min(3, N)
    master           HMaster, 127.0.0.1:<master port>, info server <master port + 10>
    regionserver-<i> HRegionServer i, 127.0.0.1:<region server port + i - 1>, info server
                     <region server port + 10 + i - 1>
"Node i" is datanode-i plus regionserver-i: what one machine of the report's cluster runs.
All from the same Maven Central classpath as the standalone server (hbase-server brings
hadoop-hdfs 3.4.2 with the NameNode and DataNode). Each process has its own configuration
directory (conf/<process>/, written from local-servers/hbase/cluster/*.template), log
(logs/<process>.log, JVM output logs/<process>.out) and PID file (pids/<process>.pid).
"""
import json
import shutil
import string
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Dict, List

from ..core import java, procs
from ..core.errors import ScriptError
from ..core.paths import LOCAL_SERVERS

CLUSTER = LOCAL_SERVERS / "hbase" / "cluster"
HOST = "127.0.0.1"
MAINS = {"zookeeper": "org.apache.zookeeper.server.quorum.QuorumPeerMain",
         "namenode": "org.apache.hadoop.hdfs.server.namenode.NameNode",
         "datanode": "org.apache.hadoop.hdfs.server.datanode.DataNode",
         "master": "org.apache.hadoop.hbase.master.HMaster",
         "regionserver": "org.apache.hadoop.hbase.regionserver.HRegionServer"}
# Heaps for 2 + 2N JVMs on a small machine; the region servers' heap is --heap (default 512m).
HEAPS = {"zookeeper": "64m", "namenode": "192m", "datanode": "128m", "master": "320m"}
DEFAULT_RS_HEAP = "512m"


# info servers (web UI, /jmx, /conf) listen on the RPC port + 10, as HBase's defaults do
# (16000 -> 16010, 16020 -> 16030); bin/ycsb servers reads them
INFO_PORT_OFFSET = 10


def kind(process: str) -> str:
    return process.split("-")[0]


def node_of(process: str) -> int:
    return int(process.split("-")[1]) if "-" in process else 0


class Layout:
    """Names, ports and directories of the processes of one run directory's cluster."""

    def __init__(self, root: Path, nodes: int, zk_port: int, master_port: int,
                 regionserver_port: int, rs_heap: str):
        self.root, self.nodes = root, nodes
        self.zk_port, self.master_port, self.rs_port = zk_port, master_port, regionserver_port
        self.nn_port, self.nn_http_port = master_port + 1, master_port + 2
        self.rs_heap = rs_heap or DEFAULT_RS_HEAP

    @property
    def replication(self) -> int:
        return min(3, self.nodes)

    def processes(self) -> List[str]:
        """Every process, in start order."""
        return (["zookeeper", "namenode"] + [f"datanode-{i}" for i in self.node_range()]
                + ["master"] + [f"regionserver-{i}" for i in self.node_range()])

    def node_range(self):
        return range(1, self.nodes + 1)

    def node_processes(self, i: int) -> List[str]:
        return [f"datanode-{i}", f"regionserver-{i}"]

    def regionserver_port(self, i: int) -> int:
        return self.rs_port + i - 1

    def pid_file(self, process: str) -> Path:
        return self.root / "pids" / f"{process}.pid"

    def pid(self, process: str):
        pid = procs.read_pid(self.pid_file(process))
        return pid if procs.alive(pid) else None

    def pids(self) -> Dict[str, int]:
        """{process: pid} of the processes that run."""
        return {p: self.pid(p) for p in self.processes() if self.pid(p)}

    def ports(self) -> list:
        found = [(HOST, self.zk_port, "ZooKeeper (--zk-port)"),
                 (HOST, self.master_port, "master RPC (--master-port)"),
                 (HOST, self.nn_port, "HDFS NameNode RPC (--master-port + 1)"),
                 (HOST, self.nn_http_port, "HDFS NameNode HTTP (--master-port + 2)")]
        found += [(HOST, self.regionserver_port(i),
                   f"region server {i} RPC (--regionserver-port + {i - 1})")
                  for i in self.node_range()]
        found.append((HOST, self.master_port + INFO_PORT_OFFSET,
                      f"master info server (--master-port + {INFO_PORT_OFFSET})"))
        found += [(HOST, self.regionserver_port(i) + INFO_PORT_OFFSET,
                   f"region server {i} info server (--regionserver-port + "
                   f"{INFO_PORT_OFFSET + i - 1})") for i in self.node_range()]
        return found

    def log(self, process: str) -> Path:
        return self.root / "logs" / f"{process}.log"

    def out(self, process: str) -> Path:
        return self.root / "logs" / f"{process}.out"

    def heap(self, process: str) -> str:
        return self.rs_heap if kind(process) == "regionserver" else HEAPS[kind(process)]


def _render(template: str, target: Path, **values) -> None:
    text = string.Template((CLUSTER / template).read_text()).substitute(**values)
    target.write_text(text)


METRICS_FILE = "hadoop-metrics2-hbase.properties"  # their metrics' period (1 s)


def write_config(layout: Layout, process: str) -> Path:
    """conf/<process>/ with core-site.xml, hdfs-site.xml, hbase-site.xml (and zoo.cfg)."""
    conf = layout.root / "conf" / process
    for d in (conf, layout.root / "logs", layout.root / "pids", layout.root / "tmp"):
        d.mkdir(parents=True, exist_ok=True)
    data = layout.root / "data"
    node = node_of(process)
    values = dict(nn_port=layout.nn_port, nn_http_port=layout.nn_http_port,
                  tmp_dir=layout.root / "tmp", replication=layout.replication,
                  name_dir=data / "namenode", data_dir=data / f"datanode-{node or 1}",
                  zk_port=layout.zk_port, master_port=layout.master_port,
                  regionserver_port=layout.regionserver_port(node or 1),
                  master_info_port=layout.master_port + INFO_PORT_OFFSET,
                  regionserver_info_port=layout.regionserver_port(node or 1) + INFO_PORT_OFFSET,
                  zk_data_dir=data / "zookeeper")
    for name in ("core-site.xml", "hdfs-site.xml", "hbase-site.xml"):
        _render(f"{name}.template", conf / name, **values)
    shutil.copy(CLUSTER.parent / METRICS_FILE, conf)
    if process == "zookeeper":
        _render("zoo.cfg.template", conf / "zoo.cfg", **values)
    return conf


def webapps(root: Path) -> Path:
    """A classpath directory with webapps/hdfs and webapps/datanode, hbase-webapps/master,
    regionserver and static: the NameNode, DataNodes and HBase's info servers refuse to start
    without their web application directory, which the Maven artifacts of hadoop-hdfs and
    hbase-server leave out (the tarballs have them). Empty is enough: their servlets (/jmx,
    /conf) are registered in code."""
    classpath = root / "classpath"
    for app in ("webapps/hdfs", "webapps/datanode", "hbase-webapps/master",
                "hbase-webapps/regionserver", "hbase-webapps/static"):
        (classpath / app).mkdir(parents=True, exist_ok=True)
    return classpath


def jvm_command(layout: Layout, process: str, classpath: List[str], conf: Path,
                log_file: str, extra: List[str] = ()) -> List[str]:
    # serial GC for the small helpers: fewer GC threads competing for 2 cores
    gc = "-XX:+UseG1GC" if kind(process) in ("master", "regionserver") else "-XX:+UseSerialGC"
    cmd = [java.java17(), f"-Xmx{layout.heap(process)}", gc, "-Djava.net.preferIPv4Stack=true",
           "--add-opens", "java.base/java.nio=ALL-UNNAMED",
           "--add-opens", "java.base/java.lang=ALL-UNNAMED",
           "-Dzookeeper.admin.enableServer=false",
           f"-Dhbase.log.dir={layout.root / 'logs'}", f"-Dhbase.log.file={log_file}",
           f"-Dhadoop.log.dir={layout.root / 'logs'}",
           f"-Dlog4j2.configurationFile={(CLUSTER.parent / 'log4j2.properties').as_uri()}",
           "-cp", ":".join([str(conf), str(webapps(layout.root))] + classpath),
           MAINS[kind(process)]]
    if kind(process) == "zookeeper":
        return cmd + [str(conf / "zoo.cfg")]
    if kind(process) in ("master", "regionserver"):
        return cmd + ["start"]
    return cmd + list(extra)


def _launch(layout: Layout, process: str, classpath: List[str]) -> subprocess.Popen:
    conf = write_config(layout, process)
    out = open(layout.out(process), "ab")
    p = subprocess.Popen(jvm_command(layout, process, classpath, conf, f"{process}.log"),
                         stdout=out, stderr=out, stdin=subprocess.DEVNULL,
                         start_new_session=True, cwd=layout.root)
    layout.pid_file(process).write_text(str(p.pid))
    return p


def format_namenode(layout: Layout, classpath: List[str]) -> None:
    """A fresh HDFS: `NameNode -format` once per data directory."""
    if (layout.root / "data" / "namenode" / "current" / "VERSION").exists():
        return
    conf = write_config(layout, "namenode")
    cmd = jvm_command(layout, "namenode", classpath, conf, "namenode-format.log",
                      ["-format", "-nonInteractive", "-force"])
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          cwd=layout.root, timeout=180)
    if proc.returncode != 0:
        raise ScriptError(f"formatting HDFS in {layout.root / 'data' / 'namenode'} failed "
                          f"(exit {proc.returncode}):\n{procs.tail(layout.log('namenode-format'))}"
                          f"\n{(proc.stdout + proc.stderr)[-1500:]}")


def live_datanodes(layout: Layout) -> int:
    """Live DataNodes as the NameNode counts them (its /jmx page), -1 when it does not answer
    or is still in safe mode."""
    base = f"http://{HOST}:{layout.nn_http_port}/jmx?qry=Hadoop:service=NameNode,name="
    try:
        with urllib.request.urlopen(base + "FSNamesystemState", timeout=2) as r:
            state = json.load(r)["beans"][0]
        with urllib.request.urlopen(base + "NameNodeInfo", timeout=2) as r:
            info = json.load(r)["beans"][0]
    except (OSError, ValueError, KeyError, IndexError):
        return -1
    return -1 if info.get("Safemode") else int(state.get("NumLiveDataNodes", 0))


class Starting:
    """The processes one start launched, to check for early exits and to stop on failure."""

    def __init__(self, layout: Layout):
        self.layout = layout
        self.popen: Dict[str, subprocess.Popen] = {}

    def launch(self, names: List[str], classpath: List[str]) -> None:
        for name in names:
            self.popen[name] = _launch(self.layout, name, classpath)
        print(", ".join(f"{n} (pid {self.popen[n].pid})" for n in names) + " starting",
              flush=True)

    def check(self) -> None:
        for name, p in self.popen.items():
            if p.poll() is not None:
                self.fail(f"{name} exited with status {p.returncode}", name)

    def fail(self, what: str, process: str) -> None:
        stopped = stop_processes(self.layout, list(self.popen), kill=True)
        raise ScriptError(
            f"HBase cluster in {self.layout.root}: {what} ({stopped}).\n"
            f"--- last lines of {self.layout.log(process)} ---\n"
            f"{procs.tail(self.layout.log(process))}\n"
            f"--- last lines of {self.layout.out(process)} ---\n"
            f"{procs.tail(self.layout.out(process), 20)}"
        )

    def wait(self, done, what: str, process: str, deadline: float) -> None:
        while not done():
            self.check()
            if time.monotonic() > deadline:
                self.fail(what, process)
            time.sleep(0.5)


def start(layout: Layout, classpath: List[str], probe, timeout: float) -> str:
    """Starts every process; returns the probe's answer (namespaces and live region servers).
    `probe(servers, seconds)` runs the real client check of hbase_local."""
    t0 = time.monotonic()
    deadline = t0 + timeout
    for name in ("zookeeper", "namenode") + tuple(f"datanode-{i}" for i in layout.node_range()) \
            + ("master",) + tuple(f"regionserver-{i}" for i in layout.node_range()):
        for f in (layout.log(name), layout.out(name)):
            if f.exists():
                f.replace(f.with_name(f.name + ".previous"))
    s = Starting(layout)
    try:
        s.launch(["zookeeper"], classpath)
        format_namenode(layout, classpath)
        s.launch(["namenode"] + [f"datanode-{i}" for i in layout.node_range()], classpath)
        # the master writes to HDFS at once: it must find every DataNode registered
        s.wait(lambda: live_datanodes(layout) >= layout.nodes,
               f"HDFS did not report {layout.nodes} live DataNodes within {timeout:.0f} s",
               "namenode", deadline)
        print(f"HDFS ready with {layout.nodes} DataNodes after {time.monotonic() - t0:.0f} s",
              flush=True)
        s.launch(["master"] + [f"regionserver-{i}" for i in layout.node_range()], classpath)
        result = probe(layout.nodes, max(10.0, deadline - time.monotonic()))
        s.check()
        if result.returncode != 0:
            s.fail(f"no client saw {layout.nodes} live region servers within {timeout:.0f} s "
                   f"({(result.stdout + result.stderr).strip()[-300:]})", "master")
    except BaseException:
        # whatever failed (or Ctrl-C), nothing this start launched is left running
        stop_processes(layout, list(s.popen), kill=True)
        raise
    print(f"HBase cluster ready after {time.monotonic() - t0:.0f} s: {result.stdout.strip()}",
          flush=True)
    return result.stdout.strip()


def start_node(layout: Layout, i: int, classpath: List[str], probe, timeout: float) -> None:
    """Starts node i's DataNode and region server again (after stop --node i)."""
    t0 = time.monotonic()
    todo = [p for p in layout.node_processes(i) if not layout.pid(p)]
    if not todo:
        print(f"node {i} already running: {layout.pids()}")
        return
    s = Starting(layout)
    s.launch(todo, classpath)
    result = probe(layout.nodes, max(10.0, timeout))
    s.check()
    if result.returncode != 0:
        s.fail(f"no client saw {layout.nodes} live region servers within {timeout:.0f} s "
               f"after restarting node {i}", f"regionserver-{i}")
    print(f"node {i} back after {time.monotonic() - t0:.0f} s: {result.stdout.strip()}",
          flush=True)


def stop_processes(layout: Layout, names: List[str], kill: bool = False,
                   grace: float = 30) -> str:
    """Signals the processes at once (SIGKILL when kill, else SIGTERM and SIGKILL after
    `grace` s); returns how each ended."""
    pids = {n: procs.read_pid(layout.pid_file(n)) for n in names}
    ended = procs.stop_all({n: p for n, p in pids.items() if procs.alive(p)}, grace, kill)
    for n in names:
        layout.pid_file(n).unlink(missing_ok=True)
    return ", ".join(f"{n} {how}" for n, how in ended.items()) or "nothing was running"


def stop(layout: Layout, node: int = None, kill: bool = False) -> None:
    if node:
        print(f"node {node}: {stop_processes(layout, layout.node_processes(node), kill)}",
              flush=True)
        return
    # HBase first (its region servers flush to HDFS as they close), then HDFS, then ZooKeeper
    hbase = ["master"] + [f"regionserver-{i}" for i in layout.node_range()]
    hdfs = ["namenode"] + [f"datanode-{i}" for i in layout.node_range()]
    for group in (hbase, hdfs, ["zookeeper"]):
        print(stop_processes(layout, group, kill), flush=True)
