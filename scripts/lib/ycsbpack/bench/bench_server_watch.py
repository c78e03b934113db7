"""scripts/bench-server-watch: what sampling the servers costs a measured phase's throughput.

Between runs on a shared 2-core machine throughput differs by 10-20%: two runs cannot show a
cost of 2%. So the comparison is made within one run: one long measured phase (S4 update-heavy
at local scale on a local server started here, the runner's own sampling off), and beside it
this script samples the servers exactly as the runner does (phases/server_watch.py: `bin/ycsb
servers -watch` and /proc) in short alternating windows, on then off, then off then on
(A,B,B,A: a drift of the machine falls on both). As in a run, one probe samples the whole
measured part: it starts (its JVM, connections and first facts: seconds of CPU, which in a
phase fall in the warm-up) and samples one window that counts for neither side; from then on
a window without sampling is one in which the probe's JVM is paused (SIGSTOP: it neither
runs nor asks the servers anything) and resumed (SIGCONT) for the next window with sampling.
Its missed rounds are skipped, not made up (WatchLoop), so a sampled window has the rounds a
run's window has.

Per pair of windows: the clients' throughput with and without sampling, from the status lines
(the analysis package's reader) and their ratio; over the pairs the mean log ratio with its 95%
interval (neighbouring pairs are correlated: _interval); the pairs are kept in pairs.csv, which
`--read` pools over runs. Also what the probe itself used in CPU during its windows (/proc), as
a share of the machine's CPU. Then, the phase over and the server idle, the servers' own CPU
(/proc) in 30-s windows with and without sampling (A,B,B,A): what answering the probe costs
them, which is lost in a busy phase's noise. The target (issue 34): less than 2% of the
phase's throughput. Runs in .venv's Python.
"""
import argparse
import csv
import json
import math
import os
import signal
import statistics
import subprocess
import time
from datetime import datetime
from pathlib import Path

import numpy as np

from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT, command
from ..databases import database
from ..phases import cpu
from ..phases.server_watch import INTERVAL_S, PROBE_NODE, ServerWatch
from ..runner.run_scenario import local_server, timestamp
from ..runner.scenario_args import parser, settings_from
from ..scenarios.scenario_plan import WORKLOADS

WORKLOADS_S4 = ("update-heavy", "short-range")  # S4's run phases at local scale, 8 threads
# the probe's start (JVM, driver, JMX, the facts: 7-10 CPU-s beside a busy phase) is over, and
# its window begins, once it used less than SETTLED_CPU of one core over the last SETTLED_S
# (at least STARTUP_S, at most STARTUP_MAX_S after it started)
STARTUP_S, STARTUP_MAX_S, SETTLED_S, SETTLED_CPU = 12, 90, 5, 0.05
MAX_ROUNDS = 200
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
IDLE_PAIRS, IDLE_WINDOW_S = 3, 30
PAIRS_CSV = "pairs.csv"  # in --out: one row per pair of windows, what --read reads back
PAIRS_COLUMNS = ("pair", "sampled_ops_per_s", "not_sampled_ops_per_s", "probe_cpu_share")


def _server_pids(db: str, run_dir: Path) -> dict:
    """{process: pid} of the local server this script started: run-scenario's server with
    SERVERS' options."""
    args = parser(__doc__).parse_args(["S4", "--db", db, "--run-dir", str(run_dir),
                                       *SERVERS[db][2]])
    return local_server(db, 1, settings_from(args)).pids()


def _script(name: str, *args) -> list:
    return [str(command(name)), *map(str, args)]


def _probe_command(db: str) -> list:
    """A client command line whose connection options the sampling takes (server_watch)."""
    files = [WORKLOADS / "db" / f"{db}.properties", WORKLOADS / "s4" / f"{db}.properties"]
    cmd = [str(REPO_ROOT / "bin" / "ycsb"), "run", database(db).binding]
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
        t = np.array([ts.timestamp() for ts in e["time"]])   # (naive: local time)
        total += np.interp(x, t, e["operations"].to_numpy())
    return total


def _rounds_in(servers_csv: Path, windows: list) -> list:
    """The probe's rounds in each sampled window, from the times of its samples of the servers
    (servers.csv without the probe's own CPU, PROBE_NODE: a round's rows come within a second;
    rounds are seconds apart)."""
    with open(servers_csv, newline="") as f:
        times = sorted({int(r["t_ms"]) / 1000 for r in csv.DictReader(f)
                        if r["node"] != PROBE_NODE})
    rounds = [t for i, t in enumerate(times) if i == 0 or t - times[i - 1] > 1.0]
    return [sum(w[1].timestamp() <= t < w[2].timestamp() for t in rounds)
            for w in windows if w[0]]


def _settled(watch: ServerWatch) -> float:
    """Waits for the probe's start to be over (STARTUP_S...); the CPU-s it used until then."""
    began, seen = time.monotonic(), []
    while True:
        time.sleep(1)
        seen.append(watch.probe_cpu_s() or 0.0)
        waited = time.monotonic() - began
        if waited >= STARTUP_MAX_S or (waited >= STARTUP_S and len(seen) > SETTLED_S
                                       and seen[-1] - seen[-1 - SETTLED_S] < SETTLED_CPU *
                                       SETTLED_S):
            return seen[-1]


def _idle_cost(db: str, out: Path, pids: dict) -> list:
    """The servers' CPU (all their processes, /proc) per second of windows with and without
    sampling, the server idle after the phase (its loaded table in place), A,B,B,A: what
    answering the probe costs the servers, which a busy phase cannot show. [(on, servers'
    CPU-s/s, the probe's CPU-s/s), ...]"""
    done = []
    for r in range(IDLE_PAIRS):
        for on in ([False, True] if r % 2 == 0 else [True, False]):
            d = out / f"idle-{r + 1}-{'on' if on else 'off'}"
            d.mkdir()
            watch = ServerWatch(d, _probe_command(db), {}).start() if on else None
            if watch:
                _settled(watch)
            before = sum(cpu.snapshot(pids).values()), watch.probe_cpu_s() if watch else 0.0
            time.sleep(IDLE_WINDOW_S)
            after = sum(cpu.snapshot(pids).values()), watch.probe_cpu_s() if watch else 0.0
            if watch:
                watch.stop()
            done.append((on, (after[0] - before[0]) / IDLE_WINDOW_S,
                         (after[1] - before[1]) / IDLE_WINDOW_S))
    return done


def _windows(db: str, out: Path, rounds: int, window_s: int) -> list:
    """Alternating windows beside the running phase, one probe for all of them (paused in the
    windows without sampling): [(on, start, end, the probe's CPU-s in the window), ...] and
    the probe's CPU-s until its first window began (its start). A first sampled window counts
    for neither side: the probe's JIT and the servers' side of the sampling warm in it, as in a
    run's warm-up."""
    d = out / "watch"
    d.mkdir()
    watch = ServerWatch(d, _probe_command(db), {}).start()
    pid, done = watch.probe_pid(), []
    try:
        startup = _settled(watch)
        time.sleep(window_s)
        for r in range(1, rounds + 1):
            for on in ([True, False] if r % 2 else [False, True]):
                os.kill(pid, signal.SIGCONT if on else signal.SIGSTOP)
                start, cpu_before = datetime.now(), watch.probe_cpu_s()
                time.sleep(window_s)
                done.append((on, start, datetime.now(), watch.probe_cpu_s() - cpu_before))
    finally:
        os.kill(pid, signal.SIGCONT)
        (d / "servers.json").write_text(json.dumps(watch.stop(), indent=1))
    return done, startup


def _interval(logs: list) -> str:
    """The mean ratio sampled/not sampled with its 95% interval, from the pairs' log ratios in
    order. Neighbouring pairs share two adjacent windows of one kind (A,B | B,A | A,B: the B,B
    and the A,A), which the throughput's wander makes alike, so their ratios are correlated
    (docs/benchmarks/server-watch.md gives their lag-1 autocorrelation): the interval is the
    pack's within-run one for correlated samples (uncertainty.within_run: effective sample size
    from the lag-1 autocorrelation), not a t-interval over independent pairs, too narrow here."""
    from ycsb_analysis.uncertainty import lag1_autocorrelation, t95, within_run
    e = within_run(logs)  # on log ratios, which may be below 0: not Estimate.low (clips at 0)
    half = t95(e.df) * e.se
    return (f"{math.exp(e.value):.3f} (95% CI {math.exp(e.value - half):.3f} to "
            f"{math.exp(e.value + half):.3f}; {len(logs)} pairs, lag-1 autocorrelation "
            f"{lag1_autocorrelation(logs):.2f}, effective {e.df + 1:.0f})")


def _write_pairs(out: Path, rows: list) -> None:
    """Keeps the pairs in out/pairs.csv: [(pair, sampled ops/s, not sampled, probe's CPU), ...]."""
    with open(out / PAIRS_CSV, "w", newline="") as f:
        csv.writer(f).writerows([PAIRS_COLUMNS, *((k, f"{on:.2f}", f"{off:.2f}", f"{share:.5f}")
                                                 for k, on, off, share in rows)])


def _read_pairs(out: Path) -> list:
    """The pairs' log ratios an earlier run of this script kept (its pairs.csv)."""
    f = out / PAIRS_CSV
    if not f.is_file():
        raise ScriptError(f"--read {out}: no {PAIRS_CSV} there; give the --out directory of "
                          "an earlier bench-server-watch run")
    with open(f, newline="") as fh:
        rows = list(csv.DictReader(fh))
    try:
        return [math.log(float(r["sampled_ops_per_s"]) / float(r["not_sampled_ops_per_s"]))
                for r in rows]
    except (KeyError, ValueError, ZeroDivisionError) as e:
        raise ScriptError(f"--read {f}: a row without two positive throughputs ({e}); the file "
                          f"needs the columns {', '.join(PAIRS_COLUMNS)}") from None


def _print_pairs(db: str, phase: str, windows: list, startup: float, phase_dir: Path,
                 rounds: int, window_s: int) -> None:
    """Prints each pair and the run's figure; keeps the pairs in pairs.csv (--read)."""
    ops = _ops_at(phase_dir, [m for w in windows for m in (w[1], w[2])])
    rates = [(ops[2 * i + 1] - ops[2 * i]) / (w[2] - w[1]).total_seconds()
             for i, w in enumerate(windows)]
    logs, shares, rows = [], [], []
    for r in range(rounds):
        pair = list(zip(windows, rates))[2 * r:2 * r + 2]
        (sampled, on), (_, off) = sorted(pair, key=lambda wr: not wr[0][0])
        logs.append(math.log(on / off))
        shares.append(sampled[3] / ((sampled[2] - sampled[1]).total_seconds() * cpu.cores()))
        rows.append((r + 1, on, off, shares[-1]))
        print(f"pair {r + 1}: sampled {on:,.0f} ops/s, not sampled {off:,.0f} ops/s, ratio "
              f"{on / off:.3f}; the probe used {shares[-1]:.2%} of the machine's CPU in its "
              f"window", flush=True)
    _write_pairs(phase_dir.parents[1], rows)
    sd = statistics.stdev(logs)
    spread = statistics.stdev(math.log(r) for r in rates) if len(rates) > 1 else math.nan
    sampled_rounds = _rounds_in(phase_dir.parents[1] / "watch" / "servers.csv", windows)
    print(f"{db}, S4 {phase} at local scale, {rounds} pairs of {window_s}-s windows in one "
          f"measured phase (A,B,B,A), one probe paused in the windows without sampling: "
          f"throughput sampled/not sampled {_interval(logs)}; the probe's CPU "
          f"median {statistics.median(shares):.2%} of the machine's in its windows, its start "
          f"{startup:.1f} CPU-s (in a phase: during the warm-up); the windows' throughput "
          f"varied by {spread:.1%} (sd of its log), the pairs' log ratio by {sd:.1%}; the "
          f"probe's rounds in its windows: {sum(sampled_rounds)} in {len(sampled_rounds)} (a "
          f"run's every {INTERVAL_S:g} s: {len(sampled_rounds) * window_s / INTERVAL_S:g})")


def _print_idle(idle: list) -> None:
    served = [sum(w[1] for w in idle if w[0] == on) / IDLE_PAIRS for on in (True, False)]
    probe = sum(w[2] for w in idle if w[0]) / IDLE_PAIRS
    print(f"the idle server after the phase, {IDLE_PAIRS} pairs of {IDLE_WINDOW_S}-s windows "
          f"(A,B,B,A): the servers' CPU {served[0]:.4f} CPU-s/s sampled, {served[1]:.4f} not "
          f"sampled: answering the probe costs them {served[0] - served[1]:+.4f} CPU-s/s; the "
          f"probe {probe:.4f} CPU-s/s; together "
          f"{(served[0] - served[1] + probe) / cpu.cores():.2%} of the machine's "
          f"{cpu.cores()} cores")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="bench-server-watch", description=__doc__.splitlines()[0])
    p.add_argument("--db", choices=sorted(SERVERS), default="cassandra")
    p.add_argument("--workload", choices=WORKLOADS_S4, default="update-heavy",
                   help="S4's phase measured (default update-heavy; short-range: 95%% scans, "
                        "whose writes flush far less often)")
    p.add_argument("--rounds", type=int, default=20, help="pairs of windows (default 20)")
    p.add_argument("--window", type=int, default=20, help="seconds per window (default 20)")
    p.add_argument("--idle-only", action="store_true",
                   help="S4's load, then only the idle server's part (~5 minutes)")
    p.add_argument("--out", type=Path, default=None,
                   help="results (default results/bench-server-watch/<timestamp>)")
    p.add_argument("--read", type=Path, action="append", default=[], metavar="OUT",
                   help="run nothing: the figure over the pairs earlier runs kept (their --out "
                        "directories, in order; repeatable: the runs' pairs pooled)")
    args = p.parse_args(argv)
    if args.read:
        logs = [lg for d in args.read for lg in _read_pairs(d)]
        if len(logs) < 3:
            raise ScriptError(f"--read: {len(logs)} pairs in {', '.join(map(str, args.read))}; "
                              "an interval needs at least 3")
        print(f"throughput sampled/not sampled over {', '.join(map(str, args.read))}: "
              f"{_interval(logs)}")
        return 0
    if not 3 <= args.rounds <= MAX_ROUNDS:  # an interval needs 3 pairs (within_run)
        raise ScriptError(f"--rounds {args.rounds}: give 3 to {MAX_ROUNDS}")
    out = (args.out or REPO_ROOT / "results" / "bench-server-watch" / timestamp()).resolve()
    out.mkdir(parents=True, exist_ok=True)
    script, server_opts, scenario_opts, _ = SERVERS[args.db]
    run_dir = out / "servers"
    start = [*server_opts, "--run-dir", run_dir / args.db]  # where run-scenario looks
    warmup_max = 60
    measured = (2 * args.rounds + 1) * args.window + STARTUP_MAX_S + warmup_max + 30
    subprocess.run(_script(script, "start", *start), check=True, stdout=subprocess.DEVNULL)
    phase, windows, startup = None, [], math.nan
    phase_name = f"{args.workload}-threads-8"
    phase_dir = out / "run" / f"{args.db}-{phase_name}"
    try:
        log = open(out / "run.log", "w")
        phase = subprocess.Popen(_script(
            "run-scenario", "S4", "--db", args.db, "--only",
            "load" if args.idle_only else args.workload, "--no-build",
            "--no-server-watch", "--out", out / "run", "--run-dir", run_dir, *scenario_opts,
            "-p", f"maxexecutiontime={measured}", "-p", f"warmup.maxtime={warmup_max}"),
            stdout=log, stderr=subprocess.STDOUT)
        if not args.idle_only:
            while not (phase_dir / "client-0.err").exists():  # the load and its settling first
                if phase.poll() is not None:
                    raise ScriptError(f"the phase ended early: see {out / 'run.log'}")
                time.sleep(1)
            time.sleep(warmup_max + 15)  # past the longest warm-up: the measured part
            windows, startup = _windows(args.db, out, args.rounds, args.window)
            (phase_dir / "stop-after-measuring").touch()  # the runner's stop file: it ends
        if phase.wait() != 0:
            raise ScriptError(f"the phase failed: see {out / 'run.log'}")
        idle = _idle_cost(args.db, out, _server_pids(args.db, run_dir))
    finally:
        if phase and phase.poll() is None:
            phase.terminate()
            phase.wait()
        subprocess.run(_script(script, "stop", *start), stdout=subprocess.DEVNULL)
    if windows:
        _print_pairs(args.db, phase_name, windows, startup, phase_dir, args.rounds, args.window)
    _print_idle(idle)
    print(f"results in {out}")
    return 0


if __name__ == "__main__":
    run_main(main)
