"""scripts/bench-spread: how far trials spread, and how much of that spread the measured
window's own noise explains.

  scripts/bench-spread RESULTS_DIR...     (results of run-scenario or quickstart with trials)

Per results directory, side and measured run phase: the trials' throughput over their measured
windows and its between-trial CV; within each window the status ticks' CV and lag-1
autocorrelation r; and the noise the mean of such a window carries by itself, tick CV / sqrt(n)
widened by sqrt((1 + r) / (1 - r)) for the correlation (r taken as 0 when negative). When that
predicted noise is about the between-trial CV, the trials differ mostly because their windows
are short samples of a noisy series, not because server lifetimes differ: a longer window then
narrows the spread as 1/sqrt(its length) (printed for 20, 40 and 60 s). Where the phases have
the servers' samples (servers.csv), also each trial's server CPU (cores busy, all nodes, over the
same window) and its operations per server CPU-second, with their CVs: trials whose servers got
the same CPU but did different work with it differ in what an operation cost, not in the CPU
the database was given (a host whose memory or disk is shared with others moves that cost).
Reads the figures as the report does (ycsb_analysis: the runner's warm-up end, the steady
window). Runs in .venv's Python.
"""
import argparse
import math
from pathlib import Path

import numpy as np
import polars as pl

from ..core.errors import ScriptError

WINDOWS_S = (20, 40, 60)


def _window(run):
    """The measured window's ticks (ops/s) of one trial, as the report takes them, the seconds
    per tick and the window's (start, end] on the phase's time axis."""
    from ycsb_analysis.steady_state import interval_throughput, window
    series = interval_throughput(run)
    w = window(run, series)
    start, end = w.start_s, w.end_s
    t = series["t_s"].to_numpy()
    step = float(np.median(np.diff(t))) if len(t) > 1 else 1.0
    return series["ops_per_s"].to_numpy()[(t > start + 1e-9) & (t <= end + 1e-9)], step, start, end


def server_cores(run, start: float, end: float) -> float:
    """The servers' CPU over (start, end]: cores busy, summed over the nodes (each node's mean
    rate of cpu_ms_total over its samples in the window); nan without such samples."""
    from ycsb_analysis.servers import phase_table
    cpu = phase_table(run).filter((pl.col("metric") == "cpu_ms_total") & (pl.col("t_s") > start)
                                  & (pl.col("t_s") <= end) & pl.col("per_s").is_not_null())
    if cpu.is_empty():
        return math.nan
    return float(cpu.group_by("node").agg(pl.col("per_s").mean())["per_s"].sum()) / 1000


def _cv(values: list) -> float:
    v = [x for x in values if x == x]
    return float(np.std(v, ddof=1) / np.mean(v)) if len(v) == len(values) > 1 else math.nan


def spread(results: Path) -> list:
    """One dict per side and measured run phase of `results`."""
    from ycsb_analysis.loader import load
    from ycsb_analysis.steady_state import finite_job
    groups = {}
    for run in load([str(results)], skipped=[]):
        if finite_job(run) or not run.metadata.get("repeat"):
            continue
        groups.setdefault((run.database, run.phase), []).append(run)
    out = []
    for (side, phase), runs in sorted(groups.items()):
        means, cvs, r1s, n, steps, cores = [], [], [], [], [], []
        for run in runs:
            x, step, start, end = _window(run)
            steps.append(step)
            if len(x) < 3:
                continue
            means.append(x.mean())
            cores.append(server_cores(run, start, end))
            cvs.append(x.std(ddof=1) / x.mean())
            d = x - x.mean()
            r1s.append(float((d[1:] * d[:-1]).sum() / (d * d).sum()))
            n.append(len(x))
        if len(means) < 2:
            continue
        r = max(0.0, float(np.mean(r1s)))
        tick_cv, ticks = float(np.median(cvs)), float(np.median(n))
        noise = tick_cv / math.sqrt(ticks) * math.sqrt((1 + r) / (1 - r))
        step = float(np.median(steps))  # seconds per tick (2 at local scale)
        per_cpu = [m / c for m, c in zip(means, cores)]  # operations per server CPU-second
        out.append({"side": side, "phase": phase, "trials": len(means),
                    "figures": means, "cv": float(np.std(means, ddof=1) / np.mean(means)),
                    "tick_cv": tick_cv, "r1": float(np.mean(r1s)), "ticks": ticks,
                    "noise": noise,
                    "noise_at": {w: noise * math.sqrt(ticks * step / w) for w in WINDOWS_S},
                    "server_cores": cores, "cores_cv": _cv(cores),
                    "ops_per_cpu_s": per_cpu, "ops_per_cpu_s_cv": _cv(per_cpu)})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench-spread", description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+", type=Path, help="results directories with trials")
    args = ap.parse_args(argv)
    for results in args.results:
        if not results.is_dir():
            raise ScriptError(f"{results}: no such results directory")
        found = spread(results)
        if not found:
            raise ScriptError(f"{results}: no measured run phase with 2 or more trials")
        for s in found:
            at = ", ".join(f"{w} s {v:.1%}" for w, v in s["noise_at"].items())
            print(f"{results} {s['side']} {s['phase']}: {s['trials']} trials "
                  f"{' / '.join(f'{v:,.0f}' for v in s['figures'])} ops/s, between-trial CV "
                  f"{s['cv']:.1%}; ticks in a window: {s['ticks']:.0f}, CV {s['tick_cv']:.1%}, "
                  f"r1 {s['r1']:+.2f}; the window's own noise {s['noise']:.1%} (a window of "
                  f"{at})")
            if s["cores_cv"] == s["cores_cv"]:
                print(f"  servers' CPU {' / '.join(f'{c:.2f}' for c in s['server_cores'])} cores "
                      f"busy, CV {s['cores_cv']:.1%}; operations per server CPU-second "
                      f"{' / '.join(f'{v:,.0f}' for v in s['ops_per_cpu_s'])}, CV "
                      f"{s['ops_per_cpu_s_cv']:.1%}")
    return 0
