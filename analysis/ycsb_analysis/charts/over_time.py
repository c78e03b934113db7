"""Charts over the run's time axis: throughput, latency percentiles, errors."""

from __future__ import annotations

from pathlib import Path

from .. import timeseries
from ..loader import Run, run_label
from .common import Chart, new_figure, save


def _data_operations(frames: dict[str, "object"]) -> list[str]:
    ops: list[str] = []
    for df in frames.values():
        if df.empty or "failed" not in df:
            continue
        for op in df.loc[~df["failed"].astype(bool), "operation"].unique():
            if op not in ops and not op.endswith("-RECORDS"):
                ops.append(op)
    return ops


def throughput_over_time(runs: list[Run], out_dir: Path) -> list[Chart]:
    """Throughput per operation over time, one panel per operation, runs overlaid; batch
    operations in records/s (their batches/s × records per batch), the rest in ops/s."""
    frames = {run_label(r): timeseries.operation_throughput(r) for r in runs}
    records = {run_label(r): timeseries.record_throughput(r) for r in runs}
    ops = _data_operations(frames)
    if not ops:
        return []
    fig, axes = new_figure(len(ops))
    for ax, op in zip(axes, ops):
        units = set()
        for label, df in frames.items():
            rec = records[label]
            rec = rec[rec["operation"] == op]
            if not rec.empty:
                ax.plot(rec["t_s"], rec["records_per_s"], marker=".",
                        label=f"{label} ({rec['records_per_batch'].iloc[0]:.3g} records/batch)")
                units.add("records/s")
                continue
            d = df[(df["operation"] == op) & ~df["failed"].astype(bool)] if not df.empty else df
            if not d.empty:
                ax.plot(d["t_s"], d["ops_per_s"], marker=".", label=label)
                units.add("ops/s")
        ax.set_title(f"{op} (records/s)" if units == {"records/s"} else op)
        ax.set_xlabel("time since start (s)")
        ax.set_ylabel(f"throughput ({'; '.join(sorted(units, reverse=True))})")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    return [save(fig, out_dir, "throughput-over-time",
                 "Throughput over time per operation (clients summed; batch operations in records/s)")]


def latency_over_time(runs: list[Run], out_dir: Path, percentile: str = "p99") -> list[Chart]:
    """Per-interval latency percentiles over time (log axis), one panel per operation.

    A run of several clients is drawn from its clients' merged .hdr logs when every client
    has them; otherwise per client (per-interval percentiles cannot be combined).
    """
    frames = {run_label(r): timeseries.latency_over_time(r) for r in runs}
    merged = {run_label(r): timeseries.merged_latency_over_time(r) if len(r.clients) > 1 else None for r in runs}
    ops = _data_operations(frames)
    if not ops:
        return []
    fig, axes = new_figure(len(ops))
    drew = False
    shown = []  # the percentiles really drawn, for an honest title
    for ax, op in zip(axes, ops):
        for label, df in frames.items():
            m = merged[label]
            if m is not None and not m.empty:
                dm = m[(m["operation"] == op) & ~m["failed"].astype(bool)]
                if not dm.empty:
                    for col, style in (("p50", ":"), (percentile, "-"), ("p99.9", "--")):
                        ax.plot(dm["t_s"], dm[col], style, marker=".", label=f"{label} {col} (clients merged)")
                        shown.append(col)
                    drew = True
                    continue
            if df.empty:
                continue
            d = df[(df["operation"] == op) & ~df["failed"].astype(bool)]
            if d.empty:
                continue
            many = d["client"].nunique() > 1
            for client, dc in d.groupby("client"):
                suffix = f" client {client}" if many else ""
                for col, style in (("p50", ":"), (percentile, "-"), ("p99.9", "--")):
                    if col in dc and dc[col].notna().any():
                        ax.plot(dc["t_s"], dc[col], style, marker=".", label=f"{label}{suffix} {col}")
                        shown.append(col)
                        drew = True
                if not (percentile in dc and dc[percentile].notna().any()):
                    ax.plot(dc["t_s"], dc["average_latency_us"], "-", marker=".", label=f"{label}{suffix} average")
                    shown.append("average")
                    drew = True
        ax.set_yscale("log")
        ax.set_title(op)
        ax.set_xlabel("time since start (s)")
        ax.set_ylabel("latency (µs, log)")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=6, loc="best", ncol=2)
    if not drew:
        return []
    drawn = ", ".join(dict.fromkeys(shown))
    return [save(fig, out_dir, "latency-over-time",
                 f"Latency per status interval ({drawn}; several clients merged from their "
                 ".hdr logs, else per client)")]


def errors_over_time(runs: list[Run], out_dir: Path) -> list[Chart]:
    """Failed operations per second over time, by operation and status."""
    frames = {run_label(r): timeseries.errors_over_time(r) for r in runs}
    frames = {k: v for k, v in frames.items() if not v.empty and v["errors_per_s"].sum() > 0}
    if not frames:
        return []
    fig, axes = new_figure(1, panel_height=4.0)
    ax = axes[0]
    for label, df in frames.items():
        for (op, status), d in df.groupby(["operation", "status"]):
            ax.plot(d["t_s"], d["errors_per_s"], marker=".", label=f"{label} {op} {status}")
    ax.set_xlabel("time since start (s)")
    ax.set_ylabel("failed operations (ops/s)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="best", ncol=2)
    return [save(fig, out_dir, "errors-over-time", "Errors by operation and status over time")]
