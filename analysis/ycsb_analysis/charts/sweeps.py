"""Thread and client sweeps (seed S3's figures 1–3), with the knee marked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from ..model import Run
from ..summary import runs_summary
from ..tables import by_key
from ..verdicts import known
from .common import Chart, column, interval_bars, new_figure, save, slug

# Runs that differ only in threads (or clients) form a sweep; phase_group keeps the runner's
# separate sweeps (S3's insert, select, update, delete) apart.
SWEEP_KEYS = ["scenario", "database", "workload", "batchsize", "phase_group"]


def find_knee(x, y) -> int | None:
    """Index of the knee of a rising, flattening curve, or None when there is none.

    The knee is the point furthest above the straight line joining the first and last
    points, with threads on a log2 axis and both axes scaled to [0, 1] (the "Kneedle"
    idea): where adding threads stops paying. No knee when the curve never bends more
    than 5 % of its range above that line.
    """
    x = np.log2(np.asarray(x, dtype=float))
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    if ok.sum() < 3:
        return None
    xs, ys = x[ok], y[ok]
    if np.ptp(xs) == 0 or np.ptp(ys) == 0:
        return None
    xn = (xs - xs.min()) / np.ptp(xs)
    yn = (ys - ys.min()) / np.ptp(ys)
    chord = yn[0] + (yn[-1] - yn[0]) * (xn - xn[0]) / (xn[-1] - xn[0])
    gap = yn - chord
    i = int(np.argmax(gap))
    if gap[i] < 0.05:
        return None
    return int(np.flatnonzero(ok)[i])


def _throughput(g: list[dict]) -> tuple[str, str]:
    """The group's throughput figure and its unit: records/s when every run of it is batched."""
    if all(known(r["records_per_s"]) for r in g):
        return "records_per_s", "records/s"
    return "throughput_ops_per_s", "ops/s"


def _mark_knee(ax, x: np.ndarray, thr: np.ndarray, what: str) -> None:
    knee = find_knee(x, thr)
    if knee is not None:
        ax.axvline(x[knee], color="grey", ls="--")
        ax.annotate(f"knee: {int(x[knee])} {what}", (x[knee], thr[knee]),
                    textcoords="offset points", xytext=(6, -14), fontsize=8)


def _threads_axis(ax, x: np.ndarray) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [f"{int(t)}" for t in x])
    ax.set_xlabel("client threads")
    ax.grid(alpha=0.3)


def _groups(summary: pl.DataFrame, vary: str, fixed: list[str]) -> list[tuple[tuple, list]]:
    """Groups of runs (summary rows) where only ``vary`` changes (≥ 2 distinct values), in
    the order of ``vary``; the same value twice (two timestamps): the latest."""
    out = []
    for key, g in by_key([r for r in summary.to_dicts() if known(r[vary])], fixed).items():
        latest = {r[vary]: r for r in sorted(g, key=lambda r: r[vary])}
        if len(latest) >= 2:
            out.append((key, list(latest.values())))
    return out


def _name(key: tuple) -> str:
    """``(scenario, database, workload class, batchsize, phase group)`` → a file-name slug."""
    scenario, database, workload, batchsize, group = key[:5]
    short = str(workload).rsplit(".", 1)[-1] or "workload"
    return slug(f"{scenario}-{database}-{short}" + (f"-{group}" if group else "")
                + (f"-b{int(batchsize)}" if batchsize and batchsize > 1 else ""))


def thread_sweep(runs: list[Run], out_dir: Path) -> list[Chart]:
    """Throughput and p99 against threads (knee marked), and elapsed time against threads."""
    summary = runs_summary(runs).filter(pl.col("clients") == 1)
    charts = []
    for key, g in _groups(summary, "threads", SWEEP_KEYS):
        fig, (ax, axb) = new_figure(2, panel_height=3.4)
        x = column(g, "threads")
        figure, unit = _throughput(g)
        thr = column(g, figure)
        # (no bar where a figure has no interval: a load, judged as a whole job)
        ax.errorbar(x, thr, yerr=interval_bars(g, figure), fmt="o-", color="tab:blue",
                    capsize=3, label="throughput (bars: 95% interval)")
        _threads_axis(ax, x)
        ax.set_ylabel(f"throughput ({unit})", color="tab:blue")
        ax.set_ylim(bottom=0)
        _mark_knee(ax, x, thr, "threads")
        ax2 = ax.twinx()
        ax2.plot(x, column(g, "p99_latency_us"), "s--", color="tab:red", label="p99 latency")
        ax2.set_ylabel(f"p99 latency of {g[0]['main_operation']} (µs)", color="tab:red")
        ax2.set_ylim(bottom=0)
        ax.set_title(f"Throughput ({unit}) and p99 against threads")
        axb.plot(x, column(g, "runtime_ms") / 1000.0, "o-", color="tab:green")
        _threads_axis(axb, x)
        axb.set_ylabel("elapsed time (s)")
        axb.set_ylim(bottom=0)
        axb.set_title("Elapsed time against threads")
        title = f"Thread sweep — {key[0]} / {key[1]} ({', '.join(r['phase'] for r in g)})"
        charts.append(save(fig, out_dir, f"thread-sweep-{_name(key)}", title))
    return charts


def client_scaling(runs: list[Run], out_dir: Path) -> list[Chart]:
    """Cluster throughput (sum over clients) against number of client processes."""
    # (plain files: threads per client unknown)
    summary = runs_summary(runs).filter(pl.col("threads").is_not_null())
    charts = []
    for key, g in _groups(summary, "clients", SWEEP_KEYS + ["threads"]):
        name = _name(key) + f"-t{int(key[-1])}"
        fig, (ax,) = new_figure(1, panel_height=4.0)
        x = column(g, "clients")
        figure, unit = _throughput(g)
        thr = column(g, figure)
        ax.plot(x, thr, "o-", label="cluster throughput (sum of clients)")
        ax.plot(x, thr / x, "s--", label="per client")
        _mark_knee(ax, x, thr, "clients")
        ax.set_xticks(x, [str(int(v)) for v in x])
        ax.set_xlabel(f"client processes ({int(key[-1])} threads each)")
        ax.set_ylabel(f"throughput ({unit})")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        title = (f"Cluster throughput against clients — {key[0]} / {key[1]} "
                 f"({', '.join(r['phase'] for r in g)})")
        charts.append(save(fig, out_dir, f"client-scaling-{name}", title))
    return charts
