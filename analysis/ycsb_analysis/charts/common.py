"""What every chart shares: the figure → PNG + SVG writer and the Chart record."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display: charts are files (and the tests run headless)
import matplotlib.pyplot as plt  # noqa: E402


@dataclass(frozen=True)
class Chart:
    """One chart written to disk."""

    name: str        # file stem, e.g. "throughput-over-time"
    title: str
    png: Path
    svg: Path


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-").lower() or "chart"


def new_figure(n_panels: int = 1, width: float = 9.0, panel_height: float = 3.2):
    """A figure with ``n_panels`` stacked axes (always returned as a list)."""
    fig, axes = plt.subplots(n_panels, 1, figsize=(width, max(3.0, panel_height * n_panels) + 0.6),
                             squeeze=False)
    return fig, [a for a in axes[:, 0]]


def save(fig, out_dir: Path, name: str, title: str) -> Chart:
    """Write ``fig`` as ``<name>.png`` and ``<name>.svg`` in ``out_dir`` and close it."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    fig.suptitle(title, fontsize=12)
    fig.tight_layout()
    png, svg = out_dir / f"{name}.png", out_dir / f"{name}.svg"
    fig.savefig(png, dpi=110)
    fig.savefig(svg)
    plt.close(fig)
    return Chart(name, title, png, svg)
