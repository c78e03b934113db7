"""Capacity searches (run-scenario --slo): latency against achieved throughput for every paced
step, both databases on one figure, the objective as a line and each trial's capacity marked
(or, where nothing held, the latency floor); the unthrottled probe drawn apart, unjoined: its
intended latency is its service time, not a point of the curve; and achieved against target
rate, which shows where the client fell behind."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..capacity import capacities, steps_table
from ..model import Run
from ..sides import color, side_of
from .common import Chart, new_figure, save, slug

LINES = (("intended", "p99", "o-", 1.8), ("service", "p99", "s--", 1.2),
         ("intended", "p50", "o:", 1.0), ("service", "p50", "s:", 0.8))


def _deciding(steps: pd.DataFrame, key: str) -> pd.DataFrame:
    """Per step the operation whose intended objective figure is the worst (it decides)."""
    col = f"intended_{key}_us"
    order = steps.sort_values(col, ascending=False, na_position="last")
    return order.drop_duplicates(["database", "repeat", "step"]).sort_values("target")


def _errorbars(g: pd.DataFrame, x: str, y: str) -> tuple:
    xerr = np.abs(np.vstack([g[x] - g["achieved_low"], g["achieved_high"] - g[x]]))
    low, high = y.replace("_us", "_low_us"), y.replace("_us", "_high_us")
    yerr = np.abs(np.vstack([g[y] - g[low], g[high] - g[y]])) / 1000.0
    return np.nan_to_num(xerr), np.nan_to_num(yerr)


def capacity_charts(runs: list[Run], out_dir: Path) -> list[Chart]:
    steps = steps_table(runs)
    if steps.empty:
        return []
    found = capacities(steps)
    known = {r.database: side_of(r.metadata) for r in runs}  # an A/A test's sides too
    steps = steps[steps["check"].isna()]  # the --slo-check runs are in capacity.csv
    charts = []
    for (scenario, ts, search), g in steps.groupby(["scenario", "timestamp", "search"],
                                                   sort=False):
        first = g.iloc[0]
        objective, key = first["objective"], first["objective_key"]
        bound_ms = first["bound_us"] / 1000.0
        fig, axes = new_figure(2, panel_height=3.8)
        ax, axb = axes
        for (db, trial), t in g.groupby(["database", "repeat"], sort=False, dropna=False):
            t = _deciding(t, key)
            c = color(db, known)
            label = db + (f" trial {trial}" if trial else "")
            probe, t = t[t["target"].isna()], t[t["target"].notna()]
            if len(probe):  # no schedule: one figure (service = intended), no line to the steps
                ax.plot(probe["achieved_ops_per_s"], probe[f"service_{key}_us"] / 1000.0, "*",
                        color=c, ms=11, mfc="none", label=f"{label}: unthrottled probe "
                        f"(service {key})")
            for kind, level, style, width in LINES:
                col = f"{kind}_{level}_us"
                xerr, yerr = _errorbars(t, "achieved_ops_per_s", col)
                ax.errorbar(t["achieved_ops_per_s"], t[col] / 1000.0, xerr=xerr, yerr=yerr,
                            fmt=style, color=c, lw=width, ms=4, capsize=2, alpha=0.9,
                            label=label if (kind, level) == ("intended", "p99") else None)
            rated = t[t["target"].notna()]
            axb.errorbar(rated["target"], rated["achieved_ops_per_s"],
                         yerr=np.nan_to_num(np.abs(np.vstack([
                             rated["achieved_ops_per_s"] - rated["achieved_low"],
                             rated["achieved_high"] - rated["achieved_ops_per_s"]]))),
                         fmt="o-", color=c, capsize=2, label=label)
            cap = found[(found["database"] == db) & (found["search"] == search)
                        & (found["repeat"] == trial)]
            if len(cap) and cap["capacity_ops_per_s"].iloc[0] > 0:
                r = float(cap["capacity_ops_per_s"].iloc[0])
                ax.axvline(r, color=c, ls="-.", lw=1)
                ax.annotate(f"{label}: {r:,.0f} ops/s", (r, bound_ms), rotation=90, fontsize=7,
                            color=c, xytext=(-10, -80), textcoords="offset points")
            elif len(cap) and cap["floor_us"].iloc[0] == cap["floor_us"].iloc[0]:
                floor_ms = float(cap["floor_us"].iloc[0]) / 1000.0
                ax.axhline(floor_ms, color=c, ls="-.", lw=1)
                ax.annotate(f"{label}: {cap['capacity'].iloc[0]}", (0.01, floor_ms),
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
        top = float(np.nanmax(g["target"])) if g["target"].notna().any() else 1.0
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

