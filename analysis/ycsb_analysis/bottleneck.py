"""Who was the bottleneck: client and server CPU per operation, from the runner's metadata.

On one machine, throughput is roughly cores / (client + server CPU per operation): a client
that needs more CPU per operation makes its database look slower. The runner records the CPU
seconds of each client JVM and each local server process per phase (metadata.json "cpu"), here
made microseconds per operation; a phase whose clients kept more than CLIENT_BOUND of the
machine's cores busy is flagged: it measures the client.

Clients on a Ray fleet have their loaders' cores, not this machine's: their record adds, per
client, its run time, its loader's cores and its Ray node (`client_wall_s`, `client_cores`,
`client_loader`), and the share is taken per loader (its clients' CPU seconds over their run
time × its cores): the busiest decides, as one saturated loader among idle ones still caps the
phase's throughput.
"""

from __future__ import annotations

import math
from datetime import datetime

from .model import Run

CLIENT_BOUND = 0.8


def _wall_s(meta: dict) -> float:
    try:
        end, start = (datetime.fromisoformat(meta[k]) for k in ("end_time", "start_time"))
        return (end - start).total_seconds()
    except (KeyError, TypeError, ValueError):
        return math.nan


def loader_core_shares(cpu: dict) -> dict:
    """{Ray node: share of its cores its clients kept busy} of a fleet phase's "cpu" record
    (clients without a figure, e.g. lost ones, left out); {} for a local phase."""
    cores, walls = cpu.get("client_cores"), cpu.get("client_wall_s")
    if not cores or not walls:
        return {}
    loaders = cpu.get("client_loader") or list(range(len(cores)))
    used: dict = {}  # node: (CPU seconds, longest run time, cores)
    for used_s, wall, n, node in zip(cpu.get("client_cpu_s") or [], walls, cores, loaders):
        if used_s is None or not wall or not n:
            continue
        total, longest, _ = used.get(node, (0.0, 0.0, n))
        used[node] = (total + used_s, max(longest, wall), n)
    return {node: total / (longest * n) for node, (total, longest, n) in used.items()}


def cpu_figures(run: Run, operations: float) -> dict:
    """``client_cpu_us_per_op, server_cpu_us_per_op, client_core_share, client_bound,
    shared_machine`` (nan/None when the phase has no CPU record)."""
    cpu = run.metadata.get("cpu")
    row = {"client_cpu_us_per_op": math.nan, "server_cpu_us_per_op": math.nan,
           "client_core_share": math.nan, "client_bound": None, "shared_machine": None}
    if not isinstance(cpu, dict):
        return row
    # None: fleet results from before the loaders measured their clients' CPU time (or every
    # client lost)
    measured = [v for v in cpu.get("client_cpu_s") or [] if v is not None]
    client = sum(measured)
    cores = cpu.get("cores") or math.nan
    wall = _wall_s(run.metadata)
    if operations and operations > 0:
        if measured:
            row["client_cpu_us_per_op"] = client / operations * 1e6
        if cpu.get("server_cpu_s"):
            row["server_cpu_us_per_op"] = sum(cpu["server_cpu_s"].values()) / operations * 1e6
    loaders = loader_core_shares(cpu)
    if loaders:
        row["client_core_share"] = max(loaders.values())
    elif measured and wall > 0 and cores == cores and "client_cores" not in cpu:
        row["client_core_share"] = client / (wall * cores)
    if row["client_core_share"] == row["client_core_share"]:
        row["client_bound"] = bool(row["client_core_share"] > CLIENT_BOUND)
    row["shared_machine"] = bool(cpu.get("shared_machine"))
    return row
