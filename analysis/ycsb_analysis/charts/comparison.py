"""Side-by-side bars per phase: one bar per database (Cassandra vs HBase, seed S2)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..model import Run
from ..summary import runs_summary
from ..verdicts import aggregate, known
from .common import Chart, legend_beside, new_figure, run_colors, save


def database_comparison(runs: list[Run], out_dir: Path) -> list[Chart]:
    """Throughput per phase, bars side by side per database; records/s for batched phases.
    Error bars: the 95% interval (across repeats, or within the run; verdicts.py).

    Runs without a known database (plain files) are compared by run label instead.
    """
    bars: dict[tuple, dict] = {}
    for r in aggregate(runs_summary(runs)):
        plain = r["database"] == "unknown"
        batched = known(r["records_per_s"])
        figure = "records_per_s" if batched else "throughput_ops_per_s"
        key = ("plain files" if plain else r["phase"], r["run"] if plain else r["database"])
        bars.pop(key, None)  # a phase run twice: its latest
        bars[key] = {"group": key[0], "series": key[1], "batched": batched} | {
            k: float(v) if known(v) else np.nan for k, v in (
                ("value", r[figure]), ("low", r.get(f"{figure}_ci_low")),
                ("high", r.get(f"{figure}_ci_high")))}
    if not bars:
        return []
    s = list(bars.values())
    groups = list(dict.fromkeys(r["group"] for r in s))
    series = list(dict.fromkeys(r["series"] for r in s))
    width = 0.8 / max(sum(1 for r in s if r["group"] == g) for g in groups)
    fig, (ax,) = new_figure(1, width=max(9.0, 1.1 * len(groups) + 3), panel_height=4.2,
                            legend_entries=len(series))
    colors = run_colors(series)
    labelled: set[str] = set()
    for x, group in enumerate(groups):
        d = [r for r in s if r["group"] == group]
        # Only the series present in this phase get a slot, centred on the phase's tick.
        for j, r in enumerate(d):
            pos = x + (j - (len(d) - 1) / 2) * width
            name = r["series"]
            err = None
            if np.isfinite(r["value"]) and np.isfinite(r["low"]) and np.isfinite(r["high"]):
                err = [[max(0.0, r["value"] - r["low"])], [max(0.0, r["high"] - r["value"])]]
            bar = ax.bar(pos, r["value"] if np.isfinite(r["value"]) else 0, width,
                         color=colors[name], label=None if name in labelled else name, yerr=err,
                         capsize=3, error_kw={"elinewidth": 1})[0]
            labelled.add(name)
            if np.isfinite(r["value"]):
                ax.annotate(f"{r['value']:,.0f}{' rec/s' if r['batched'] else ''}",
                            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                            ha="center", va="bottom", fontsize=7, rotation=90)
    labels = [f"{g}\n(records/s)" if any(r["batched"] for r in s if r["group"] == g) else g
              for g in groups]
    ax.set_xticks(np.arange(len(groups)), labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("throughput (ops/s; records/s for batched phases)\nerror bars: 95% interval")
    ax.set_ylim(bottom=0, top=ax.get_ylim()[1] * 1.25)
    ax.grid(alpha=0.3, axis="y")
    legend_beside(ax, fontsize=8)
    return [save(fig, out_dir, "database-comparison",
                 "Throughput per phase, side by side per database")]
