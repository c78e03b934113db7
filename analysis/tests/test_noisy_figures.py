"""An interval wider than its figure is not printed as a figure (issue 46: "13,533 ± 15,241"
ops/s): the overview says "too noisy to measure" with the interval and what it came from."""

import re

from conftest import FIXTURES
from ycsb_analysis.cli import aggregate, load, merge_clients, run_label, runs_summary
from ycsb_analysis.intervals_html import figures_table

QUICKSTART = FIXTURES / "quickstart-s4" / "qs-main"
PLUS_MINUS = re.compile(r"^([\d,]+) ± ([\d,]+)$")


def _overview(*inputs):
    runs = load([str(p) for p in inputs])
    agg = aggregate(runs_summary(runs, {run_label(r): merge_clients(r) for r in runs}, None))
    return agg, figures_table(agg)


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def test_a_figure_whose_interval_reaches_below_zero_is_too_noisy_to_measure():
    """Cassandra's mean latency in two real trials (654 and 531 µs): t(1) makes the 95%
    interval wider than the mean."""
    agg, table = _overview(QUICKSTART)
    row = next(i for i, r in enumerate(agg) if r["database"] == "cassandra")
    mean = agg[row]["average_latency_us"]
    half = agg[row]["average_latency_us_ci_high"] - mean
    assert half > mean  # the case of the issue, in the kept real data
    cell = table["mean latency µs"][row]
    assert cell.startswith(f"{mean:,.0f}: too noisy to measure")
    assert f"± {half:,.0f} from 2 trials" in cell


def test_no_cell_of_the_overview_shows_a_half_width_as_large_as_its_figure():
    _, table = _overview(QUICKSTART, FIXTURES / "trials-s4", FIXTURES / "warm-s4-s1")
    cells = [c for col in table.columns if col.endswith(("(95% CI)", "µs")) or col == "records/s"
             for c in table[col] if isinstance(c, str)]
    shown = [PLUS_MINUS.match(c) for c in cells]
    assert any(shown), "the fixtures have figures with an interval"
    assert all(_number(m[2]) < _number(m[1]) for m in shown if m)
    assert all(m or "±" not in c or "too noisy to measure" in c for m, c in zip(shown, cells))
