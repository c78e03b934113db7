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

from .model import RECORDS_SUFFIX, Run, workload_operations
from .readers.final_report import float_or_nan

BATCH_PREFIX = "BATCH_"

SCHEMA = {"operation": pl.String, "batches": pl.Float64, "records_ok": pl.Float64,
          "records_not_ok": pl.Float64, "records_per_s": pl.Float64,
          "batch_average_latency_us": pl.Float64, "per_record_latency_us": pl.Float64,
          "batchsize": pl.Int64, "records_source": pl.String}


# The rows of an operation's own batch latencies: not -FAILED, not Intended-, not the
# histogram or raw half of a two-in-one type.
_BATCH_ROWS = ~pl.col("failed") & ~pl.col("intended") & pl.col("structure").is_in(
    ["", "hdrhistogram"])


def _batched_operations(run: Run) -> list[str]:
    mine = _BATCH_ROWS & workload_operations(pl.col("operation"))
    ops = list(dict.fromkeys(op for c in run.clients
                             for op in c.output.summary.filter(mine)["operation"].to_list()))
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
        batches = weighted_latency = ok_total = not_ok_total = rate = 0.0
        recorded = False
        for c in run.clients:
            me = c.output.summary.filter((pl.col("operation") == op) & _BATCH_ROWS)
            if me.is_empty():
                continue
            n = float(me["operations"].fill_null(0)[0])
            avg = float_or_nan(me["average_latency_us"][0])
            rec = c.output.returns.filter((pl.col("operation") == op + RECORDS_SUFFIX)
                                          & ~pl.col("intended"))
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
            runtime_s = c.output.overall["runtime_ms"] / 1000.0
            if runtime_s > 0:
                rate += ok / runtime_s
        # (not recorded and a batchsize of 1: nothing says how many records a batch holds)
        if batches == 0 or (not recorded and run.batchsize <= 1):
            continue
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
