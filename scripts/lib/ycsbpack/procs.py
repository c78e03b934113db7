"""Server processes of the local databases: PID files, ports, waiting, stopping, log tails."""
import errno
import os
import signal
import socket
import time
from pathlib import Path


def read_pid(pid_file: Path):
    try:
        return int(pid_file.read_text().strip())
    except (OSError, ValueError):
        return None


def alive(pid) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except OSError as e:
        return e.errno == errno.EPERM
    # a zombie child still answers kill(0); treat it as dead
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1][:1] != "Z"
    except OSError:
        return True


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
