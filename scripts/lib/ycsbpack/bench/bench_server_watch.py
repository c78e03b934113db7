"""scripts/bench-server-watch: what sampling the servers costs a measured phase.

On one local server (started here, kept for every round, stopped at the end), S4's load and
update-heavy phase at local scale run in rounds of two, one with the servers sampled (the
default: runner/server_watch.py) and one with --no-server-watch, the order alternating
(A,B then B,A: a drift of the shared machine falls on both). Per round: the steady-window
throughput of each (the analysis package's summary, as ycsb-report computes it) and their
ratio; then the median ratio over the rounds, and what the samplers themselves used in CPU (the
probe's JVM and the /proc sampler, metadata.json "servers" "sampling") as a share of the
machine's CPU time during the phase: the cost measured directly, free of the machine's noise.

The target (issue 34): less than 2% of the phase's throughput. Runs in .venv's Python.
"""
import argparse
import json
import statistics
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT
from ..runner.run_scenario import timestamp

PHASE = "update-heavy-threads-8"
SERVERS = {"cassandra": ("cassandra-local", ["--first-address", "127.0.0.71", "--jmx-port",
                                             "7271"], ["--cassandra-address", "127.0.0.71",
                                                       "--cassandra-jmx-port", "7271"]),
           "hbase": ("hbase-local", ["--zk-port", "28181", "--master-port", "28000",
                                     "--regionserver-port", "28020"],
                     ["--hbase-ports", "28181,28000,28020"])}


def _script(name: str, *args) -> list:
    return [sys.executable, str(REPO_ROOT / "scripts" / name), *map(str, args)]


def _round_run(db: str, out: Path, run_dir: Path, watch: bool, seconds: int) -> Path:
    _, _, scenario_opts = SERVERS[db]
    cmd = _script("run-scenario", "S4", "--db", db, "--only", "update-heavy", "--no-build",
                  "--out", out, "--run-dir", run_dir, *scenario_opts,
                  "-p", f"maxexecutiontime={seconds}", *([] if watch else ["--no-server-watch"]))
    with open(out.with_suffix(".log"), "w") as f:
        if subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode != 0:
            raise ScriptError(f"{out.name} failed: see {out.with_suffix('.log')}")
    return out / f"{db}-{PHASE}"


def _figures(phase_dir: Path) -> dict:
    from ycsb_analysis.loader import load_phase_dir
    from ycsb_analysis.summary import run_summary
    row = run_summary(load_phase_dir(phase_dir))
    meta = json.loads((phase_dir / "metadata.json").read_text())
    span = (datetime.fromisoformat(meta["end_time"])
            - datetime.fromisoformat(meta["start_time"])).total_seconds()
    used = sum((meta["servers"].get("sampling") or {}).get("cpu_s", {}).values())
    return {"throughput": row["throughput_ops_per_s"], "steady": row.get("steady", True),
            "cost_share": used / (span * meta["cpu"]["cores"]) if span > 0 else float("nan"),
            "cost_cpu_s": used}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="bench-server-watch", description=__doc__.splitlines()[0])
    p.add_argument("--db", choices=sorted(SERVERS), default="cassandra")
    p.add_argument("--rounds", type=int, default=3, help="rounds of two phases (default 3)")
    p.add_argument("--seconds", type=int, default=30, help="measured seconds per phase")
    p.add_argument("--out", type=Path, default=None, help="results (default results/bench-"
                   "server-watch/<timestamp>)")
    args = p.parse_args(argv)
    out = (args.out or REPO_ROOT / "results" / "bench-server-watch" / timestamp()).resolve()
    out.mkdir(parents=True, exist_ok=True)
    script, server_opts, _ = SERVERS[args.db]
    run_dir = out / "servers"
    start = [*server_opts, "--run-dir", run_dir]
    subprocess.run(_script(script, "start", *start), check=True, stdout=subprocess.DEVNULL)
    rows = []
    try:
        for r in range(1, args.rounds + 1):
            order = [True, False] if r % 2 else [False, True]
            got = {}
            for watch in order:
                name = f"round-{r}-{'watched' if watch else 'unwatched'}"
                got[watch] = _figures(_round_run(args.db, out / name, run_dir, watch,
                                                 args.seconds))
            ratio = got[True]["throughput"] / got[False]["throughput"]
            rows.append((r, got[True], got[False], ratio))
            print(f"round {r}: watched {got[True]['throughput']:,.0f} ops/s, unwatched "
                  f"{got[False]['throughput']:,.0f} ops/s, ratio {ratio:.3f}; sampling used "
                  f"{got[True]['cost_cpu_s']:.2f} CPU-s ({got[True]['cost_share']:.2%} of the "
                  "machine's CPU time during the phase)", flush=True)
    finally:
        subprocess.run(_script(script, "stop", *start), stdout=subprocess.DEVNULL)
    ratios = [x[3] for x in rows]
    shares = [x[1]["cost_share"] for x in rows]
    print(f"{args.db}, S4 {PHASE} at local scale, {args.seconds} s measured, {len(rows)} "
          "rounds (order alternating): throughput watched/unwatched median "
          f"{statistics.median(ratios):.3f}"
          f" (range {min(ratios):.3f}-{max(ratios):.3f}); sampling's own CPU median "
          f"{statistics.median(shares):.2%} of the machine's (range {min(shares):.2%}-"
          f"{max(shares):.2%}); results in {out}")
    return 0


if __name__ == "__main__":
    run_main(main)
