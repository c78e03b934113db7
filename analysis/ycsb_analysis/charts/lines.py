"""Lines over a run's time axis, drawn so that a long run's chart stays small and quick: a
line of many points is drawn from each slice's lowest and highest value (a spike stays
visible), markers only on short lines, and many points as pixels inside the SVG."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.ticker import LogLocator

from .common import legend_beside, new_figure, plain_log_labels, run_colors

# A line of more points than twice this is drawn from the lowest and highest value of each of
# this many slices of it (a panel is ~1,000 pixels wide); the data files keep every point.
DRAWN_SLICES = 1_000
# A line of at most this many points marks each one; beyond, markers would only blot the line.
MARKED_UP_TO = 300
# Lines and scatters of more points than this are rasterized inside the SVG, unless the line
# says otherwise (a thinned line is a short vector path: see VECTOR_SUMMARY_LINES).
RASTER_ABOVE = 5_000
# Long lines stay vector paths in the SVG up to this many lines in a chart (each drawn from at
# most 2 × DRAWN_SLICES points, ~40 kB of SVG); beyond, they are pixels.
VECTOR_SUMMARY_LINES = 40


def thinned_for_drawing(
    x: np.ndarray, y: np.ndarray, slices: int = DRAWN_SLICES
) -> tuple[np.ndarray, np.ndarray]:
    """At most ``2 × slices`` points of the line, in order: of each of ``slices`` slices, its
    first point at its lowest value and its last at its highest. A missing value counts only
    where a whole slice is missing (a gap in the line): a gap narrower than a slice cannot be
    seen and must not hide the slice's values."""
    n = len(y)
    if n <= 2 * slices:
        return x, y
    starts = -(-np.arange(slices) * n // slices)   # slice k starts at ⌈k × n / slices⌉
    lengths = np.diff(starts, append=n)
    nan = np.isnan(y)
    low_key, high_key = np.where(nan, np.inf, y), np.where(nan, -np.inf, y)

    def extreme(key, reduce, last: bool) -> np.ndarray:
        at = np.flatnonzero(key == np.repeat(reduce.reduceat(key, starts), lengths))
        of_slice = at * slices // n
        if last:
            return at[np.flatnonzero(np.diff(of_slice, append=slices))]
        return at[np.flatnonzero(np.diff(of_slice, prepend=-1))]

    keep = np.union1d(extreme(low_key, np.minimum, False), extreme(high_key, np.maximum, True))
    return x[keep], y[keep]


@dataclass
class Line:
    panel: str
    label: str
    x: np.ndarray
    y: np.ndarray
    style: str = "-"
    marker: str | None = "."
    key: str = ""  # lines of one run (and client) share a colour: service and intended alike
    raster: bool | None = None   # pixels inside the SVG? None: when over RASTER_ABOVE points


def vector_unless_many(lines: list[Line]) -> list[Line]:
    """``lines`` as vector paths in the SVG (they are thinned when drawn), unless the chart has
    more than :data:`VECTOR_SUMMARY_LINES`: then long ones as pixels."""
    if len(lines) <= VECTOR_SUMMARY_LINES:
        for line in lines:
            if line.raster is None:
                line.raster = False
    return lines


def one_two_five_grid(fig) -> None:
    """Log-axis grid lines at 1, 2 and 5 of each decade, not at every digit."""
    for ax in fig.axes:
        ax.yaxis.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0)))


def colors_of(lines: list[Line]) -> dict[str, tuple]:
    """Each line's colour by its key (its run, or run and client): lines of one key share one."""
    return run_colors([line.key or line.label for line in lines])


def draw(lines: list[Line], ylabel: dict[str, str], log: bool = False,
         panel_titles: dict[str, str] | None = None, scatter: bool = False):
    """One panel per distinct ``panel`` of ``lines`` (in order), legends beside the plots; the
    figure's ``hidden_points``: values ≤ 0 that a log axis cannot show."""
    panels = list(dict.fromkeys(line.panel for line in lines))
    most = max(sum(1 for line in lines if line.panel == p) for p in panels)
    colors = colors_of(lines)
    fig, axes = new_figure(len(panels), legend_entries=most)
    hidden = 0
    for ax, panel in zip(axes, panels):
        for line in (line for line in lines if line.panel == panel):
            color = colors[line.key or line.label]
            x, y = np.asarray(line.x, dtype=float), np.asarray(line.y, dtype=float)
            if log:
                keep = ~(y <= 0)
                hidden += int((~keep).sum())
                x, y = x[keep], y[keep]
                if not len(y):
                    continue
            many = len(y) > RASTER_ABOVE if line.raster is None else line.raster
            if line.marker == "," and scatter:
                ax.scatter(x, y, s=3, alpha=0.35, label=line.label, linewidths=0, color=color,
                           rasterized=many)
                continue
            x, y = thinned_for_drawing(x, y)
            ax.plot(x, y, line.style, marker=line.marker if len(y) <= MARKED_UP_TO else None,
                    markersize=3, label=line.label, color=color, rasterized=many)
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


def hidden_note(fig) -> str:
    n = getattr(fig, "hidden_points", 0)
    return f"; {n:,} value(s) ≤ 0 µs cannot be drawn on the log axis (flagged in the report)" \
        if n else ""
