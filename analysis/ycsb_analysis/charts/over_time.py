"""Charts over the run's time axis: throughput, latency percentiles, errors, and the
per-interval / per-operation latency of the ``timeseries`` and ``raw`` measurement types."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib import rcParams
from matplotlib.collections import PolyCollection
from matplotlib.ticker import LogLocator

from .. import free_memory, timeseries
from ..loader import Run, run_label
from ..report_parser import split_metric
from ..text_codes import holds_objects, value_codes
from .common import Chart, legend_beside, new_figure, plain_log_labels, run_colors, save

# Beyond this many runs, latency over time draws one percentile per run (else three each):
# 40 runs × 3 lines is no chart a reader can follow.
MANY_RUNS = 4
# Raw datapoints drawn per operation at most (evenly thinned beyond, the title says so);
# every datapoint is summed up per second in raw-intervals.csv.
MAX_RAW_POINTS = 20_000


# A line of more points than twice this is drawn from the lowest and highest value of each of
# this many slices of it (a spike stays visible; a panel is ~1,000 pixels wide); the data files
# keep every point.
DRAWN_SLICES = 1_000
# A line of at most this many points marks each one; beyond, markers would only blot the line
# (and drawing thousands of them is most of a long run's chart time).
MARKED_UP_TO = 300
# Lines and scatters of more points than this are rasterized inside the SVG (unless a chart
# says otherwise: see VECTOR_SUMMARY_LINES).
RASTER_ABOVE = 5_000
# A long run's lines — a raw run's per-second median and maximum, a status log's throughput,
# errors and latency — stay vector paths in the SVG up to this many lines in a chart (each
# drawn from at most 2 × DRAWN_SLICES points, ~40 kB of SVG): cheaper to write than pixels
# (a rasterized line costs the SVG a second Agg drawing, ~0.25 s a chart), and sharp.
VECTOR_SUMMARY_LINES = 40
# A line of more points than this gives its memory back to the system once prepared for
# drawing (:func:`_prepared`; a few ms each time).
RELEASE_AFTER_POINTS = 1_000_000


def _slice_extremes(
    x: np.ndarray, y: np.ndarray, slices: int
) -> tuple[np.ndarray, np.ndarray]:
    """Of each of ``slices`` slices of a line of more than ``2 × slices`` points, the index of
    its first point at its lowest value and of its last point at its highest (one each, in
    slice order).

    Missing values count only where a whole slice is missing (both indexes are then missing
    points: a gap in the line); a slice with values is drawn by them, as the eye would see a
    gap narrower than a slice anyway."""
    n = len(y)
    # Slice k is the points i with i × slices // n == k: it starts at ⌈k × n / slices⌉.
    starts = -(-np.arange(slices) * n // slices)
    lengths = np.diff(starts, append=n)
    nan = np.isnan(y)
    if nan.any():   # a missing value is never a slice's extreme unless all of it is missing
        low_key, high_key = np.where(nan, np.inf, y), np.where(nan, -np.inf, y)
    else:
        low_key = high_key = y
    del nan

    def extreme(key, reduce, last: bool) -> np.ndarray:
        # each slice's first (last) point at the slice's extreme value
        at = np.flatnonzero(key == np.repeat(reduce.reduceat(key, starts), lengths))
        of_slice = at * slices // n
        if last:
            return at[np.flatnonzero(np.diff(of_slice, append=slices))]
        return at[np.flatnonzero(np.diff(of_slice, prepend=-1))]

    return extreme(low_key, np.minimum, last=False), extreme(high_key, np.maximum, last=True)


def _thinned_for_drawing(
    x: np.ndarray, y: np.ndarray, slices: int = DRAWN_SLICES
) -> tuple[np.ndarray, np.ndarray]:
    """At most ``2 × slices`` points of the line, in order: each slice's minimum and maximum
    (:func:`_slice_extremes`)."""
    if len(y) <= 2 * slices:
        return x, y
    keep = np.union1d(*_slice_extremes(x, y, slices))
    return x[keep], y[keep]


def _envelope_for_drawing(
    x: np.ndarray, y: np.ndarray, slices: int = DRAWN_SLICES
) -> list[np.ndarray] | None:
    """A long line as the outline of the band its thinned points span: per run of slices with
    values, one polygon (``(k, 2)`` vertices) along the slices' highest points and back along
    their lowest; None when the line is short enough to be drawn whole.

    The same points as :func:`_thinned_for_drawing`, joined as a band's edge instead of a
    zigzag between each slice's low and high: at ~1 slice a pixel the zigzag paints that band
    too, but its stroke runs the band's height twice a slice, and rendering it was most of a
    long run's chart time (~50–120 ms a line at 110 dpi, ~3× the band's). Where ``x`` goes
    back (one operation's lines of two metrics, e.g. ``READ`` and ``HdrREAD``, one after the
    other) each part is its own band; when a part is short, None (the line is drawn)."""
    bounds = [0, *(np.flatnonzero(np.diff(x) < 0) + 1).tolist(), len(x)]
    parts = list(zip(bounds[:-1], bounds[1:]))   # (views below, not copies of a long line)
    if any(b - a <= 2 * slices for a, b in parts):
        return None
    polygons = []
    for a, b in parts:
        px, py = x[a:b], y[a:b]
        low, high = _slice_extremes(px, py, slices)
        present = ~np.isnan(py[low])
        # runs of consecutive slices with values: [first, end) of each
        edges = np.diff(np.concatenate([[False], present, [False]]).astype(np.int8))
        for first, end in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)):
            hi, lo = high[first:end], low[first:end][::-1]
            polygons.append(np.column_stack([np.concatenate([px[hi], px[lo]]),
                                             np.concatenate([py[hi], py[lo]])]))
    return polygons


@dataclass
class _Drawing:
    """What :func:`_draw` draws of a line: how many of its values a log axis hides (≤ 0), how
    many points it has without them, and its band (:func:`_envelope_for_drawing`) or its
    thinned points (:func:`_thinned_for_drawing`; a scatter's: all)."""

    log: bool
    whole: bool   # (a scatter's dots, all of them)
    hidden: int
    n: int
    band: list[np.ndarray] | None
    x: np.ndarray
    y: np.ndarray


@dataclass
class _Line:
    panel: str
    label: str
    x: np.ndarray | None   # (None once :func:`_prepared`)
    y: np.ndarray | None
    style: str = "-"
    marker: str | None = "."
    key: str = ""  # lines of one run (and client) share a colour: service and intended alike
    # Drawn as pixels inside the SVG? None: when the line has over RASTER_ABOVE points.
    raster: bool | None = None
    drawing: _Drawing | None = None   # set by _prepared


def _drawing(line: _Line, log: bool, scatter: bool = False) -> _Drawing:
    x, y, hidden = line.x, line.y, 0
    if log:  # a log axis cannot show values <= 0: counted and said in the title
        keep = ~(np.asarray(y, dtype=float) <= 0)
        hidden = int((~keep).sum())
        x, y = np.asarray(x)[keep], np.asarray(y)[keep]
    n = len(y)
    if line.marker == "," and scatter:
        return _Drawing(log, True, hidden, n, None, x, y)
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    band = _envelope_for_drawing(x, y) if line.style == "-" else None
    if band is not None:   # (drawn from the band alone)
        return _Drawing(log, False, hidden, n, band, np.zeros(0), np.zeros(0))
    x, y = _thinned_for_drawing(x, y)
    return _Drawing(log, False, hidden, n, None, x, y)


def _prepared(line: _Line, log: bool = False) -> _Line:
    """``line`` with its drawing made now (for a chart drawn with ``log``) and its points let
    go: a long run's chart holds each line's few thousand drawn points, not its millions."""
    line.drawing = _drawing(line, log)
    line.x = line.y = None
    if line.drawing.n > RELEASE_AFTER_POINTS:
        # its points and temporaries back to the system now: else the allocator keeps them
        # for the next line's and the peak holds both (1 GB status log: ~100 MiB)
        free_memory.release()
    return line


def _one_two_five_grid(fig) -> None:
    """Log-axis grid lines at 1, 2 and 5 of each decade, not at every digit: ticks are most of
    a log-scale chart's drawing time, and matplotlib makes each one several artists."""
    for ax in fig.axes:
        ax.yaxis.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0)))


def _vector_unless_many(lines: list[_Line]) -> list[_Line]:
    """``lines`` as vector paths in the SVG (they are thinned when drawn), unless the chart has
    more than :data:`VECTOR_SUMMARY_LINES`: then long ones as pixels."""
    if len(lines) <= VECTOR_SUMMARY_LINES:
        for line in lines:
            if line.raster is None:
                line.raster = False
    return lines


def _data_operations(frames: dict[str, "object"]) -> list[str]:
    ops: list[str] = []
    for df in frames.values():
        if df.empty or "failed" not in df:
            continue
        for op in df.loc[~df["failed"].astype(bool), "operation"].unique():
            if op not in ops and not op.endswith("-RECORDS"):
                ops.append(op)
    return ops


def _colors(lines: list[_Line]) -> dict[str, tuple]:
    """Each line's colour by its key (its run, or run and client): lines of one key share one."""
    return run_colors([line.key or line.label for line in lines])


def _draw(
    lines: list[_Line],
    ylabel: dict[str, str],
    log: bool = False,
    panel_titles: dict[str, str] | None = None,
    scatter: bool = False,
):
    """One panel per distinct ``panel`` of ``lines`` (in order), legends beside the plots."""
    panels = list(dict.fromkeys(line.panel for line in lines))
    most = max(sum(1 for line in lines if line.panel == p) for p in panels)
    colors = _colors(lines)
    fig, axes = new_figure(len(panels), legend_entries=most)
    hidden = 0
    for ax, panel in zip(axes, panels):
        for line in (line for line in lines if line.panel == panel):
            color = colors[line.key or line.label]
            d = line.drawing if line.drawing is not None else _drawing(line, log, scatter)
            if (d.log, d.whole) != (log, line.marker == "," and scatter):
                raise ValueError(f"line {line.label!r} was prepared for another chart")
            hidden += d.hidden
            if log and not d.n:
                continue
            # Many dots are drawn as pixels inside the SVG (an image), not one element each:
            # that keeps a long run's chart files small; the figures are in the data files.
            many = d.n > RASTER_ABOVE if line.raster is None else line.raster
            if line.marker == "," and scatter:
                ax.scatter(
                    d.x,
                    d.y,
                    s=3,
                    alpha=0.35,
                    label=line.label,
                    linewidths=0,
                    color=color,
                    rasterized=many,
                )
            else:
                if d.band is not None:   # a long solid line: its band, a line in the legend
                    ax.add_collection(PolyCollection(
                        d.band, closed=True, facecolors=[color], edgecolors=[color],
                        linewidths=rcParams["lines.linewidth"], joinstyle="round", rasterized=many,
                    ))
                    ax.plot([], [], line.style, color=color, label=line.label)
                    continue
                x, y = d.x, d.y
                ax.plot(
                    x,
                    y,
                    line.style,
                    marker=line.marker if len(y) <= MARKED_UP_TO else None,
                    markersize=3,
                    label=line.label,
                    color=color,
                    rasterized=many,
                )
        if log:
            ax.set_yscale("log")
            plain_log_labels(ax.yaxis)
        else:
            ax.set_ylim(bottom=0)
        ax.set_title((panel_titles or {}).get(panel, panel))
        ax.set_xlabel("time since start (s)")
        ax.set_ylabel(ylabel.get(panel, ""))
        ax.grid(alpha=0.3, which="both")
        legend_beside(ax)
    fig.hidden_points = hidden
    return fig


def _hidden_note(fig) -> str:
    n = getattr(fig, "hidden_points", 0)
    return (
        f"; {n:,} value(s) ≤ 0 µs cannot be drawn on the log axis (flagged in the report)"
        if n
        else ""
    )


# A line made when called with its panel and label (:func:`_prepared`).
MakeLine = Callable[[str, str], _Line]


def _blocks_line(b, blocks: list[int], panel: str, label: str, sums: dict | None = None
                 ) -> _Line:
    """The line of ``blocks`` of the per-metric blocks ``b``, one after the other,
    :func:`_prepared` (``sums``: each block's ``nansum`` put there). Its time goes back at each
    block's start, so when every block is long enough for a band the line's band is the
    blocks' bands: then each block is read and drawn alone, never joined to the others."""
    line = _Line(panel, label, None, None, key=label)
    if len(blocks) > 1:
        bands, n = [], 0
        for i in blocks:
            y = b.rates[i]
            if sums is not None:
                sums[i] = np.nansum(y)
            band = _envelope_for_drawing(b.t_end, y)
            if band is None:
                break
            bands += band
            n += len(y)
        else:
            line.drawing = _Drawing(False, False, 0, n, bands, np.zeros(0), np.zeros(0))
            return line
    y = np.concatenate([b.rates[i] for i in blocks]) if len(blocks) > 1 else b.rates[blocks[0]]
    if sums is not None:
        n = len(b.t_end)
        for k, i in enumerate(blocks):
            sums[i] = np.nansum(y[k * n:(k + 1) * n])
    line.x, line.y = np.tile(b.t_end, len(blocks)) if len(blocks) > 1 else b.t_end, y
    return _prepared(line)


def _operation_lines(run: Run) -> dict[str, MakeLine]:
    """Each data operation's throughput line of ``run`` (time, ops/s), made when called: the
    rows of its metrics that are not failures, in the order of
    :func:`timeseries.operation_throughput`'s frame — read from the per-metric blocks when
    there are (a long run's frame is millions of rows; one line read at a time), else from
    the frame."""
    b = timeseries.throughput_blocks(run)
    if b is not None and b.shown is not None:
        blocks: dict[str, list[int]] = {}
        for i in b.shown:
            _, op, failed = b.keys[i]
            if not failed and len(b.t_end):
                blocks.setdefault(op, []).append(i)
        return {op: functools.partial(_blocks_line, b, mine) for op, mine in blocks.items()}
    df = timeseries.operation_throughput(run)
    lines = {}
    for op in _data_operations({"": df}):
        d = df[(df["operation"] == op) & ~df["failed"].astype(bool)]
        lines[op] = functools.partial(_frame_line, d, "ops_per_s")
    return lines


def _frame_line(d: pd.DataFrame, y: str, panel: str, label: str) -> _Line:
    return _prepared(_Line(panel, label, d["t_s"].to_numpy(), d[y].to_numpy(), key=label))


def throughput_over_time(runs: list[Run], out_dir: Path) -> list[Chart]:
    """Throughput per operation over time, one panel per operation, runs overlaid; batch
    operations in records/s (their batches/s × records per batch), the rest in ops/s."""
    per_run = {run_label(r): _operation_lines(r) for r in runs}
    records = {run_label(r): timeseries.record_throughput(r) for r in runs}
    ops = list(dict.fromkeys(
        op for lines in per_run.values() for op in lines if not op.endswith("-RECORDS")
    ))
    if not ops:
        return []
    lines, units = [], {}
    for op in ops:
        for label, by_op in per_run.items():
            rec = records[label]
            rec = rec[rec["operation"] == op]
            if not rec.empty:
                lines.append(_prepared(
                    _Line(
                        op,
                        f"{label} ({rec['records_per_batch'].iloc[0]:.3g} records/batch)",
                        rec["t_s"].to_numpy(),
                        rec["records_per_s"].to_numpy(),
                        key=label,
                    )
                ))
                units.setdefault(op, set()).add("records/s")
                continue
            if op in by_op:
                lines.append(by_op[op](op, label))
                units.setdefault(op, set()).add("ops/s")
    ylabel = {op: f"throughput ({'; '.join(sorted(u, reverse=True))})" for op, u in units.items()}
    titles = {op: f"{op} (records/s)" if u == {"records/s"} else op for op, u in units.items()}
    fig = _draw(_vector_unless_many(lines), ylabel, panel_titles=titles)
    shaded = _shade_warmups(fig, lines, runs)
    # (the figure's title on two lines when shaded: one is wider than the figure; the
    # report's on one)
    chart = save(
        fig,
        out_dir,
        "throughput-over-time",
        "Throughput over time per operation (clients summed; batch operations in records/s)"
        + ("\nshaded in a run's colour: its warm-up, not in any summary figure" if shaded else ""),
    )
    return [replace(chart, title=chart.title.replace("\n", "; "))]


def _shade_warmups(fig, lines: list[_Line], runs: list[Run]) -> bool:
    """Shade each run's warm-up (the runner's, in the same clients before the measured part:
    shown, never summarised) in its own colour, in the panels where the run has a line; runs
    warm up for different times, and a phase the runner did not warm up (a load, a short
    phase) has none. Whether anything was shaded."""
    ends = {
        run_label(r): float(r.metadata["warmup"]["end_s"])
        for r in runs
        if isinstance(r.metadata.get("warmup"), dict) and r.metadata["warmup"].get("end_s")
    }
    colors = _colors(lines)
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
    service = {run_label(r): timeseries.latency_line_readers(r, False, copied) for r in runs}
    intended = {run_label(r): timeseries.latency_line_readers(r, True, copied) for r in runs}
    merged = {
        run_label(r): timeseries.merged_latency_over_time(r) if len(r.clients) > 1 else None
        for r in runs
    }
    ops = list(dict.fromkeys(
        op for by_op in service.values() for op in by_op if not op.endswith("-RECORDS")
    ))
    if not ops:
        return []
    wanted = (percentile,) if len(runs) > MANY_RUNS else ("p50", percentile, "p99.9")
    styles = {"p50": ":", percentile: "-", "p99.9": "--"}
    lines: list[_Line] = []
    shown: list[str] = []
    for op in ops:
        for label in service:
            m = merged[label]
            if m is not None and not m.empty:
                dm = m[(m["operation"] == op) & ~m["failed"].astype(bool)]
                if not dm.empty:
                    for col in wanted:
                        lines.append(
                            _Line(
                                op,
                                f"{label} {col} (clients merged)",
                                dm["t_s"].to_numpy(),
                                dm[col].to_numpy(),
                                styles[col],
                                key=label,
                            )
                        )
                        shown.append(col)
                    continue
            for by_client, suffix in ((service[label].get(op, []), ""),
                                      (intended[label].get(op, []), " intended")):
                many = len({client for client, _ in by_client}) > 1
                for client, read in sorted(by_client, key=lambda c: c[0]):
                    t_s, values = read()   # (one operation of one client at a time)
                    who = f"{label}{f' client {client}' if many else ''}"
                    drew = False
                    for col in wanted:
                        if col in values and pd.notna(values[col]).any():
                            style = "-." if suffix else styles[col]
                            lines.append(_prepared(
                                _Line(op, f"{who} {col}{suffix}", t_s, values[col], style,
                                      key=who), log=True
                            ))
                            shown.append(col + suffix)
                            drew = True
                    if not drew:
                        lines.append(_prepared(
                            _Line(
                                op,
                                f"{who} average{suffix}",
                                t_s,
                                values["average_latency_us"],
                                "-." if suffix else "-",
                                key=who,
                            ), log=True
                        ))
                        shown.append("average" + suffix)
                    del t_s, values
    if not lines:
        return []
    fig = _draw(_vector_unless_many(lines), {op: "latency (µs, log)" for op in ops}, log=True)
    _one_two_five_grid(fig)
    drawn = ", ".join(dict.fromkeys(shown))
    return [
        save(
            fig,
            out_dir,
            "latency-over-time",
            f"Latency per status interval ({drawn}; several clients merged from their "
            f".hdr logs, else per client{_hidden_note(fig)})",
        )
    ]


def measured_latency_over_time(runs: list[Run], out_dir: Path) -> list[Chart]:
    """What ``measurementtype=timeseries`` and ``raw`` record over time: the average latency
    of each ``timeseries.granularity`` interval (lines) and every raw datapoint (dots), one
    panel per operation; ``Intended-`` series beside the service ones."""
    lines: list[_Line] = []
    thinned = summed = False
    for r in runs:
        label = run_label(r)
        many = len(r.clients) > 1
        for c in r.clients:
            who = f"{label}{f' client {c.index}' if many else ''}"
            ts = c.output.timeseries
            if not ts.empty:
                for metric, g in ts.groupby("metric", sort=False):
                    name = split_metric(metric)
                    if name.operation == "CLEANUP":
                        continue
                    g = g.sort_values("time_ms")
                    lines.append(
                        _Line(
                            name.operation + (" failed" if name.failed else ""),
                            f"{who} average per interval{' (intended)' if name.intended else ''}",
                            g["time_ms"].to_numpy(dtype=float) / 1000.0,
                            g["average_latency_us"].to_numpy(dtype=float),
                            "--" if name.intended else "-",
                            key=f"{who} average{' (intended)' if name.intended else ''}",
                        )
                    )
            raw = c.output.raw_datapoints
            if raw.empty and c.output.raw_total:
                # Rows let go while reading (a long raw run): the per-second summary
                # instead, median and maximum of each second.
                lines += _summary_lines(c.output.raw_summary, who)
                summed = True
            if not raw.empty:
                t0 = float(raw["timestamp_ms"].min())
                for metric, g in raw.groupby("metric", sort=False):
                    name = split_metric(metric)
                    if name.operation == "CLEANUP":
                        continue
                    if len(g) > MAX_RAW_POINTS:
                        g = g.iloc[np.linspace(0, len(g) - 1, MAX_RAW_POINTS).astype(int)]
                        thinned = True
                    lines.append(
                        _Line(
                            name.operation + (" failed" if name.failed else ""),
                            f"{who} each operation{' (intended)' if name.intended else ''}",
                            (g["timestamp_ms"].to_numpy(dtype=float) - t0) / 1000.0,
                            g["latency_us"].to_numpy(dtype=float),
                            "",
                            ",",
                            key=f"{who} each{' (intended)' if name.intended else ''}",
                        )
                    )
    if not lines:
        return []
    per_second = [line for line in lines if line.raster is False]
    if len(per_second) > VECTOR_SUMMARY_LINES:
        for line in per_second:   # many clients: pixels, as any long line
            line.raster = None
    panels = list(dict.fromkeys(line.panel for line in lines))
    fig = _draw(lines, {p: "latency (µs, log)" for p in panels}, log=True, scatter=True)
    _one_two_five_grid(fig)
    # the figure's title on two lines (one is wider than the figure); the report's on one
    chart = save(
        fig,
        out_dir,
        "measured-latency-over-time",
        "Latency over time from measurementtype=timeseries (average per interval) and raw\n"
        f"(each operation{f'; thinned to {MAX_RAW_POINTS:,} per panel' if thinned else ''}"
        f"{'; long raw runs as median and maximum per second' if summed else ''}"
        f"{_hidden_note(fig)})",
    )
    return [replace(chart, title=chart.title.replace("\n", " "))]


def _summary_lines(summary, who: str) -> list[_Line]:
    """Median and maximum per second of a raw run's summary (``raw_intervals``)."""
    out = []
    t0 = float(summary["interval_start_ms"].min()) if len(summary) else 0.0
    for metric, g in summary.groupby("metric", sort=False):
        name = split_metric(metric)
        if name.operation == "CLEANUP":
            continue
        t = (g["interval_start_ms"].to_numpy(dtype=float) - t0) / 1000.0
        for column, what, style in (("p50", "median", "--" if name.intended else "-"),
                                    ("max_latency_us", "max", ":")):
            out.append(
                _Line(
                    name.operation + (" failed" if name.failed else ""),
                    f"{who} {what} per second{' (intended)' if name.intended else ''}",
                    t,
                    g[column].to_numpy(dtype=float),
                    style,
                    key=f"{who} {what}{' (intended)' if name.intended else ''}",
                    # one point a second: thinned when drawn, a vector path (see
                    # VECTOR_SUMMARY_LINES)
                    raster=False,
                )
            )
    return out


def errors_over_time(runs: list[Run], out_dir: Path) -> list[Chart]:
    """Failed operations per second over time, by operation and status."""
    lines = []
    for r in runs:
        lines += _error_lines(r, run_label(r))
    if not lines:
        return []
    panels = list(dict.fromkeys(line.panel for line in lines))
    fig = _draw(_vector_unless_many(lines), {p: "failed operations (ops/s)" for p in panels})
    return [save(fig, out_dir, "errors-over-time", "Errors by operation and status over time")]


def _error_lines(run: Run, label: str) -> list[_Line]:
    """The lines (time, errors/s) of ``run`` per operation and status, sorted by them, rows in
    the order of :func:`timeseries.errors_over_time`'s frame, :func:`_prepared`; none when no
    error was counted. From the per-metric blocks when there are (each read once), else from
    the frame."""
    b = timeseries.throughput_blocks(run)
    if b is not None and b.shown and len(b.t_end):
        blocks = timeseries.error_blocks(b)
        groups: dict[tuple[str, str], list[int]] = {}
        for i, op, status in blocks:
            groups.setdefault((op, status), []).append(i)
        sums: dict[int, float] = {}
        lines = [_blocks_line(b, mine, f"{op} {status}", label, sums)
                 for (op, status), mine in sorted(groups.items())]
        return lines if sum(sums[i] for i, _, _ in blocks) > 0 else []
    df = timeseries.errors_over_time(run)
    if df.empty or not df["errors_per_s"].sum() > 0:
        return []
    return [_frame_line(d, "errors_per_s", f"{op} {status}", label)
            for (op, status), d in _by_operation_and_status(df)]


def _by_operation_and_status(df):
    """``df.groupby(["operation", "status"])``'s groups, in its order (sorted by operation,
    then status; rows in their order), the texts coded by their shared objects: a long run's
    errors are millions of rows of a few texts."""
    cols = [value_codes(df[c].to_numpy(dtype=object), holds_objects(df[c]))
            for c in ("operation", "status")]
    (op_codes, ops), (st_codes, statuses) = cols
    known = (op_codes >= 0) & (st_codes >= 0)
    pair = np.where(known, op_codes * (len(statuses) + 1) + st_codes, -1)
    present = np.unique(pair[known]) if known.any() else np.zeros(0, dtype=np.intp)
    groups = sorted(
        ((ops[p // (len(statuses) + 1)], statuses[p % (len(statuses) + 1)]), p) for p in present
    )
    for key, p in groups:
        yield key, df[pair == p]
