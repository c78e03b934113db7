"""scripts/bench-server-watch: what sampling the servers costs a measured phase's throughput.

Between runs on a shared 2-core machine throughput differs by 10-20%: two runs cannot show a
cost of 2%. So the comparison is made within one run: one long measured phase (S4 update-heavy
at local scale on a local server started here, the runner's own sampling off), and beside it
this script samples the servers exactly as the runner does (runner/server_watch.py: `bin/ycsb
servers -watch` and /proc) in alternating windows, on then off, then off then on (A,B,B,A: a
drift of the machine falls on both). The probe's JVM starts some seconds before its window (in
a phase its start falls in the warm-up), and those seconds count for neither side.

Per pair of windows: the clients' throughput with and without sampling, from the status lines
(the analysis package's reader) and their ratio; over the pairs the mean ratio with its 95%
t-interval. Also what the probe itself used in CPU during its windows (its own series in
servers.csv), as a share of the machine's CPU. The target (issue 34): less than 2% of the
phase's throughput. Runs in .venv's Python.
"""
import argparse
import json
import math
import statistics
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import numpy as np

from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT
from ..runner import cpu
from ..runner.run_scenario import timestamp
from ..runner.server_watch import PROBE_NODE, ServerWatch
from ..scenarios.scenario_plan import WORKLOADS

PHASE = "update-heavy-threads-8"
STARTUP_S = 12  # the probe's JVM and connection, before its window
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306}
SERVERS = {  # script, its options, run-scenario's options, the probe's connection
    "cassandra": ("cassandra-local", ["--first-address", "127.0.0.71", "--jmx-port", "7271"],
                  ["--cassandra-address", "127.0.0.71", "--cassandra-jmx-port", "7271"],
                  ["-p", "hosts=127.0.0.71", "-p", "serverprobe.jmx=127.0.0.1:7271"]),
    "hbase": ("hbase-local", ["--zk-port", "28181", "--master-port", "28000",
                              "--regionserver-port", "28020"],
              ["--hbase-ports", "28181,28000,28020"],
              ["-p", "hbase.zookeeper.quorum=127.0.0.1",
               "-p", "hbase.zookeeper.property.clientPort=28181"]),
}
BINDING = {"cassandra": "cassandra4", "hbase": "hbase-salted"}


def _script(name: str, *args) -> list:
    return [sys.executable, str(REPO_ROOT / "scripts" / name), *map(str, args)]


def _probe_command(db: str) -> list:
    """A client command line whose connection options the sampling takes (server_watch)."""
    files = [WORKLOADS / "db" / f"{db}.properties", WORKLOADS / "s4" / f"{db}.properties"]
    cmd = [str(REPO_ROOT / "bin" / "ycsb"), "run", BINDING[db]]
    for f in files:
        if f.exists():
            cmd += ["-P", str(f)]
    return cmd + SERVERS[db][3]


def _ops_at(phase_dir: Path, moments: list) -> np.ndarray:
    """The clients' operations done at each moment (naive local time), from the status lines."""
    from ycsb_analysis.loader import load_phase_dir
    total = np.zeros(len(moments))
    x = np.array([m.timestamp() for m in moments])
    for c in load_phase_dir(phase_dir).clients:
        e = c.output.status_entries
        t = np.array([ts.to_pydatetime().timestamp() for ts in e["time"]])
        total += np.interp(x, t, e["operations"].to_numpy(dtype=float))
    return total


def _probe_cpu_share(window_dir: Path, start: datetime, end: datetime) -> float:
    """The probe's CPU in its window (servers.csv) over the machine's CPU time in it."""
    rows = [r.split(",") for r in (window_dir / "servers.csv").read_text().splitlines()[1:]]
    pts = [(int(t) / 1000, float(v)) for t, node, metric, v in rows
           if node == PROBE_NODE and metric == "cpu_ms_total"
           and start.timestamp() <= int(t) / 1000 <= end.timestamp()]
    if len(pts) < 2:
        return math.nan
    return (pts[-1][1] - pts[0][1]) / 1000 / ((pts[-1][0] - pts[0][0]) * cpu.cores())


def _windows(db: str, out: Path, rounds: int, window_s: int) -> list:
    """Alternating windows beside the running phase: [(on, start, end, window dir), ...]."""
    done = []
    for r in range(1, rounds + 1):
        for on in ([True, False] if r % 2 else [False, True]):
            d = out / f"window-{r}-{'on' if on else 'off'}"
            d.mkdir()
            watch = ServerWatch(d, _probe_command(db), {}).start() if on else None
            if on:
                time.sleep(STARTUP_S)
            start = datetime.now()
            time.sleep(window_s)
            end = datetime.now()
            if watch:
                (d / "servers.json").write_text(json.dumps(watch.stop(), indent=1))
            done.append((on, start, end, d))
    return done


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="bench-server-watch", description=__doc__.splitlines()[0])
    p.add_argument("--db", choices=sorted(SERVERS), default="cassandra")
    p.add_argument("--rounds", type=int, default=6, help="pairs of windows (default 6)")
    p.add_argument("--window", type=int, default=20, help="seconds per window (default 20)")
    p.add_argument("--out", type=Path, default=None,
                   help="results (default results/bench-server-watch/<timestamp>)")
    args = p.parse_args(argv)
    if not 2 <= args.rounds <= max(T95):
        raise ScriptError(f"--rounds {args.rounds}: give 2 to {max(T95)}")
    out = (args.out or REPO_ROOT / "results" / "bench-server-watch" / timestamp()).resolve()
    out.mkdir(parents=True, exist_ok=True)
    script, server_opts, scenario_opts, _ = SERVERS[args.db]
    run_dir = out / "servers"
    start = [*server_opts, "--run-dir", run_dir / args.db]  # where run-scenario looks
    warmup_max = 60
    measured = args.rounds * (2 * args.window + STARTUP_S) + warmup_max + 30
    subprocess.run(_script(script, "start", *start), check=True, stdout=subprocess.DEVNULL)
    phase = None
    try:
        log = open(out / "run.log", "w")
        phase = subprocess.Popen(_script(
            "run-scenario", "S4", "--db", args.db, "--only", "update-heavy", "--no-build",
            "--no-server-watch", "--out", out / "run", "--run-dir", run_dir, *scenario_opts,
            "-p", f"maxexecutiontime={measured}", "-p", f"warmup.maxtime={warmup_max}"),
            stdout=log, stderr=subprocess.STDOUT)
        phase_dir = out / "run" / f"{args.db}-{PHASE}"
        while not (phase_dir / "client-0.err").exists():  # the load and its settling first
            if phase.poll() is not None:
                raise ScriptError(f"the phase ended early: see {out / 'run.log'}")
            time.sleep(1)
        time.sleep(warmup_max + 15)  # past the longest warm-up: the measured part
        windows = _windows(args.db, out, args.rounds, args.window)
        if phase.wait() != 0:
            raise ScriptError(f"the phase failed: see {out / 'run.log'}")
    finally:
        if phase and phase.poll() is None:
            phase.terminate()
            phase.wait()
        subprocess.run(_script(script, "stop", *start), stdout=subprocess.DEVNULL)
    ops = _ops_at(phase_dir, [m for w in windows for m in (w[1], w[2])])
    rates = [(ops[2 * i + 1] - ops[2 * i]) / (w[2] - w[1]).total_seconds()
             for i, w in enumerate(windows)]
    logs, shares = [], []
    for r in range(args.rounds):
        (a, ra), (b, rb) = [(w, rate) for w, rate in zip(windows, rates)][2 * r:2 * r + 2]
        on, off = (ra, rb) if a[0] else (rb, ra)
        logs.append(math.log(on / off))
        shares.append(_probe_cpu_share(*((a[3], a[1], a[2]) if a[0] else (b[3], b[1], b[2]))))
        print(f"pair {r + 1}: sampled {on:,.0f} ops/s, not sampled {off:,.0f} ops/s, ratio "
              f"{on / off:.3f}; the probe used {shares[-1]:.2%} of the machine's CPU", flush=True)
    mean, sd = statistics.mean(logs), statistics.stdev(logs)
    half = T95[args.rounds - 1] * sd / math.sqrt(args.rounds)
    print(f"{args.db}, S4 {PHASE} at local scale, {args.rounds} pairs of {args.window}-s windows "
          f"in one measured phase (A,B,B,A): throughput sampled/not sampled "
          f"{math.exp(mean):.3f} (95% CI {math.exp(mean - half):.3f} to "
          f"{math.exp(mean + half):.3f}); the probe's CPU median "
          f"{statistics.median(shares):.2%} of the machine's; results in {out}")
    return 0


if __name__ == "__main__":
    run_main(main)
