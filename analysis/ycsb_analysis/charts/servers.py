"""What the servers did while the phases ran, on the time axis of the clients' throughput: one
figure per database of a run (its phases one after another, each phase's start marked), the
clients' throughput on top, then per node its CPU, GC pauses, flushes and compactions (count
and bytes), pending compactions and disk, as sampled by the runner (servers.py)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from ..model import Run
from ..servers import PANELS, origin_s, readable_table
from ..timeseries import operation_throughput
from .common import Chart, legend_beside, new_figure, run_colors, save, slug

STYLES = ("-", "--", ":", "-.")
# one colour per operation in every phase of the figure
OP_COLORS = {"READ": "tab:blue", "UPDATE": "tab:orange", "INSERT": "tab:green",
             "SCAN": "tab:purple", "READ_LIST": "tab:blue", "APPEND": "tab:green"}


def _throughput(ax, runs: list[Run], t0: float) -> None:
    for run in runs:
        df = operation_throughput(run).filter(~pl.col("failed"))
        shift = origin_s(run) - t0
        for (op,), g in df.group_by("operation", maintain_order=True):
            ax.plot(g["t_s"].to_numpy() + shift, g["ops_per_s"].to_numpy(), lw=1.2, label=op,
                    color=OP_COLORS.get(op, "tab:grey"))
    handles = dict(zip(*reversed(ax.get_legend_handles_labels())))
    ax.legend(handles.values(), handles.keys(), loc="upper left", bbox_to_anchor=(1.01, 1.0),
              fontsize=7, frameon=False)
    ax.set_ylabel("ops/s")
    ax.set_title("clients' throughput", fontsize=9)


def _panel(ax, table: pl.DataFrame, metrics: list[str], colors: dict, t0: float) -> None:
    for style, metric in zip(STYLES, metrics):
        _, unit, factor = PANELS[metric]
        for (node,), g in sorted(table.filter(pl.col("metric") == metric).group_by("node")):
            y = g["value"] if factor is None else g["per_s"] * factor
            ax.plot((g["t_ms"] / 1000.0 - t0).to_numpy(),
                    y.cast(pl.Float64).fill_null(float("nan")).to_numpy(), style,
                    color=colors[node], lw=1.2, marker=".",
                    ms=3, label=f"{node} {metric.removesuffix('_total').replace('_', ' ')}")
        ax.set_ylabel(unit)
    ax.set_title(PANELS[metrics[0]][0], fontsize=9)
    legend_beside(ax)


def servers_charts(runs: list[Run], out_dir: Path) -> list[Chart]:
    charts = []
    groups: dict[tuple, list[Run]] = {}
    for r in runs:
        groups.setdefault((r.scenario, r.timestamp, r.database), []).append(r)
    for (scenario, ts, db), group in groups.items():
        tables = [(r, readable_table(r)) for r in group]
        tables = [(r, t) for r, t in tables if t.height]
        if not tables:
            continue
        group = [r for r, _ in tables]
        table = pl.concat([t for _, t in tables])
        t0 = min(origin_s(r) for r in group)
        panels: dict[str, list[str]] = {}
        for m in (m for m in PANELS if m in set(table["metric"])):
            panels.setdefault(PANELS[m][0], []).append(m)
        colors = run_colors(sorted(set(table["node"])))
        fig, axes = new_figure(1 + len(panels), panel_height=2.2, legend_entries=8)
        _throughput(axes[0], group, t0)
        for ax, metrics in zip(axes[1:], panels.values()):
            _panel(ax, table, metrics, colors, t0)
        for ax in axes[1:]:
            ax.sharex(axes[0])
        for r in group:   # each phase's start, named on the top panel
            x = origin_s(r) - t0
            for ax in axes:
                ax.axvline(x, color="grey", lw=0.6, ls=":")
            axes[0].annotate(r.phase, (x, 1), xycoords=("data", "axes fraction"),
                             xytext=(2, -9), textcoords="offset points", fontsize=6)
        axes[-1].set_xlabel("seconds since the first phase's clients started")
        name = " ".join(x for x in (scenario, ts, db) if x)
        charts.append(save(fig, out_dir, f"servers-{slug(name)}",
                           f"What the servers did: {name}"))
    return charts
