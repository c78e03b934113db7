"""What the servers did during a phase: the runner's ``<phase>/servers.csv``, as a tidy table.

The runner samples every server while a phase runs (scripts: ``bin/ycsb servers -watch`` for
what the database exposes, /proc for the local processes) and writes one row per sample
(``t_ms,node,metric,value``, e.g. ``1795385384846,127.0.0.41,compactions_total,3``). Metrics
ending in ``_total`` are counters as the server reports them; the table adds each interval's
increase (``delta``) and rate per second (``per_s``); the others (``pending_*``) are gauges, as
they are. ``t_s`` is seconds on the phase's own time axis, the one its throughput is drawn on
(status time 0: the clients' start), so the two line up in the servers' chart.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import polars as pl

from .layout import SERVERS_FILE as FILE
from .model import Run
from .timeseries import hdr_origin

SCHEMA = {"scenario": pl.String, "timestamp": pl.String, "phase": pl.String,
          "database": pl.String, "node": pl.String, "metric": pl.String, "t_ms": pl.Int64,
          "t_s": pl.Float64, "value": pl.Float64, "delta": pl.Float64, "per_s": pl.Float64}
# metric -> (panel, unit shown, factor applied to its rate per second)
PANELS = {
    "cpu_ms_total": ("CPU", "cores busy", 1e-3),
    "gc_pause_ms_total": ("GC pauses", "ms paused per s", 1.0),
    "flushes_total": ("flushes and compactions", "completed per s", 1.0),
    "compactions_total": ("flushes and compactions", "completed per s", 1.0),
    "flushed_bytes_total": ("bytes flushed and compacted", "MB/s", 1e-6),
    "compacted_bytes_total": ("bytes flushed and compacted", "MB/s", 1e-6),
    "pending_compactions": ("pending compactions", "tasks", None),
    "disk_read_bytes_total": ("disk", "MB/s", 1e-6),
    "disk_write_bytes_total": ("disk", "MB/s", 1e-6),
}


def read(path: Path) -> pl.DataFrame:
    """One ``servers.csv`` (``t_ms,node,metric,value``), sorted by node, metric and time."""
    frame = pl.read_csv(path, schema_overrides={"node": pl.String, "metric": pl.String,
                                                "t_ms": pl.Int64, "value": pl.Float64})
    missing = {"t_ms", "node", "metric", "value"} - set(frame.columns)
    if missing:
        raise ValueError(f"{path}: no column {', '.join(sorted(missing))} (expected "
                         "t_ms,node,metric,value as the runner writes it)")
    return frame.sort("node", "metric", "t_ms", maintain_order=True)


def origin_s(run: Run) -> float:
    """Epoch seconds of the phase's status time 0; the runner's start time without .hdr logs."""
    logs = [log for c in run.clients for log in c.hdr_logs.values()]
    if logs:
        return hdr_origin(run, logs)
    return datetime.fromisoformat(str(run.metadata["start_time"])).timestamp()


def phase_table(run: Run) -> pl.DataFrame:
    """The servers' samples of one phase with their increases and rates (empty: none taken)."""
    path = Path(run.path) / FILE
    if not path.is_file():
        return pl.DataFrame(schema=SCHEMA)
    series = ("node", "metric")
    df = read(path)
    # (numpy divides: polars may multiply by 1/1000, a last digit apart at epoch times)
    df = df.with_columns(t_s=pl.Series(df["t_ms"].to_numpy() / 1000.0 - origin_s(run)))
    df = df.with_columns(
        delta=pl.when(pl.col("metric").str.ends_with("_total"))
        .then(pl.col("value").diff().over(series)))
    return df.with_columns(
        per_s=pl.col("delta") / pl.col("t_s").diff().over(series),
        **{k: pl.lit(getattr(run, k), pl.String) for k in ("scenario", "timestamp", "phase",
                                                            "database")},
    ).select(*SCHEMA).fill_nan(None)


def readable_table(run: Run, unused: list[str] | None = None) -> pl.DataFrame:
    """phase_table, empty when the file cannot be read (then named in ``unused`` if given)."""
    try:
        return phase_table(run)
    except (ValueError, pl.exceptions.PolarsError) as e:
        if unused is not None:
            unused.append(f"{FILE} not used: {str(e).splitlines()[0]}")
        return pl.DataFrame(schema=SCHEMA)


def servers_table(runs: list[Run]) -> pl.DataFrame:
    """Every phase's servers' samples, one tidy table (the report's servers.csv); a phase's
    file that cannot be read is named in its run's ``unused``."""
    return pl.concat([readable_table(r, r.unused) for r in runs] or [pl.DataFrame(schema=SCHEMA)])
