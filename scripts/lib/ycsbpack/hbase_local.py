"""scripts/hbase-local: a real Apache HBase 2.6 in standalone mode on loopback, from Maven Central.

Standalone is what HBase's own bin/start-hbase.sh runs: `HMaster start` in one JVM holding an
in-process ZooKeeper, the master and one region server, on the local filesystem. Data, logs,
configuration and the PID file live under one run directory. Facts behind the choices:
shared/docs/local-servers.md.
"""
import argparse
import json
import string
import subprocess
import sys
import time
from pathlib import Path

from . import java, maven, procs
from .arg_checks import check_heap
from .errors import ArgParser, ScriptError, run_main
from .paths import LOCAL_SERVERS, REPO_ROOT, run_dir

HBASE = LOCAL_SERVERS / "hbase"
HOST = "127.0.0.1"
MAIN = "org.apache.hadoop.hbase.master.HMaster"
PROBE = HBASE / "HBaseProbe.java"
WHAT = "HBase 2.6.4-hadoop3 (hbase-server, hbase-zookeeper)"


class Server:
    """The standalone HBase of one run directory, with the ports it was last started on."""

    def __init__(self, root: Path, zk_port: int, master_port: int, regionserver_port: int,
                 heap: str):
        self.root = root
        self.zk_port = zk_port
        self.master_port = master_port
        self.regionserver_port = regionserver_port
        self.heap = heap

    @classmethod
    def load_or_create(cls, root: Path, args) -> "Server":
        """start takes the ports from the command line; stop and status from hbase.json."""
        saved = root / "hbase.json"
        if args.command != "start" and saved.exists():
            s = json.loads(saved.read_text())
            return cls(root, s["zk_port"], s["master_port"], s["regionserver_port"], s["heap"])
        return cls(root, args.zk_port, args.master_port, args.regionserver_port, args.heap)

    def save(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "hbase.json").write_text(json.dumps(
            {"zk_port": self.zk_port, "master_port": self.master_port,
             "regionserver_port": self.regionserver_port, "heap": self.heap}, indent=2))

    @property
    def pid_file(self) -> Path:
        return self.root / "hbase.pid"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    def pid(self):
        pid = procs.read_pid(self.pid_file)
        return pid if procs.alive(pid) else None

    def ports(self) -> list:
        return [(HOST, self.zk_port, "ZooKeeper (--zk-port)"),
                (HOST, self.master_port, "master RPC (--master-port)"),
                (HOST, self.regionserver_port, "region server RPC (--regionserver-port)")]

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
        regionserver_port=server.regionserver_port))
    return conf


def _jvm_flags(server: Server, log_file: str) -> list:
    return ["-XX:+UseG1GC", "-Djava.net.preferIPv4Stack=true",
            # avoids HBase's Unsafe fallback warning on JDK 17
            "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            f"-Dhbase.log.dir={server.logs}", f"-Dhbase.log.file={log_file}",
            f"-Dlog4j2.configurationFile={(HBASE / 'log4j2.properties').as_uri()}"]


def _refuse_taken_ports(server: Server) -> None:
    taken = procs.taken_ports(server.ports())
    if taken:
        where = ", ".join(f"{h}:{p} ({what})" for h, p, what in taken)
        raise ScriptError(
            f"cannot start HBase: something else already listens on {where}. Stop it "
            "(scripts/hbase-local stop, or the other program), or choose other ports with "
            "--zk-port, --master-port and --regionserver-port")


def probe(server: Server, classpath: list, seconds: float) -> subprocess.CompletedProcess:
    """Runs the real client check (HBaseProbe.java: list namespaces) for up to `seconds`."""
    tmp = server.root / "tmp"
    # HBase's own Configuration for server exceptions expands ${hbase.tmp.dir} from this system
    # property; without it the probe would create /tmp/hbase-<user>/local/jars
    cmd = [java.java17(), "-Xmx256m", f"-Dhbase.tmp.dir={tmp}"]
    cmd += _jvm_flags(server, "probe.log") + [
        "-cp", ":".join(classpath), str(PROBE), str(server.zk_port), str(int(seconds)), str(tmp)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 120)


def start(server: Server, timeout: float = 180, owner_pid=None) -> None:
    if server.pid():
        print(f"HBase already running (pid {server.pid()}) in {server.root}: "
              f"{server.client_properties()}")
        return
    _refuse_taken_ports(server)
    classpath = maven.classpath(HBASE / "pom.xml", WHAT)
    server.save()
    conf = _write_config(server)
    # a failure report must show this start's log, not the previous one's
    for name in ("hbase.log", "hbase.out", "probe.log"):
        if (server.logs / name).exists():
            (server.logs / name).replace(server.logs / f"{name}.previous")
    cmd = [java.java17(), f"-Xmx{server.heap}"] + _jvm_flags(server, "hbase.log") + [
        "-cp", ":".join([str(conf)] + classpath), MAIN, "start"]
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


def _start_watcher(server: Server, owner_pid: int) -> None:
    """A detached `hbase-local watch`: stops this HBase when the owner process is gone, even if
    the owner could not stop it itself (a test JVM killed with SIGKILL)."""
    log = open(server.logs / "watch.out", "ab")
    subprocess.Popen([sys.executable, str(REPO_ROOT / "scripts" / "hbase-local"), "watch",
                      "--run-dir", str(server.root), "--owner-pid", str(owner_pid)],
                     stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    print(f"HBase will be stopped when process {owner_pid} exits")


def watch(server: Server, owner_pid: int) -> None:
    while server.pid():
        if not procs.alive(owner_pid):
            print(f"owner process {owner_pid} is gone: stopping HBase", flush=True)
            stop(server)
            return
        time.sleep(2)


def _fail(server: Server, what: str, pid=None) -> None:
    if pid:
        procs.stop(pid, 30)
        what += " (stopped)"
    server.pid_file.unlink(missing_ok=True)
    log, out = server.logs / "hbase.log", server.logs / "hbase.out"
    raise ScriptError(
        f"HBase in {server.root} {what}.\n"
        f"--- last lines of {log} ---\n{procs.tail(log)}\n"
        f"--- last lines of {out} ---\n{procs.tail(out, 20)}")


def stop(server: Server) -> None:
    pid = procs.read_pid(server.pid_file)
    if pid and procs.alive(pid):
        # SIGTERM runs HBase's shutdown hook, which stops the region server, master and ZooKeeper
        print(f"HBase (pid {pid}) {procs.stop(pid, 60)}")
    else:
        print(f"HBase in {server.root} not running")
    server.pid_file.unlink(missing_ok=True)


def status(server: Server) -> int:
    pid = server.pid()
    if not pid:
        print(f"HBase in {server.root} DOWN")
        return 3
    result = probe(server, maven.classpath(HBASE / "pom.xml", WHAT), 10)
    if result.returncode == 0:
        print(f"HBase pid={pid} UP, {result.stdout.strip()}; clients: {server.client_properties()}")
        return 0
    print(f"HBase pid={pid} running but not answering clients ({result.stdout.strip()})")
    return 3


def parser() -> argparse.ArgumentParser:
    p = ArgParser(
        prog="hbase-local",
        description="Start, stop and inspect a real local HBase 2.6 (standalone) on 127.0.0.1.")
    p.add_argument("command", choices=["start", "stop", "status", "watch"],
                   help="watch (internal): stop HBase when --owner-pid exits")
    p.add_argument("--run-dir", type=Path, default=run_dir("hbase"),
                   help="data, logs, configuration and PID file (default: run/hbase)")
    p.add_argument("--zk-port", type=int, default=2181, help="ZooKeeper client port (default 2181)")
    p.add_argument("--master-port", type=int, default=16000, help="master RPC port (default 16000)")
    p.add_argument("--regionserver-port", type=int, default=16020,
                   help="region server RPC port (default 16020)")
    p.add_argument("--heap", default="1G", help="heap of the HBase JVM (default 1G)")
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
    check_heap("--heap", args.heap)
    server = Server.load_or_create(args.run_dir.resolve(), args)
    if args.command == "start":
        start(server, args.timeout, args.owner_pid)
    elif args.command == "watch":
        if not args.owner_pid:
            raise ScriptError("watch needs --owner-pid")
        watch(server, args.owner_pid)
    elif args.command == "stop":
        stop(server)
    elif args.command == "status":
        return status(server)
    return 0


if __name__ == "__main__":
    run_main(main)
