"""HdrHistogram percentile curves on a logit axis (the hdr-plot view)."""

from __future__ import annotations

from pathlib import Path

from ..hdr_logs import merge_histograms, percentile_curve
from ..loader import Run, run_label
from .common import Chart, new_figure, save


def percentile_curves(runs: list[Run], out_dir: Path) -> list[Chart]:
    """Latency by percentile from each run's merged .hdr logs, one panel per operation."""
    curves: dict[str, dict[str, object]] = {}
    for r in runs:
        metrics = sorted({m for c in r.clients for m in c.hdr_logs})
        for metric in metrics:
            if metric.startswith("CLEANUP") or metric.endswith("-RECORDS") or metric.startswith("Intended-"):
                continue
            logs = [c.hdr_logs[metric] for c in r.clients if metric in c.hdr_logs]
            h = merge_histograms([log.total() for log in logs])
            if h.total_count == 0:
                continue
            curves.setdefault(metric, {})[run_label(r)] = percentile_curve(h)
    if not curves:
        return []
    fig, axes = new_figure(len(curves))
    for ax, (metric, by_run) in zip(axes, curves.items()):
        for label, df in by_run.items():
            ax.plot(df["percentile"] / 100.0, df["latency_us"], label=label)
        ax.set_xscale("logit")
        ax.set_yscale("log")
        ax.set_title(metric)
        ax.set_xlabel("percentile (logit scale)")
        ax.set_ylabel("latency (µs, log)")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7, loc="upper left")
    return [save(fig, out_dir, "latency-percentile-curve",
                 "HdrHistogram latency by percentile (all clients' .hdr logs merged)")]
