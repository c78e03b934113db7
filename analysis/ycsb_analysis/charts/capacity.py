"""Capacity searches (run-scenario --slo): latency against achieved throughput for every paced
step, both databases on one figure, the objective as a line and each trial's capacity marked
(or, where nothing held, the latency floor); the unthrottled probe drawn apart, unjoined: its
intended latency is its service time, not a point of the curve; and achieved against target
rate, which shows where the client fell behind."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..capacity import capacities, steps_table
from ..model import Run
from ..sides import color, side_of
from ..tables import by_key
from ..verdicts import known
from .common import Chart, column, interval_bars, new_figure, save, slug

LINES = (("intended", "p99", "o-", 1.8), ("service", "p99", "s--", 1.2),
         ("intended", "p50", "o:", 1.0), ("service", "p50", "s:", 0.8))


def _deciding(operations: list[dict], key: str) -> list[dict]:
    """Per step the operation whose intended objective figure is the worst (it decides), the
    steps in the order of their targets."""
    def figure(r: dict) -> float:
        v = r[f"intended_{key}_us"]
        return v if known(v) else -np.inf
    worst = [max(ops, key=figure) for ops in by_key(operations, ["step"]).values()]
    return sorted(worst, key=lambda r: r["target"] or 0)


def capacity_charts(runs: list[Run], out_dir: Path) -> list[Chart]:
    steps = steps_table(runs)
    if steps.is_empty():
        return []
    found = {(r["database"], r["search"], r["repeat"]): r for r in capacities(steps).to_dicts()}
    sides = {r.database: side_of(r.metadata) for r in runs}  # an A/A test's sides too
    # (the --slo-check runs are in capacity.csv)
    paced = [r for r in steps.to_dicts() if not known(r["check"])]
    charts = []
    for (scenario, ts, search), g in by_key(paced, ["scenario", "timestamp", "search"]).items():
        first = g[0]
        objective, key = first["objective"], first["objective_key"]
        bound_ms = first["bound_us"] / 1000.0
        fig, (ax, axb) = new_figure(2, panel_height=3.8)
        for (db, trial), t in by_key(g, ["database", "repeat"]).items():
            t = _deciding(t, key)
            c = color(db, sides)
            label = db + (f" trial {trial}" if trial else "")
            probe = [r for r in t if not known(r["target"])]
            t = [r for r in t if known(r["target"])]
            achieved = interval_bars(t, "achieved_ops_per_s", "achieved_low", "achieved_high")
            if probe:  # no schedule: one figure (service = intended), no line to the steps
                ax.plot(column(probe, "achieved_ops_per_s"),
                        column(probe, f"service_{key}_us") / 1000.0, "*",
                        color=c, ms=11, mfc="none", label=f"{label}: unthrottled probe "
                        f"(service {key})")
            for kind, level, style, width in LINES:
                col = f"{kind}_{level}_us"
                yerr = interval_bars(t, col, col.replace("_us", "_low_us"),
                                     col.replace("_us", "_high_us")) / 1000.0
                ax.errorbar(column(t, "achieved_ops_per_s"), column(t, col) / 1000.0,
                            xerr=achieved, yerr=yerr,
                            fmt=style, color=c, lw=width, ms=4, capsize=2, alpha=0.9,
                            label=label if (kind, level) == ("intended", "p99") else None)
            axb.errorbar(column(t, "target"), column(t, "achieved_ops_per_s"), yerr=achieved,
                         fmt="o-", color=c, capsize=2, label=label)
            cap = found.get((db, search, trial))
            if cap and cap["capacity_ops_per_s"] > 0:
                r = float(cap["capacity_ops_per_s"])
                ax.axvline(r, color=c, ls="-.", lw=1)
                ax.annotate(f"{label}: {r:,.0f} ops/s", (r, bound_ms), rotation=90, fontsize=7,
                            color=c, xytext=(-10, -80), textcoords="offset points")
            elif cap and known(cap["floor_us"]):
                floor_ms = float(cap["floor_us"]) / 1000.0
                ax.axhline(floor_ms, color=c, ls="-.", lw=1)
                ax.annotate(f"{label}: {cap['capacity']}", (0.01, floor_ms),
                            xycoords=("axes fraction", "data"), fontsize=7, color=c,
                            xytext=(0, 3), textcoords="offset points")
        ax.axhline(bound_ms, color="red", lw=1, label=f"objective {objective}")
        ax.set_yscale("log")
        ax.set_xlabel("achieved throughput (ops/s, measured window; bars: within-run 95%)")
        ax.set_ylabel("latency (ms)")
        ax.set_title(f"Latency against throughput (objective on intended {key}; each trial's "
                     "capacity marked)\nsolid: intended p99, dashed: service p99, dotted: p50 "
                     "(circles intended, squares service); star: the unthrottled probe, apart",
                     fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6, ncol=2)
        top = max((float(r["target"]) for r in g if known(r["target"])), default=1.0)
        axb.plot([0, top], [0, top], color="grey", lw=1, label="achieved = target")
        axb.plot([0, top], [0, 0.95 * top], color="grey", ls=":", lw=1, label="95% of target")
        axb.set_xlabel("target (ops/s, -target over the clients)")
        axb.set_ylabel("achieved (ops/s)")
        axb.set_title("Achieved against target: below the dotted line the client fell behind")
        axb.grid(alpha=0.3)
        axb.legend(fontsize=7)
        name = slug(f"capacity-{scenario}-{search}")
        charts.append(save(fig, out_dir, name, f"Capacity at {objective} — {scenario} {search}"))
    return charts

