"""scripts/fleet-local: a Ray cluster of N loader nodes on loopback, for trying the fleet and tests.

    scripts/fleet-local start --nodes 3      # head + 2 workers on 127.0.0.1; prints --ray's address
    scripts/fleet-local start --pin-cores    # each node on one core of this machine
    scripts/fleet-local status
    scripts/fleet-local stop [--node K] [--kill]
    scripts/fleet-local add --pack-home DIR  # one more loader node running another pack checkout

Each node is one `ray start --block` process in its own session (its raylet, agents and the
workers it spawns are its children), so it is stopped by its PID like the other local servers:
SIGTERM (Ray stops its processes), then SIGKILL of its process group. Nodes share the IP
127.0.0.1; each is its own raylet with its own Ray node id. Every node offers one `ycsb_loader`,
one CPU and an 80 MB object store; no dashboard, no usage statistics. Nodes start one after
the other: two raylets starting at once on one host pick the same socket names.

With --pin-cores each node (and so each client it runs) is bound to one of this machine's
cores, in turn: a one-core loader, as Ray is told, whose client can saturate it whatever else
runs here (the fleet tests' client-bound phase). Without it every node has every core.
"""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from ..core import procs
from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT, run_dir
from .ray_env import LOADER_RESOURCE, QUIET_ENV, ensure_ray, ray_start_command

DEFAULT_PORT = 6390
OBJECT_STORE_BYTES = 80 * 1024 * 1024
STARTED = "Ray runtime started"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalFleet:
    def __init__(self, root: Path):
        self.root = root
        self.state_file = root / "fleet.json"

    def state(self) -> dict:
        try:
            return json.loads(self.state_file.read_text())
        except (OSError, ValueError):
            return {}

    def save(self, state: dict) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.state_file.write_text(json.dumps(state, indent=2) + "\n")

    def running(self, state: dict = None) -> list:
        state = state if state is not None else self.state()
        return [n for n in state.get("nodes", []) if procs.alive(n["pid"])]

    def start(
        self, nodes: int, port: int, pack_home: Path, timeout: float, pin_cores: bool = False
    ) -> str:
        state = self.state()
        up = self.running(state)
        if up and len(up) == len(state["nodes"]) and len(up) >= nodes:
            print(f"a {len(up)}-node local Ray cluster runs in {self.root} (left as it is)")
            return state["address"]
        if up:
            raise ScriptError(
                f"{self.root} holds a local Ray cluster with {len(up)} of "
                f"{len(state['nodes'])} nodes running: stop it first "
                f"(scripts/fleet-local stop --run-dir {self.root})"
            )
        if procs.listening("127.0.0.1", port):
            raise ScriptError(f"port {port} on 127.0.0.1 is taken: choose another with --port")
        # Ray's Unix sockets live under the temp dir: keep its path short (108-byte limit)
        temp = Path(f"/tmp/ycsbpack-ray-{port}")
        shutil.rmtree(temp, ignore_errors=True)
        shutil.rmtree(self.root / "logs", ignore_errors=True)
        state = {
            "address": f"127.0.0.1:{port}",
            "port": port,
            "temp_dir": str(temp),
            "pin_cores": pin_cores,
            "nodes": [],
        }
        t0 = time.monotonic()
        try:
            for i in range(nodes):
                self._start_node(state, pack_home, timeout, head=(i == 0))
        except BaseException:
            self.save(state)
            self.stop()
            raise
        print(
            f"local Ray cluster of {nodes} loader node(s) up in {time.monotonic() - t0:.1f} s; "
            f"pass --ray {state['address']}"
        )
        return state["address"]

    def add(self, pack_home: Path, timeout: float) -> None:
        state = self.state()
        if not self.running(state):
            raise ScriptError(f"no local Ray cluster runs in {self.root}: start one first")
        self._start_node(state, pack_home, timeout, head=False)

    def _start_node(self, state: dict, pack_home: Path, timeout: float, head: bool) -> None:
        name = "head" if head else f"worker{len(state['nodes'])}"
        logs = self.root / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        log = logs / f"{name}.log"
        cmd = ray_start_command() + [
            "--block",
            "--node-ip-address",
            "127.0.0.1",
            "--resources",
            json.dumps({LOADER_RESOURCE: 1}),
            "--num-cpus",
            "1",
            "--object-store-memory",
            str(OBJECT_STORE_BYTES),
            "--disable-usage-stats",
            # several nodes on one host: each its own agent ports
            "--dashboard-agent-listen-port",
            str(_free_port()),
            "--metrics-export-port",
            str(_free_port()),
            "--runtime-env-agent-port",
            str(_free_port()),
        ]
        if head:
            cmd += [
                "--head",
                "--port",
                str(state["port"]),
                "--include-dashboard=false",
                "--temp-dir",
                state["temp_dir"],
            ]
        else:
            cmd += ["--address", state["address"]]
        env = dict(os.environ, **QUIET_ENV, YCSBPACK_HOME=str(pack_home))
        core = None
        if state.get("pin_cores"):
            cores = sorted(os.sched_getaffinity(0))
            core = cores[len(state["nodes"]) % len(cores)]
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                cmd,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                cwd=pack_home,
                # before exec, so that the raylet, its workers and their clients inherit it
                preexec_fn=(lambda: os.sched_setaffinity(0, {core})) if core is not None else None,
            )
        node = {"name": name, "pid": proc.pid, "log": str(log), "pack_home": str(pack_home)}
        if core is not None:
            node["core"] = core
        state["nodes"].append(node)
        self.save(state)
        t0 = time.monotonic()
        while STARTED not in log.read_text(errors="replace"):
            if proc.poll() is not None:
                raise ScriptError(
                    f"Ray node {name} exited during start (status "
                    f"{proc.returncode}); last lines of {log}:\n{procs.tail(log, 25)}"
                )
            if time.monotonic() - t0 > timeout:
                raise ScriptError(
                    f"Ray node {name} did not start within {timeout:.0f} s; last "
                    f"lines of {log}:\n{procs.tail(log, 25)}"
                )
            time.sleep(0.2)
        print(
            f"{name} up (pid {proc.pid}, {time.monotonic() - t0:.1f} s), loader pack {pack_home}",
            flush=True,
        )

    def stop(self, node: int = None, kill: bool = False) -> None:
        state = self.state()
        nodes = state.get("nodes", [])
        if node is not None:
            if not 0 <= node < len(nodes):
                raise ScriptError(
                    f"--node {node}: the cluster in {self.root} has nodes "
                    f"0..{len(nodes) - 1} (0 is the head)"
                )
            targets = [nodes[node]]
        else:
            targets = list(reversed(nodes))  # workers first, the head (GCS) last
        for n in targets:
            print(f"{n['name']}: {stop_node(n['pid'], kill)}", flush=True)

    def status(self) -> int:
        state = self.state()
        if not state.get("nodes"):
            print(f"no local Ray cluster in {self.root}")
            return 3
        up = self.running(state)
        for i, n in enumerate(state["nodes"]):
            print(
                f"node {i} {n['name']}: pid {n['pid']} "
                f"{'running' if n in up else 'not running'} (pack {n['pack_home']}"
                + (f", core {n['core']})" if "core" in n else ")")
            )
        print(f"address {state['address']}")
        return 0 if len(up) == len(state["nodes"]) else 1


def stop_node(pid: int, kill: bool = False) -> str:
    """SIGTERM to `ray start --block` (it stops its raylet and workers), then SIGKILL of its
    whole process group; with kill, SIGKILL at once (a host that dies)."""
    if not procs.alive(pid):
        how = "not running"
    else:
        how = procs.stop(pid, 15.0, kill=kill)
    try:
        os.killpg(pid, signal.SIGKILL)  # whatever of its session is left
    except OSError:
        pass
    return how


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fleet-local", description=__doc__.splitlines()[0])
    p.add_argument("command", choices=["start", "stop", "status", "add"])
    p.add_argument("--nodes", type=int, default=3, help="loader nodes, head included (default 3)")
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"GCS port of the head on 127.0.0.1 (default {DEFAULT_PORT})",
    )
    p.add_argument("--run-dir", type=Path, default=None, help="state and logs (default run/fleet)")
    p.add_argument(
        "--pack-home",
        type=Path,
        default=REPO_ROOT,
        help="pack checkout the new loader nodes run (default this one)",
    )
    p.add_argument(
        "--pin-cores",
        action="store_true",
        help="start: bind each node to one core of this machine, in turn (one-core loaders)",
    )
    p.add_argument("--node", type=int, help="stop: only node K (0 = head)")
    p.add_argument("--kill", action="store_true", help="stop: SIGKILL at once")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds a node may take to start")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    ensure_ray()
    fleet = LocalFleet((args.run_dir or run_dir("fleet")).resolve())
    if args.command == "start":
        if args.nodes < 1:
            raise ScriptError(f"--nodes {args.nodes}: give 1 or more")
        address = fleet.start(
            args.nodes, args.port, args.pack_home.resolve(), args.timeout, args.pin_cores
        )
        print(address)
    elif args.command == "add":
        fleet.add(args.pack_home.resolve(), args.timeout)
    elif args.command == "stop":
        fleet.stop(args.node, args.kill)
    else:
        return fleet.status()
    return 0


if __name__ == "__main__":
    run_main(main)
