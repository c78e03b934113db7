"""One row of headline figures per run: what tables, sweeps and comparisons are built on."""

from __future__ import annotations

import math

import polars as pl

from .batched import BATCH_PREFIX, records_table
from .bottleneck import cpu_figures
from .merge import MergedRun, merge_clients
from .model import Run, run_label, workload_operations
from .sides import side_of
from .steady_state import FIGURES, steady_figures
from .tables import frame


def main_operation(merged: MergedRun) -> dict | None:
    """The run's busiest workload operation (OK latencies; model.is_workload_operation).

    A batch operation is preferred: with a binding that cannot batch, BatchedWorkload runs each
    batch as single operations that YCSB also counts (READ/UPDATE/INSERT, ten times as many
    for 10-record batches), but the phase is about the batches.
    """
    ops = merged.operations
    if ops.is_empty():
        return None
    cand = ops.filter(~pl.col("failed") & ~pl.col("intended")
                      & pl.col("structure").is_in(["", "hdrhistogram"])
                      & workload_operations(pl.col("operation")))
    if cand.is_empty():
        return None
    batches = cand.filter(pl.col("operation").str.starts_with(BATCH_PREFIX))
    pool = batches if batches.height else cand
    row = pool.sort("operations", descending=True, maintain_order=True).row(0, named=True)
    return {k: math.nan if v is None else v for k, v in row.items()}


def run_summary(run: Run, merged: MergedRun | None = None, skip: float | None = None) -> dict:
    """The run's headline figures over its steady window (steady_state.py), each with a 95%
    interval, and what the clients and servers spent in CPU (bottleneck.py)."""
    merged = merged or merge_clients(run)
    main = main_operation(merged)
    rec = records_table(run)
    ret = merged.returns
    errors = int(ret.filter((pl.col("status") != "OK") & ~pl.col("intended")
                            & workload_operations(pl.col("operation")))["count"].sum())
    row = {
        "run": run_label(run),
        "scenario": run.scenario,
        "timestamp": run.timestamp,
        "phase": run.phase,
        "phase_index": run.metadata.get("phase_index"),
        "database": run.database,
        "label": run.metadata.get("label", ""),
        "workload": run.metadata.get("workload", ""),
        # the runner's name for phases that belong together (S3's "insert" sweep, say)
        "phase_group": run.metadata.get("phase_group", ""),
        "threads": run.threads,
        "clients": len(run.clients),
        "batchsize": run.batchsize,
        "target": run.target,
        "runtime_ms": merged.overall["runtime_ms"],
        "throughput_ops_per_s": merged.overall["throughput_ops_per_s"],
        "errors": errors,
        "main_operation": main["operation"] if main is not None else None,
        "average_latency_us": main["average_latency_us"] if main is not None else math.nan,
        "p95_latency_us": main.get("p95", math.nan) if main is not None else math.nan,
        "p99_latency_us": main.get("p99", math.nan) if main is not None else math.nan,
        "percentiles_source": main["percentiles_source"] if main is not None else None,
        "records_per_s": math.nan,
        "per_record_latency_us": math.nan,
        "records_source": None,
        "skipped_lines": run.skipped_lines,
    }
    if rec.height:
        row["records_per_s"] = float(rec["records_per_s"].sum())
        top = rec.sort("batches", descending=True, maintain_order=True).row(0, named=True)
        row["per_record_latency_us"] = float(top["per_record_latency_us"] or math.nan)
        row["records_source"] = ",".join(sorted(set(rec["records_source"])))
    row["repeat"] = run.metadata.get("repeat")
    # a two-stage run (run-scenario --precision): its first stage's pairs fix the interval's sd
    row["first_stage"] = (run.metadata.get("trials_design") or {}).get("first_stage")
    # warm trials (run-scenario --trial-servers warm): every trial on one server lifetime
    row["trial_servers"] = (run.metadata.get("start_state") or {}).get("servers")
    side = side_of(run.metadata)
    if side.aa:  # a side of an A/A test (sides.py): which database it really is
        row["aa_database"], row["aa_side"] = side.database, side.aa
        row["aa_changed"] = side.changed
    # YCSB's own figures over the whole run (warm-up climb and shutdown included), kept beside
    # the steady-window figures that replace them
    for f in FIGURES:
        row[f"{f}_whole_run"] = row[f]
    operations = row["throughput_ops_per_s"] * row["runtime_ms"] / 1000.0
    row.update(steady_figures(run, main["metric"] if main is not None else None, skip,
                              batched=rec.height > 0))
    row.update(cpu_figures(run, operations))
    return row


def runs_summary(runs: list[Run], merged: dict[str, MergedRun] | None = None,
                 skip: float | None = None) -> pl.DataFrame:
    """One row per run (:func:`run_summary`)."""
    return frame([run_summary(r, (merged or {}).get(run_label(r)), skip) for r in runs])
