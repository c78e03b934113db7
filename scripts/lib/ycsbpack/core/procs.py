"""Server processes of the local databases: PID files, ports, waiting, stopping, log tails.

What the kernel knows of a process (alive or a zombie, its children, its sockets, whether a
PID still names the same process) is asked of psutil, not read from /proc by hand.
"""
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import psutil


def read_pid(pid_file: Path):
    try:
        return int(pid_file.read_text().strip())
    except (OSError, ValueError):
        return None


def alive(pid) -> bool:
    """True when process pid runs (a zombie, ended but not yet reaped, counts as dead)."""
    if not pid:
        return False
    try:
        return _running(psutil.Process(pid))
    except psutil.NoSuchProcess:
        return False


def _running(process: psutil.Process) -> bool:
    """True when `process` still runs: not ended, not a zombie, and its PID not reused by
    another process since (psutil compares the start times)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
    except psutil.AccessDenied:
        return True  # another user's process: it exists


def listening(host: str, port: int, timeout: float = 0.5) -> bool:
    """True when something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def taken_ports(ports) -> list:
    """The (host, port, what) entries on which something already listens."""
    return [(h, p, what) for h, p, what in ports if listening(h, p)]


def stop(pid: int, grace_seconds: float, kill: bool = False) -> str:
    """SIGTERM (or SIGKILL when kill), then SIGKILL after the grace period. Returns how it ended."""
    if not alive(pid):
        return "not running"
    os.kill(pid, signal.SIGKILL if kill else signal.SIGTERM)
    deadline = time.monotonic() + grace_seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return "killed" if kill else "stopped"
        time.sleep(0.2)
    os.kill(pid, signal.SIGKILL)
    for _ in range(50):
        if not alive(pid):
            break
        time.sleep(0.1)
    return f"killed after {grace_seconds:.0f} s without stopping"


def stop_all(pids: dict, grace_seconds: float, kill: bool = False) -> dict:
    """Like stop() for several processes at once ({name: pid}): every signal is sent first, so
    they go down together. Returns {name: how it ended}."""
    ended = {}
    for name, pid in pids.items():
        if alive(pid):
            os.kill(pid, signal.SIGKILL if kill else signal.SIGTERM)
        else:
            ended[name] = "not running"
    deadline = time.monotonic() + grace_seconds
    while time.monotonic() < deadline and any(alive(p) for n, p in pids.items() if n not in ended):
        time.sleep(0.2)
    for name, pid in pids.items():
        if name in ended:
            continue
        if alive(pid):
            stop(pid, 5, kill=True)
            ended[name] = f"killed after {grace_seconds:.0f} s without stopping"
        else:
            ended[name] = "killed" if kill else "stopped"
    return ended


def tail(path: Path, lines: int = 40) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 64 * 1024))
            return "\n".join(f.read().decode("utf-8", "replace").splitlines()[-lines:])
    except OSError:
        return f"({path} does not exist)"


def without_memlock(cmd: list) -> list:
    """As root, Cassandra's mlockall pins the whole heap; dropping CAP_IPC_LOCK avoids it."""
    if os.geteuid() == 0 and os.path.exists("/usr/bin/setpriv"):
        return ["/usr/bin/setpriv", "--inh-caps=-ipc_lock", "--bounding-set=-ipc_lock"] + cmd
    return cmd


# -- what mysql-local and hbase-local share: stopping by PID file, failing a start, owner watch


def stop_by_pid_file(pid_file: Path, name: str, root: Path, grace_seconds: float,
                     kill: bool = False) -> None:
    """Stops the server whose PID pid_file holds (SIGTERM, SIGKILL after the grace period)
    and removes the file; says how it ended."""
    pid = read_pid(pid_file)
    if pid and alive(pid):
        print(f"{name} (pid {pid}) {stop(pid, grace_seconds, kill=kill)}")
    else:
        print(f"{name} in {root} not running")
    pid_file.unlink(missing_ok=True)


def fail_start(name: str, root: Path, what: str, pid_file: Path, log: Path, out: Path,
               pid=None) -> None:
    """A start that went wrong: stops the half-started server (when pid), removes its PID file
    and raises one sentence with the last lines of its log and of its console output."""
    from .errors import ScriptError

    if pid:
        stop(pid, 30)
        what += " (stopped)"
    pid_file.unlink(missing_ok=True)
    raise ScriptError(
        f"{name} in {root} {what}.\n"
        f"--- last lines of {log} ---\n{tail(log)}\n"
        f"--- last lines of {out} ---\n{tail(out, 20)}")


def start_owner_watch(script: str, root: Path, owner_pid: int, log: Path) -> None:
    """A detached `scripts/<script> watch --run-dir root --owner-pid P`: it stops the server in
    root once process P is gone, also when P could not stop it (a test JVM killed with
    SIGKILL)."""
    from .paths import command

    with open(log, "ab") as out:
        subprocess.Popen([str(command(script)), "watch",
                          "--run-dir", str(root), "--owner-pid", str(owner_pid)],
                         stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                         start_new_session=True)


def watch_owner(owner_pid: int, server_pids, stop_server, name: str) -> None:
    """What `watch` does: watches the server processes running when it starts (`server_pids()`
    then: {name: pid}) and calls stop_server(those still running) as soon as owner_pid is gone.
    It ends, stopping nothing, once they have all ended: a server started later in the same run
    directory (the next trial's) is not its business, even when the PID file names it."""
    watched = {}  # pid -> its psutil.Process, which tells a reused PID from the watched one
    for pid in server_pids().values():
        try:
            watched[pid] = psutil.Process(pid)
        except psutil.NoSuchProcess:
            pass
    print(f"watching {name} {sorted(watched)} for owner process {owner_pid}", flush=True)

    def ours() -> list:
        return [pid for pid, process in watched.items() if _running(process)]
    while ours():
        if not alive(owner_pid):
            print(f"owner process {owner_pid} is gone: stopping {name} {ours()}", flush=True)
            stop_server(ours())
            return
        time.sleep(1)
    print(f"{name} {sorted(watched)} ended: nothing left to watch", flush=True)


def stop_watched(pids: list, current: dict, stop_server, grace_seconds: float) -> None:
    """The watcher's stop: the server's own stop when the run directory still names exactly
    the watched processes (it also removes the PID files), else SIGTERM to those processes only."""
    if current and set(current.values()) <= set(pids):
        stop_server()
    else:
        stop_all({str(p): p for p in pids}, grace_seconds)


def process_tree(roots) -> set:
    """The PIDs of roots and of every live process descended from them (by parent PID: Ray's
    workers leave their parent's process group, not its tree)."""
    tree = set()
    for pid in roots:
        try:
            root = psutil.Process(pid)
            tree |= {pid} | {p.pid for p in root.children(recursive=True)}
        except psutil.NoSuchProcess:
            continue
    return tree


def _address(addr) -> str:
    """psutil's (ip, port) -> '127.0.0.1:6666', '[::1]:80'; '' for none (a socket not
    connected)."""
    if not addr:
        return ""
    return f"[{addr.ip}]:{addr.port}" if ":" in addr.ip else f"{addr.ip}:{addr.port}"


def inet_sockets(pids) -> list:
    """Every TCP and UDP socket the processes hold open, IPv4 and IPv6: dicts of pid, name
    (the process's name), proto ('tcp', 'tcp6', 'udp', 'udp6'), local, remote ('host:port',
    '[v6]:port'; '' when not connected), listening (TCP LISTEN). The sockets are looked up in
    this process's network namespace."""
    found = []
    for pid in sorted(pids):
        try:
            process = psutil.Process(pid)
            name = process.name()
            sockets = process.net_connections(kind="inet")
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue  # ended meanwhile, or another user's
        for s in sockets:
            proto = ("tcp" if s.type == socket.SOCK_STREAM else "udp") + (
                "6" if s.family == socket.AF_INET6 else "")
            found.append({"pid": pid, "name": name, "proto": proto,
                          "local": _address(s.laddr), "remote": _address(s.raddr),
                          "listening": s.status == psutil.CONN_LISTEN})
    return found


def on_loopback(address: str) -> bool:
    """'127.0.0.1:6379', '[::1]:80', '[::ffff:127.0.0.1]:80' -> True; '0.0.0.0:…', '[::]:…',
    '192.0.2.2:…' -> False; '' (a socket not bound yet: no address beyond loopback) -> True."""
    import ipaddress

    if not address:
        return True
    host = address.rsplit(":", 1)[0].strip("[]")
    ip = ipaddress.ip_address(host)
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or bool(mapped and mapped.is_loopback)
