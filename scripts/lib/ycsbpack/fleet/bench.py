"""scripts/bench-fleet: the fleet's overhead per phase, fleet vs local clients side by side.

    scripts/bench-fleet [--clients 3] [--operations 20000] [--repeat 3] [--ray ADDRESS]

Runs the same phase (bin/ycsb run basic: YCSB's BasicDB, no database, so only the clients and
their launching count; `--operations` split over the clients) with --clients local processes
and with --clients Ray loader nodes, interleaved (the order alternates each repetition), and
prints every wall time, the medians and their difference: what the fleet adds to a phase
(placement, actors, node checks, clock offsets, file transfer, clean-up). Without --ray it
starts a local 3-node cluster (scripts/fleet-local, port 6493) and stops it at the end.
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from ..core.errors import run_main
from ..core.paths import REPO_ROOT
from ..phases.phase_runner import Phase, run_phase
from .ray_env import ensure_ray

PORT = 6493


def phase(clients: int, operations: int, name: str) -> Phase:
    return Phase(
        "bench-fleet",
        name,
        "basic",
        "basic",
        "run",
        [str(REPO_ROOT / "workloads" / "s4" / "update-heavy.properties")],
        {
            "basicdb.verbose": "false",
            "basicdb.simulatedelay": "0",
            "recordcount": "1000",
            "operationcount": str(operations // clients),
            "maxexecutiontime": "0",
        },
        threads=2,
        clients=clients,
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="bench-fleet", description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, default=3)
    p.add_argument("--operations", type=int, default=20000, help="per phase, all clients together")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--ray", help="an existing cluster (default: a local one started here)")
    args = p.parse_args(argv)
    ensure_ray()
    from .local import LocalFleet
    from .ray_clients import RayClients

    fleet = None
    try:
        address = args.ray
        if not address:
            fleet = LocalFleet(Path(tempfile.mkdtemp(prefix="bench-fleet-")))
            t0 = time.monotonic()
            address = fleet.start(args.clients, PORT, REPO_ROOT, 120.0)
            print(
                f"local Ray cluster of {args.clients} nodes started in "
                f"{time.monotonic() - t0:.1f} s (once per run, not per phase)"
            )
        t0 = time.monotonic()
        ray_clients = RayClients(address)
        print(f"coordinator connected in {time.monotonic() - t0:.1f} s (once per run)")
        out = Path(tempfile.mkdtemp(prefix="bench-fleet-out-"))
        times = {"local": [], "ray": []}
        for r in range(args.repeat + 1):  # the first round warms both up and is not counted
            order = ["local", "ray"] if r % 2 else ["ray", "local"]
            for how in order:
                ph = phase(args.clients, args.operations, f"{how}-{r}")
                t0 = time.monotonic()
                run_phase(
                    ph, out, echo_status=False, launcher=ray_clients if how == "ray" else None
                )
                took = time.monotonic() - t0
                if r:
                    times[how].append(took)
                print(f"{'warm-up' if not r else f'round {r}'}: {how:5s} {took:6.2f} s", flush=True)
        med = {k: statistics.median(v) for k, v in times.items()}
        print(
            f"\nphase wall time, median of {args.repeat} ({args.clients} clients, "
            f"{args.operations} operations):"
        )
        print(
            f"  local clients : {med['local']:6.2f} s   "
            f"{sorted(round(x, 2) for x in times['local'])}"
        )
        print(
            f"  Ray fleet     : {med['ray']:6.2f} s   {sorted(round(x, 2) for x in times['ray'])}"
        )
        print(
            f"  fleet overhead: {med['ray'] - med['local']:+6.2f} s per phase "
            f"(ratio {med['ray'] / med['local']:.2f})"
        )
    finally:
        if fleet:
            fleet.stop()
    return 0


if __name__ == "__main__":
    run_main(main)
