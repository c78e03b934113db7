"""Ray for the fleet: the extra `fleet` of pyproject.toml (pinned there), never talking to
anything but the cluster."""

import os
import sys
import tomllib

from ..core import procs
from ..core.errors import ScriptError
from ..core.paths import REPO_ROOT

PYPROJECT = REPO_ROOT / "pyproject.toml"
INSTALL = f".venv/bin/pip install -e '.[fleet]'   (in {REPO_ROOT}; scripts/fleet does it)"
LOADER_RESOURCE = "ycsb_loader"
# No usage reports, no dashboard downloads: a benchmark cluster talks to nothing else.
QUIET_ENV = {
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_DISABLE_DOCKER_CPU_WARNING": "1",
    "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0",
}


LOOPBACK = "127.0.0.1"


def keep_loopback_addresses() -> None:
    """Makes this process's Ray keep a node or cluster address of 127.0.0.1 as it is.

    Ray 2.60 replaces 127.0.0.1 in `ray start --node-ip-address`, `--address` and ray.init's
    address by this host's network address (services.resolve_ip_for_localhost, "make sure
    localhost isn't resolved to the loopback ip"), and its gRPC servers (GCS, raylet, object
    manager, every worker and driver) listen on all interfaces unless the node's address is
    exactly 127.0.0.1; the runtime-env agent binds the node's address. So a fleet-local node
    started with --node-ip-address 127.0.0.1 listened on 0.0.0.0 and on this host's eth0.
    Ray has no setting for it (RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 keeps loopback but refuses
    every node but the head): this wraps that one function; other addresses are resolved as
    Ray does. Ray hands the kept address to every process it starts on the command line."""
    from ray._private import services

    resolve = services.resolve_ip_for_localhost
    if getattr(resolve, "keeps_loopback", False):
        return

    def resolve_keeping_loopback(host: str) -> str:
        return host if host == LOOPBACK else resolve(host)

    resolve_keeping_loopback.keeps_loopback = True
    services.resolve_ip_for_localhost = resolve_keeping_loopback


def pinned_version() -> str:
    fleet = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]["fleet"]
    for requirement in fleet:
        if requirement.startswith("ray=="):
            return requirement.split("==", 1)[1].strip()
    raise ScriptError(f"{PYPROJECT} does not pin ray in the extra 'fleet'")


def ensure_ray():
    """Imports Ray, or says how to install it (the fleet's scripts install it themselves)."""
    os.environ.update(QUIET_ENV)
    try:
        import ray  # noqa: F401

        return ray
    except ImportError:
        raise ScriptError(
            f"the client fleet needs Ray {pinned_version()}, which this Python "
            f"({sys.executable}) lacks: install it with {INSTALL}"
        ) from None


def ray_start_command() -> list:
    """`ray start` for a node on this machine: ray_node.py run by the Python that runs us (it
    has Ray and the pack: ensure_ray), keeping a 127.0.0.1 node address on loopback."""
    return [sys.executable, "-m", "ycsbpack.fleet.ray_node", "start"]


def connect(address: str):
    """ray.init on an existing cluster; `auto` reads RAY_ADDRESS as Ray does."""
    ray = ensure_ray()
    if address == "auto" and not os.environ.get("RAY_ADDRESS"):
        raise ScriptError("--ray auto needs RAY_ADDRESS (e.g. 127.0.0.1:6390, or ray://head:10001)")
    if ray.is_initialized():
        return ray
    target = os.environ["RAY_ADDRESS"] if address == "auto" else address
    host, _, port = target.rpartition(":")
    if (
        not target.startswith("ray://")
        and port.isdigit()
        and not procs.listening(host or "127.0.0.1", int(port), timeout=5)
    ):
        # ray.init would retry for minutes
        raise ScriptError(
            f"nothing answers at --ray {address} ({target}): start a cluster (scripts/"
            "fleet-local start, or `ray start --head`) or give the address it printed"
        )
    import logging

    keep_loopback_addresses()  # a cluster on 127.0.0.1 listens there only: reach it there
    try:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
    except Exception as e:  # Ray raises ConnectionError, RuntimeError, ValueError...
        raise ScriptError(
            f"cannot reach the Ray cluster at --ray {address}: "
            f"{str(e).splitlines()[0] if str(e) else type(e).__name__} (start one "
            "with scripts/fleet-local start, or check the address `ray start "
            "--head` printed)"
        )
    return ray
