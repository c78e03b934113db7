"""HdrHistogram percentile curves on a logit axis (the hdr-plot view): ticks read 90 %,
99 %, 99.9 %, ...; each curve runs up to and including its maximum, named in the legend;
intended latency (``Intended-``, under ``-target``) dashed beside the service latency."""

from __future__ import annotations

from pathlib import Path

from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from ..hdr_logs import merge_histograms, percentile_curve, percentiles
from ..model import Run, is_workload_operation, run_label
from ..readers.final_report import split_metric
from .common import Chart, legend_beside, new_figure, plain_log_labels, run_colors, save


def percentile_label(fraction: float) -> str:
    """0.999 → ``99.9%``; 0.5 → ``50%`` (tick labels of the logit axis)."""
    text = f"{fraction * 100:.6f}".rstrip("0").rstrip(".")
    return f"{text}%"


def percentile_ticks(highest: float, lowest: float = 0.5) -> list[float]:
    """(1 %, 10 %,) 50 %, 90 %, 99 %, ... from ``lowest`` to the first beyond ``highest``."""
    ticks = [t for t in (0.01, 0.1) if t >= lowest * 0.999] + [0.5, 0.9]
    while ticks[-1] < highest and len(ticks) < 10:
        ticks.append(1 - (1 - ticks[-1]) / 10)
    return ticks


def set_percentile_axis(ax, highest: float, lowest: float = 0.5) -> None:
    """A logit x axis ticked in per cent, ``lowest`` (0.1 % to 50 %) to just past ``highest``."""
    ax.set_xscale("logit")
    left = min(max(lowest, 0.001), 0.5)
    ticks = percentile_ticks(highest, left)
    ax.set_xlim(left * 0.9, 1 - (1 - ticks[-1]) / 2)
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: percentile_label(v)))
    ax.xaxis.set_minor_locator(NullLocator())


def percentile_curves(runs: list[Run], out_dir: Path) -> list[Chart]:
    """Latency by percentile from each run's merged .hdr logs, one panel per operation."""
    curves: dict[str, dict[str, tuple]] = {}
    for r in runs:
        for metric in sorted({m for c in r.clients for m in c.hdr_logs}):
            if not is_workload_operation(split_metric(metric).operation):
                continue
            logs = [c.hdr_logs[metric] for c in r.clients if metric in c.hdr_logs]
            h = merge_histograms([log.total() for log in logs])
            if h.total_count == 0:
                continue
            intended = metric.startswith("Intended-")
            panel = metric[len("Intended-"):] if intended else metric
            key = f"{run_label(r)}{' intended' if intended else ''}"
            curves.setdefault(panel, {})[key] = (percentile_curve(h),
                                                 percentiles(h, ())["max_latency_us"],
                                                 h.total_count, intended)
    if not curves:
        return []
    most = max(len(v) for v in curves.values())
    fig, axes = new_figure(len(curves), legend_entries=most)
    colors = run_colors([k.removesuffix(" intended") for by_run in curves.values() for k in by_run])
    any_intended = False
    for ax, (metric, by_run) in zip(axes, curves.items()):
        highest, lowest = 0.9, 0.5
        for label, (df, mx, total, intended) in by_run.items():
            any_intended |= intended
            p, us = df["percentile"].to_numpy() / 100.0, df["latency_us"].to_numpy()
            line, = ax.plot(p, us, "--" if intended else "-",
                            color=colors[label.removesuffix(" intended")],
                            label=f"{label} (max {mx:,.0f} µs, {total:,} ops)")
            ax.plot(p[-1], us[-1], "o", color=line.get_color(), markersize=4)
            highest, lowest = max(highest, float(p[-1])), min(lowest, float(p[0]))
        set_percentile_axis(ax, highest, lowest)
        ax.set_yscale("log")
        plain_log_labels(ax.yaxis)
        ax.set_title(metric)
        ax.set_xlabel("percentile (logit scale); the dot is the maximum")
        ax.set_ylabel("latency (µs, log)")
        ax.grid(alpha=0.3, which="both")
        legend_beside(ax)
    title = "Latency by percentile (HdrHistogram, all clients' .hdr logs merged)"
    if any_intended:
        title += "; dashed: intended latency"
    return [save(fig, out_dir, "latency-percentile-curve", title)]
