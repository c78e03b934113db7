"""scripts/quickstart: the whole path once, on real local databases, in a few minutes.

Builds what is missing, starts a local Cassandra node (unless one is already running, which it
then leaves running), loads and runs S4 update-heavy at local scale with the cassandra4 binding,
prints YCSB's summary and stops what it started. Raw outputs: results/quickstart/<time>/.
"""
import argparse
import sys
import time
from datetime import datetime
from pathlib import Path

from . import cassandra_local
from .build import ensure_built
from .errors import run_main
from .paths import REPO_ROOT, run_dir
from .phase_runner import Phase, run_phase, summary

WORKLOADS = REPO_ROOT / "workloads"
S4 = [str(WORKLOADS / "s4" / "update-heavy.properties"), str(WORKLOADS / "s4" / "local.properties")]


def cassandra_phases(seconds: int) -> list:
    db = [str(WORKLOADS / "db" / "cassandra.properties")]
    return [
        Phase("quickstart", "s4-update-heavy-load", "cassandra", "cassandra4", "load", S4 + db,
              threads=4, index=0),
        Phase("quickstart", "s4-update-heavy-run", "cassandra", "cassandra4", "run", S4 + db,
              {"maxexecutiontime": str(seconds)}, threads=8, index=1),
    ]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="quickstart", description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=60, help="length of the run phase (default 60)")
    ap.add_argument("--out", type=Path, help="results directory (default results/quickstart/<time>)")
    args = ap.parse_args(argv)
    out = args.out or REPO_ROOT / "results" / "quickstart" / datetime.now().strftime("%Y%m%d-%H%M%S")
    t0 = time.monotonic()
    ensure_built()

    cluster = cassandra_local.Cluster.load_or_create(
        run_dir("cassandra"), argparse.Namespace(nodes=None, first_address="127.0.0.1",
                                                 jmx_port=7199, heap="1G"))
    started_here = not cluster.running()
    phases = cassandra_phases(args.seconds)
    try:
        if started_here:
            print("== starting a local Cassandra node", flush=True)
            cassandra_local.start(cluster)
        for i, phase in enumerate(phases, 1):
            print(f"== phase {i} of {len(phases)}: {phase.database} {phase.name} "
                  f"({phase.command}, {phase.threads} threads)", flush=True)
            phase_dir = run_phase(phase, out)
            print(summary(phase_dir), flush=True)
    finally:
        if started_here:
            print("== stopping the local Cassandra node", flush=True)
            cassandra_local.stop(cluster)
    print(f"== done in {time.monotonic() - t0:.0f} s; raw YCSB output, HdrHistogram logs and "
          f"metadata in {out}")
    return 0


if __name__ == "__main__":
    run_main(main)
