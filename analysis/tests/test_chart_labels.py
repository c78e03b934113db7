"""Log axes are labelled with plain numbers, not matplotlib's math text (``1.5×10³``)."""

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from ycsb_analysis.charts.common import plain_log_labels


def _labels(low: float, high: float) -> list[str]:
    fig = Figure()
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.plot([0, 1], [low, high])
    ax.set_yscale("log")
    plain_log_labels(ax.yaxis)
    ax.set_ylim(low, high)
    fig.canvas.draw()
    ticks = [
        (tick.get_loc(), tick.label1.get_text())
        for tick in ax.yaxis.get_major_ticks() + ax.yaxis.get_minor_ticks()
    ]
    return [text for loc, text in sorted(ticks) if low <= loc <= high and text]


def test_decades_are_plain_numbers_with_thousands_separators():
    assert _labels(5, 300_000) == ["10", "100", "1,000", "10,000", "100,000"]


def test_within_a_decade_the_minor_ticks_are_labelled_plainly_too():
    labels = _labels(1_500, 4_100)
    assert labels[:3] == ["2,000", "3,000", "4,000"]
    assert not any("$" in t or "×" in t or "^" in t for t in labels), labels


def test_below_one_the_labels_are_decimals():
    assert _labels(0.05, 2)[:2] == ["0.1", "1"]
