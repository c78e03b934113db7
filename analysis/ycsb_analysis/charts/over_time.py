"""Charts over the run's time axis: throughput, latency percentiles, errors, and the
per-interval / per-operation latency of the ``timeseries`` and ``raw`` measurement types."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl

from .. import timeseries
from ..model import Run, is_workload_operation, run_label
from ..readers.final_report import split_metric
from .common import Chart, save
from .lines import (
    VECTOR_SUMMARY_LINES,
    Line,
    colors_of,
    draw,
    hidden_note,
    one_two_five_grid,
    vector_unless_many,
)

# Beyond this many runs, latency over time draws one percentile per run (else three each):
# 40 runs × 3 lines is no chart a reader can follow.
MANY_RUNS = 4
# Raw datapoints drawn per operation at most (evenly thinned beyond, the title says so);
# every datapoint is summed up per second in raw-intervals.csv.
MAX_RAW_POINTS = 20_000


def throughput_over_time(runs: list[Run], out_dir: Path) -> list[Chart]:
    """Throughput per operation over time, one panel per operation, runs overlaid; batch
    operations in records/s (their batches/s × records per batch), the rest in ops/s."""
    # each operation's throughput rows (time, ops/s) that are not failures, per run
    per_run = {run_label(r): {op: g for (op,), g in timeseries.operation_throughput(r)
                              .filter(~pl.col("failed")).group_by("operation", maintain_order=True)}
               for r in runs}
    records = {run_label(r): timeseries.record_throughput(r) for r in runs}
    ops = list(dict.fromkeys(op for lines in per_run.values() for op in lines))
    if not ops:
        return []
    lines, units = [], {}
    for op in ops:
        for label, by_op in per_run.items():
            rec = records[label].filter(pl.col("operation") == op)
            if rec.height:
                lines.append(Line(op, f"{label} ({rec['records_per_batch'][0]:.3g} records/batch)",
                                  _floats(rec["t_s"]), _floats(rec["records_per_s"]), key=label))
                units.setdefault(op, set()).add("records/s")
            elif op in by_op:
                lines.append(Line(op, label, _floats(by_op[op]["t_s"]),
                                  _floats(by_op[op]["ops_per_s"]), key=label))
                units.setdefault(op, set()).add("ops/s")
    ylabel = {op: f"throughput ({'; '.join(sorted(u, reverse=True))})" for op, u in units.items()}
    titles = {op: f"{op} (records/s)" if u == {"records/s"} else op for op, u in units.items()}
    fig = draw(vector_unless_many(lines), ylabel, panel_titles=titles)
    shaded = _shade_warmups(fig, lines, runs)
    # (the figure's title on two lines when shaded, one being too wide; the report's on one)
    chart = save(fig, out_dir, "throughput-over-time",
                 "Throughput over time per operation (clients summed; batch operations in "
                 "records/s)" + ("\nshaded in a run's colour: its warm-up, not in any summary "
                                 "figure" if shaded else ""))
    return [replace(chart, title=chart.title.replace("\n", "; "))]


def _shade_warmups(fig, lines: list[Line], runs: list[Run]) -> bool:
    """Shade each run's warm-up (the runner's, before the measured part: shown, never
    summarised; a load or a short phase has none) in its colour where the run has a line;
    whether anything was shaded."""
    ends = {
        run_label(r): float(r.metadata["warmup"]["end_s"])
        for r in runs
        if isinstance(r.metadata.get("warmup"), dict) and r.metadata["warmup"].get("end_s")
    }
    colors = colors_of(lines)
    panels = list(dict.fromkeys(line.panel for line in lines))
    shaded = False
    for ax, panel in zip(fig.axes, panels):
        for key in dict.fromkeys(line.key for line in lines if line.panel == panel):
            if key in ends:
                ax.axvspan(0, ends[key], color=colors[key], alpha=0.12, linewidth=0)
                shaded = True
    return shaded


def latency_over_time(runs: list[Run], out_dir: Path, percentile: str = "p99") -> list[Chart]:
    """Per-interval latency percentiles over time (log axis), one panel per operation;
    intended latency (``Intended-``, under ``-target``) dashed beside service latency.

    A run of several clients is drawn from its clients' merged .hdr logs when every client
    has them; otherwise per client (per-interval percentiles cannot be combined). With more
    than :data:`MANY_RUNS` runs only ``percentile`` is drawn, one line per run.
    """
    copied = ["average_latency_us", "p50", percentile, "p99.9"]   # the columns drawn
    service = {run_label(r): timeseries.latency_lines(r, False, copied) for r in runs}
    intended = {run_label(r): timeseries.latency_lines(r, True, copied) for r in runs}
    merged = {run_label(r): timeseries.merged_latency_over_time(r) if len(r.clients) > 1
              else None for r in runs}
    ops = list(dict.fromkeys(op for by_op in service.values() for op in by_op))
    if not ops:
        return []
    wanted = (percentile,) if len(runs) > MANY_RUNS else ("p50", percentile, "p99.9")
    styles = {"p50": ":", percentile: "-", "p99.9": "--"}
    lines: list[Line] = []
    shown: list[str] = []
    for op in ops:
        for label in service:
            m = merged[label]
            if m is not None and m.height:
                dm = m.filter((pl.col("operation") == op) & ~pl.col("failed"))
                if dm.height:
                    lines += [Line(op, f"{label} {col} (clients merged)", _floats(dm["t_s"]),
                                   _floats(dm[col]), styles[col], key=label) for col in wanted]
                    shown += wanted
                    continue
            for by_client, suffix in ((service[label].get(op, []), ""),
                                      (intended[label].get(op, []), " intended")):
                many = len({client for client, _, _ in by_client}) > 1
                for client, t_s, values in sorted(by_client, key=lambda c: c[0]):
                    who = f"{label}{f' client {client}' if many else ''}"
                    drew = [col for col in wanted
                            if col in values and not np.isnan(values[col]).all()]
                    lines += [Line(op, f"{who} {col}{suffix}", t_s, values[col],
                                   "-." if suffix else styles[col], key=who) for col in drew]
                    shown += [col + suffix for col in drew]
                    if not drew:
                        lines.append(Line(op, f"{who} average{suffix}", t_s,
                                          values["average_latency_us"],
                                          "-." if suffix else "-", key=who))
                        shown.append("average" + suffix)
    if not lines:
        return []
    fig = draw(vector_unless_many(lines), {op: "latency (µs, log)" for op in ops}, log=True)
    one_two_five_grid(fig)
    drawn = ", ".join(dict.fromkeys(shown))
    return [save(fig, out_dir, "latency-over-time",
                 f"Latency per status interval ({drawn}; several clients merged from their "
                 f".hdr logs, else per client{hidden_note(fig)})")]


def measured_latency_over_time(runs: list[Run], out_dir: Path) -> list[Chart]:
    """What ``measurementtype=timeseries`` and ``raw`` record over time: the average latency
    of each ``timeseries.granularity`` interval (lines) and every raw datapoint (dots), one
    panel per operation; ``Intended-`` series beside the service ones."""
    lines: list[Line] = []
    thinned = summed = False
    for r in runs:
        label = run_label(r)
        many = len(r.clients) > 1
        for c in r.clients:
            who = f"{label}{f' client {c.index}' if many else ''}"
            for panel, intended, g in _by_operation(c.output.timeseries):
                g = g.sort("time_ms", maintain_order=True)
                lines.append(Line(panel, f"{who} average per interval{intended}",
                                  _floats(g["time_ms"]) / 1000.0,
                                  _floats(g["average_latency_us"]),
                                  "--" if intended else "-", key=f"{who} average{intended}"))
            raw = c.output.raw_datapoints
            if raw.is_empty() and c.output.raw_total:
                # Rows let go while reading (a long raw run): the per-second summary
                # instead, median and maximum of each second.
                lines += _summary_lines(c.output.raw_summary, who)
                summed = True
            t0 = float(raw["timestamp_ms"].min()) if raw.height else 0.0
            for panel, intended, g in _by_operation(raw):
                if g.height > MAX_RAW_POINTS:
                    g = g[np.linspace(0, g.height - 1, MAX_RAW_POINTS).astype(int).tolist()]
                    thinned = True
                lines.append(Line(panel, f"{who} each operation{intended}",
                                  (_floats(g["timestamp_ms"]) - t0) / 1000.0,
                                  _floats(g["latency_us"]), "", ",",
                                  key=f"{who} each{intended}"))
    if not lines:
        return []
    per_second = [line for line in lines if line.raster is False]
    if len(per_second) > VECTOR_SUMMARY_LINES:
        for line in per_second:   # many clients: pixels, as any long line
            line.raster = None
    panels = list(dict.fromkeys(line.panel for line in lines))
    fig = draw(lines, {p: "latency (µs, log)" for p in panels}, log=True, scatter=True)
    one_two_five_grid(fig)
    # the figure's title on two lines (one is wider than the figure); the report's on one
    how = (f"{f'; thinned to {MAX_RAW_POINTS:,} per panel' if thinned else ''}"
           f"{'; long raw runs as median and maximum per second' if summed else ''}")
    chart = save(fig, out_dir, "measured-latency-over-time",
                 "Latency over time from measurementtype=timeseries (average per interval) and "
                 f"raw\n(each operation{how}{hidden_note(fig)})")
    return [replace(chart, title=chart.title.replace("\n", " "))]


def _floats(column: pl.Series) -> np.ndarray:
    """A column for drawing: floats, a missing value NaN."""
    return column.cast(pl.Float64).fill_null(np.nan).to_numpy()


def _by_operation(frame: pl.DataFrame):
    """``(panel, " (intended)" or "", rows)`` of each workload operation's metric of
    ``frame``; the panel is the operation, its failures apart."""
    for (metric,), g in frame.group_by("metric", maintain_order=True):
        name = split_metric(metric)
        if is_workload_operation(name.operation):
            yield (name.operation + (" failed" if name.failed else ""),
                   " (intended)" if name.intended else "", g)


def _summary_lines(summary, who: str) -> list[Line]:
    """Median and maximum per second of a raw run's summary (``readers.raw``)."""
    out = []
    t0 = float(summary["interval_start_ms"].min()) if summary.height else 0.0
    for panel, intended, g in _by_operation(summary):
        t = (_floats(g["interval_start_ms"]) - t0) / 1000.0
        for column, what, style in (("p50", "median", "--" if intended else "-"),
                                    ("max_latency_us", "max", ":")):
            # one point a second: thinned when drawn, a vector path (see VECTOR_SUMMARY_LINES)
            out.append(Line(panel, f"{who} {what} per second{intended}", t,
                            _floats(g[column]), style, key=f"{who} {what}{intended}",
                            raster=False))
    return out


def errors_over_time(runs: list[Run], out_dir: Path) -> list[Chart]:
    """Failed operations per second over time, by operation and status."""
    lines = []
    for r in runs:
        df = timeseries.errors_over_time(r)
        if df["errors_per_s"].sum() > 0:   # (no lines when no error was counted)
            lines += [Line(f"{op} {status}", run_label(r), _floats(d["t_s"]),
                           _floats(d["errors_per_s"]), key=run_label(r))
                      for (op, status), d in sorted(df.group_by(["operation", "status"]))]
    if not lines:
        return []
    panels = list(dict.fromkeys(line.panel for line in lines))
    fig = draw(vector_unless_many(lines), {p: "failed operations (ops/s)" for p in panels})
    return [save(fig, out_dir, "errors-over-time", "Errors by operation and status over time")]

