"""Records per second and per-record latency of batched phases.

The project's batched workloads measure one batch as ONE YCSB operation (``BATCH_READ``,
``BATCH_INSERT``, ``BATCH_UPDATE``; latency per batch) and report every record the batch
touched as a status of the companion metric ``<OP>-RECORDS``::

    [BATCH_READ], Operations, 1407
    [BATCH_READ], AverageLatency(us), 4143.020611229566
    [BATCH_READ-RECORDS], Operations, 0
    [BATCH_READ-RECORDS], Return=OK, 13353
    [BATCH_READ-RECORDS], Return=NOT_FOUND, 717

so, per client, records/s = OK records / RunTime(s), and per-record latency = batch average
latency × batches / OK records (the companion block's own ``Operations, 0`` and latencies
are meaningless and ignored). Clients' records/s add up like throughput.

Without a ``-RECORDS`` block the records are estimated as batches × ``batchsize`` (from
metadata, or ``--batchsize`` for plain files such as the seed's 100-record HBase batches)
and ``records_source`` says ``batchsize`` instead of ``recorded``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .model import RECORDS_SUFFIX, Run, is_workload_operation

BATCH_PREFIX = "BATCH_"

SCHEMA = {"operation": pl.String, "batches": pl.Float64, "records_ok": pl.Float64,
          "records_not_ok": pl.Float64, "records_per_s": pl.Float64,
          "batch_average_latency_us": pl.Float64, "per_record_latency_us": pl.Float64,
          "batchsize": pl.Int64, "records_source": pl.String}


def _batched_operations(run: Run) -> list[str]:
    ops: list[str] = []
    for c in run.clients:
        s = c.output.summary
        for op, failed, intended, structure in s.select(
            "operation", "failed", "intended", "structure"
        ).rows():
            if (
                failed
                or intended
                or structure in ("histogram", "raw")
                or not is_workload_operation(op)
            ):
                continue
            if op not in ops:
                ops.append(op)
    named = [op for op in ops if op.startswith(BATCH_PREFIX)]
    if named:
        return named
    # A plain file or phase that says it is batched but uses ordinary op names (the seed's
    # patched HBase client counts one 100-record put as one INSERT).
    return ops if run.batchsize > 1 else []


def records_table(run: Run) -> pl.DataFrame:
    """One row per batched operation of ``run``; empty when the run is not batched."""
    rows = []
    for op in _batched_operations(run):
        batches = 0.0
        weighted_latency = 0.0
        ok_total = 0.0
        not_ok_total = 0.0
        rate = 0.0
        recorded = False
        for c in run.clients:
            s = c.output.summary
            me = s.filter((pl.col("operation") == op) & ~pl.col("failed") & ~pl.col("intended")
                          & pl.col("structure").is_in(["", "hdrhistogram"]))
            if me.is_empty():
                continue
            n = float(me["operations"].fill_null(0)[0])
            avg = me["average_latency_us"][0]
            avg = np.nan if avg is None else float(avg)
            ret = c.output.returns
            rec = ret.filter((pl.col("operation") == op + RECORDS_SUFFIX) & ~pl.col("intended"))
            runtime_s = c.output.overall["runtime_ms"] / 1000.0
            if rec.height:
                recorded = True
                ok = float(rec.filter(pl.col("status") == "OK")["count"].sum())
                not_ok = float(rec.filter(pl.col("status") != "OK")["count"].sum())
            else:
                ok, not_ok = n * run.batchsize, 0.0
            batches += n
            if not np.isnan(avg):
                weighted_latency += avg * n
            ok_total += ok
            not_ok_total += not_ok
            if runtime_s > 0:
                rate += ok / runtime_s
        if batches == 0:
            continue
        if not recorded and run.batchsize <= 1:
            continue  # nothing says how many records a batch holds
        rows.append({
            "operation": op,
            "batches": batches,
            "records_ok": ok_total,
            "records_not_ok": not_ok_total,
            "records_per_s": rate,
            "batch_average_latency_us": weighted_latency / batches,
            "per_record_latency_us": weighted_latency / ok_total if ok_total else np.nan,
            "batchsize": run.batchsize,
            "records_source": "recorded" if recorded else "batchsize",
        })
    return pl.DataFrame(rows, schema=SCHEMA).fill_nan(None)
