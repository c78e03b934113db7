"""Who was the bottleneck: client and server CPU per operation, from the runner's metadata.

On one machine, throughput is roughly cores / (client + server CPU per operation): a client
that needs more CPU per operation makes its database look slower. The runner records the CPU
seconds of each client JVM and each local server process per phase (metadata.json "cpu");
here they become microseconds per operation, and a phase whose clients kept more than
CLIENT_BOUND of the machine's cores busy is flagged: it measures the client.
"""

from __future__ import annotations

import math
from datetime import datetime

from .loader import Run

CLIENT_BOUND = 0.8


def _wall_s(meta: dict) -> float:
    try:
        return (
            datetime.fromisoformat(meta["end_time"]) - datetime.fromisoformat(meta["start_time"])
        ).total_seconds()
    except (KeyError, TypeError, ValueError):
        return math.nan


def cpu_figures(run: Run, operations: float) -> dict:
    """``client_cpu_us_per_op, server_cpu_us_per_op, client_core_share, client_bound,
    shared_machine`` (nan/None when the phase has no CPU record)."""
    cpu = run.metadata.get("cpu")
    row = {
        "client_cpu_us_per_op": math.nan,
        "server_cpu_us_per_op": math.nan,
        "client_core_share": math.nan,
        "client_bound": None,
        "shared_machine": None,
    }
    if not isinstance(cpu, dict):
        return row
    # None: clients on other machines (a Ray fleet), whose CPU time this machine cannot read
    measured = cpu.get("client_cpu_s") is not None
    client = sum(v for v in cpu.get("client_cpu_s") or [] if v is not None)
    server = sum((cpu.get("server_cpu_s") or {}).values())
    cores = cpu.get("cores") or math.nan
    wall = _wall_s(run.metadata)
    if operations and operations > 0:
        if measured:
            row["client_cpu_us_per_op"] = client / operations * 1e6
        if cpu.get("server_cpu_s"):
            row["server_cpu_us_per_op"] = server / operations * 1e6
    if measured and wall > 0 and cores == cores:
        row["client_core_share"] = client / (wall * cores)
        row["client_bound"] = bool(row["client_core_share"] > CLIENT_BOUND)
    row["shared_machine"] = bool(cpu.get("shared_machine"))
    return row
