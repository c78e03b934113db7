"""What every chart shares: the figure → PNG + SVG writer and the Chart record."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")  # no display: charts are files (and the tests run headless)
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import (  # noqa: E402
    FixedFormatter,
    FixedLocator,
    LogFormatter,
    NullLocator,
)

# The PNG's resolution (dots per inch): a 9-inch-wide chart is ~1,000 pixels wide.
PNG_DPI = 110


class PlainLogFormatter(LogFormatter):
    """A log axis' tick labels as plain numbers ("1,500", "20,000", "0.5"), where matplotlib's
    default writes "1.5×10³": read at a glance as latencies, and no math text to typeset (its
    parser was ~0.5 CPU-s of a long run's report). Which ticks get a label is LogFormatter's
    rule, as before: the decades, and the minor ticks too when the axis spans little."""

    def _num_to_string(self, x, vmin, vmax):
        return f"{x:,.10g}"


def plain_log_labels(axis) -> None:
    """Label ``axis`` (a log-scale axis; set after ``set_yscale("log")``, which resets it) with
    :class:`PlainLogFormatter`, its major and its minor ticks."""
    axis.set_major_formatter(PlainLogFormatter(base=10))
    axis.set_minor_formatter(PlainLogFormatter(base=10, labelOnlyBase=False))


@dataclass(frozen=True)
class Chart:
    """One chart written to disk."""

    name: str        # file stem, e.g. "throughput-over-time"
    title: str
    png: Path
    svg: Path


def column(rows: list[dict], name: str) -> np.ndarray:
    """The figure ``name`` of each row (a summary's, a step's) as floats, NaN where missing."""
    return np.array([r.get(name) for r in rows], dtype=float)


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-").lower() or "chart"


# A legend beside the plot (never over it) needs room: per column of entries, in inches.
LEGEND_COLUMN_WIDTH = 2.6
LEGEND_ROWS_PER_COLUMN = 18


def legend_columns(n_entries: int) -> int:
    """Columns a legend of ``n_entries`` needs beside a panel (0 when there is no legend)."""
    if n_entries <= 1:
        return 0
    return int(np.ceil(n_entries / LEGEND_ROWS_PER_COLUMN))


def new_figure(
    n_panels: int = 1, width: float = 9.0, panel_height: float = 3.2, legend_entries: int = 0
):
    """A figure with ``n_panels`` stacked axes (always returned as a list).

    Constrained layout keeps the figure title, panel titles, axis labels and outside legends
    from overlapping or being cut off; ``legend_entries`` (the most entries any panel's legend
    will hold) widens the figure so that a legend beside the plot leaves the plot its width.
    """
    cols = legend_columns(legend_entries)
    rows = min(max(legend_entries, 1), LEGEND_ROWS_PER_COLUMN)
    height = max(panel_height, 0.16 * rows + 0.8)
    fig, axes = plt.subplots(
        n_panels,
        1,
        figsize=(width + cols * LEGEND_COLUMN_WIDTH, height * n_panels + 0.5),
        squeeze=False,
        layout="constrained",
    )
    return fig, [a for a in axes[:, 0]]


def legend_beside(ax, fontsize: float = 7) -> None:
    """The panel's legend to the right of its plot, in as many columns as it needs."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
              fontsize=fontsize if len(handles) <= 12 else fontsize - 1,
              ncol=max(1, legend_columns(len(handles))), frameon=False)


def run_colors(keys: list[str]) -> dict[str, tuple]:
    """One distinct colour per key (run), stable in order of first appearance: tab10 up to
    10 runs, tab20 up to 20, then evenly spaced along 'turbo' (40 runs stay apart)."""
    unique = list(dict.fromkeys(keys))
    n = len(unique)
    if n <= 10:
        cmap = [plt.get_cmap("tab10")(i) for i in range(n)]
    elif n <= 20:
        cmap = [plt.get_cmap("tab20")(i) for i in range(n)]
    else:
        cmap = [plt.get_cmap("turbo")(x) for x in np.linspace(0.05, 0.95, n)]
    return dict(zip(unique, cmap))


def save(fig, out_dir: Path, name: str, title: str) -> Chart:
    """Write ``fig`` as ``<name>.png`` and ``<name>.svg`` in ``out_dir`` and close it."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    fig.suptitle(title, fontsize=12)   # constrained layout reserves its own row above the panels
    png, svg = out_dir / f"{name}.png", out_dir / f"{name}.svg"
    # The layout once, at the PNG's resolution (as savefig would lay it out), then kept for
    # both files, and no layout engine left: savefig of a figure with one (even "none", a
    # placeholder) first draws the whole figure without rendering, for the layout, before
    # each file. The layout's renderer is the one the PNG is drawn with: the text extents it
    # measured are reused.
    fig.set_dpi(PNG_DPI)
    fig.get_layout_engine().execute(fig)
    fig.set_layout_engine(None)   # (None: no engine, under matplotlib's default settings)
    _freeze_ticks(fig)
    fig.savefig(png, dpi=PNG_DPI)
    # The SVG's own resolution (text and paths are vectors; pixels only for rasterized
    # artists): the figure's as made, as savefig's default gave it.
    fig.savefig(svg, dpi="figure")
    plt.close(fig)
    return Chart(name, title, png, svg)


def _freeze_ticks(fig) -> None:
    """Each axis' ticks and labels as they are now, laid out, kept for the drawings: every
    drawing asks each axis' locator and formatter again, several times per axis (its tick
    labels' extents place the axis label, the title and the spines), and they would give the
    same ticks: the view limits and the axes' sizes are final once the layout is done."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for which, locs_of in ((axis.major, axis.get_majorticklocs),
                                   (axis.minor, axis.get_minorticklocs)):
                if isinstance(which.locator, NullLocator):
                    continue
                # (the minor ticks less those on a major one, as the drawing takes them)
                locs = locs_of()
                labels = which.formatter.format_ticks(locs)
                fixed = FixedFormatter(labels)
                fixed.set_offset_string(which.formatter.get_offset())
                fixed.set_axis(axis)
                which.locator, which.formatter = FixedLocator(locs), fixed
