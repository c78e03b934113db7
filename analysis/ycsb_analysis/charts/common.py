"""What every chart shares: the figure → PNG + SVG writer and the Chart record."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")  # no display: charts are files (and the tests run headless)
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedFormatter, FixedLocator, LogFormatter, NullLocator  # noqa: E402

# The PNG's resolution (dots per inch): a 9-inch-wide chart is ~1,000 pixels wide.
PNG_DPI = 110


class PlainLogFormatter(LogFormatter):
    """Log-axis tick labels as plain numbers ("1,500", "0.5"), not "1.5×10³": read at a glance,
    and no math text to typeset (~0.5 CPU-s of a long run's report). LogFormatter still picks
    which ticks get a label."""

    def _num_to_string(self, x, vmin, vmax):
        return f"{x:,.10g}"


def plain_log_labels(axis) -> None:
    """Plain labels on a log ``axis``, major and minor ticks (call after ``set_yscale("log")``,
    which resets them)."""
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


def interval_bars(rows: list[dict], figure: str, low: str = "", high: str = "") -> np.ndarray:
    """Error bars (2 × points) of ``figure`` from its interval's columns (by default
    ``<figure>_ci_low`` and ``_ci_high``); 0 where a point has no interval."""
    v = column(rows, figure)
    lo, hi = column(rows, low or f"{figure}_ci_low"), column(rows, high or f"{figure}_ci_high")
    return np.nan_to_num(np.abs(np.vstack([v - lo, hi - v])))


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-").lower() or "chart"


# A legend beside the plot (never over it) needs room: per column of entries, in inches.
LEGEND_COLUMN_WIDTH = 2.6
LEGEND_ROWS_PER_COLUMN = 18


def legend_columns(n_entries: int) -> int:
    """Columns a legend of ``n_entries`` needs beside a panel (0 when there is no legend)."""
    return 0 if n_entries <= 1 else -(-n_entries // LEGEND_ROWS_PER_COLUMN)   # (rounded up)


def new_figure(
    n_panels: int = 1, width: float = 9.0, panel_height: float = 3.2, legend_entries: int = 0
):
    """A figure with ``n_panels`` stacked axes (always a list), constrained layout (no title,
    label or outside legend overlaps or is cut off); ``legend_entries`` (the most any panel's
    legend holds) widens it so that a legend beside the plot leaves the plot its width."""
    cols = legend_columns(legend_entries)
    rows = min(max(legend_entries, 1), LEGEND_ROWS_PER_COLUMN)
    height = max(panel_height, 0.16 * rows + 0.8)
    fig, axes = plt.subplots(n_panels, 1, squeeze=False, layout="constrained",
                             figsize=(width + cols * LEGEND_COLUMN_WIDTH, height * n_panels + 0.5))
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
    if n > 20:
        return dict(zip(unique, map(plt.get_cmap("turbo"), np.linspace(0.05, 0.95, n))))
    return {k: plt.get_cmap("tab10" if n <= 10 else "tab20")(i) for i, k in enumerate(unique)}


def save(fig, out_dir: Path, name: str, title: str) -> Chart:
    """Write ``fig`` as ``<name>.png`` and ``<name>.svg`` in ``out_dir`` and close it."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    fig.suptitle(title, fontsize=12)   # constrained layout reserves its own row above the panels
    png, svg = out_dir / f"{name}.png", out_dir / f"{name}.svg"
    # Lay out once and keep it for both files, no engine left: savefig with any engine (even
    # "none") first draws the whole figure for the layout. At the PNG's resolution: the text
    # extents measured for the layout are reused to draw the PNG.
    fig.set_dpi(PNG_DPI)
    fig.get_layout_engine().execute(fig)
    fig.set_layout_engine(None)   # (None: no engine, under matplotlib's default settings)
    _freeze_ticks(fig)
    fig.savefig(png, dpi=PNG_DPI)
    # (the SVG's resolution, for rasterized artists only: the figure's, savefig's default)
    fig.savefig(svg, dpi="figure")
    plt.close(fig)
    return Chart(name, title, png, svg)


def _freeze_ticks(fig) -> None:
    """Fix each axis' laid-out ticks and labels: every drawing would ask its locator and
    formatter again, several times per axis, for the same answer (the layout is final)."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for which, locs_of in ((axis.major, axis.get_majorticklocs),
                                   (axis.minor, axis.get_minorticklocs)):
                if isinstance(which.locator, NullLocator):
                    continue
                locs = locs_of()   # (the minor ticks less those on a major one)
                fixed = FixedFormatter(which.formatter.format_ticks(locs))
                fixed.set_offset_string(which.formatter.get_offset())
                fixed.set_axis(axis)
                which.locator, which.formatter = FixedLocator(locs), fixed
