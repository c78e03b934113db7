"""What keeps a long run's report proportionate: raw datapoints summed up per interval
(exactly), rows over the limit written only on request and named, status figures gzipped,
and chart lines thinned for drawing only (each slice's extremes kept, a long solid line
drawn as the band they span)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from conftest import OUTPUTS, REPORT_CASES
from matplotlib.collections import PolyCollection
from ycsb_analysis import cli
from ycsb_analysis.charts.over_time import (
    _draw,
    _envelope_for_drawing,
    _Line,
    _thinned_for_drawing,
)
from ycsb_analysis.multi_output import parse_file
from ycsb_analysis.raw_intervals import raw_intervals


def test_raw_intervals_hold_the_exact_figures_of_every_datapoint():
    (out,) = parse_file(REPORT_CASES / "raw.out")
    raw = out.raw_datapoints
    got = raw_intervals(raw)
    assert got["count"].sum() == raw["latency_us"].notna().sum() > 100
    for _, row in got.iterrows():
        start = row["interval_start_ms"]
        lat = np.sort(
            raw.loc[
                (raw["metric"] == row["metric"])
                & (raw["timestamp_ms"] >= start)
                & (raw["timestamp_ms"] < start + 1000),
                "latency_us",
            ]
            .dropna()
            .to_numpy()
        )
        assert row["count"] == len(lat)
        assert row["min_latency_us"] == lat[0] and row["max_latency_us"] == lat[-1]
        assert row["average_latency_us"] == pytest.approx(lat.mean())
        for p in (50, 90, 99, 99.9):   # nearest rank, as HdrHistogram ranks
            assert row[f"p{p:g}"] == lat[max(math.ceil(p / 100 * len(lat)), 1) - 1]


def test_raw_rows_over_the_limit_are_summed_up_named_and_written_on_request(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "MAX_PLAIN_ROWS", 50)
    src = [str(REPORT_CASES / "raw.out")]
    outcome = cli.build_report_outcome(src, tmp_path / "a")
    assert not (tmp_path / "a" / "raw-datapoints.csv").exists()
    assert (tmp_path / "a" / "raw-intervals.csv").exists()
    assert any("raw-intervals.csv" in n and "--raw-rows" in n for n in outcome.notes)
    cli.build_report_outcome(src, tmp_path / "b", raw_rows=True)
    rows = pd.read_csv(tmp_path / "b" / "raw-datapoints.csv.gz")
    (out,) = parse_file(REPORT_CASES / "raw.out")
    assert len(rows) == len(out.raw_datapoints) > 50
    assert 'href="raw-datapoints.csv.gz"' in (tmp_path / "b" / "report.html").read_text()


def test_status_figures_over_the_limit_are_written_as_parquet_value_by_value(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(cli, "MAX_PLAIN_ROWS", 5)
    sources = [OUTPUTS / "hdrhistogram.err", REPORT_CASES / "raw.err"]   # (runs by label)
    outcome = cli.build_report_outcome([str(p) for p in sources], tmp_path)
    assert not (tmp_path / "status.csv").exists() and not (tmp_path / "status.csv.gz").exists()
    assert any("status.parquet" in n and "read_parquet" in n for n in outcome.notes)
    assert 'href="status.parquet"' in (tmp_path / "report.html").read_text()
    status = cli.read_status_figures(tmp_path)   # (status.parquet)
    parsed = [parse_file(p)[0].status_measurements for p in sources]
    assert len(status) == sum(len(f) for f in parsed) > 5
    # every value as parsed, in order (NaN where a file's lines printed none, as a CSV of the
    # frames joined would have it); text as Categoricals
    expected = pd.concat([f.assign(run=p.stem) for p, f in zip(sources, parsed)])
    assert list(status.columns) == ["run", "client", *expected.columns.drop("run")]
    assert status["run"].astype(str).tolist() == expected["run"].tolist()
    assert (status["client"] == 0).all()
    for c in expected.columns.drop("run"):
        got, want = status[c].to_numpy(), expected[c].to_numpy()
        if want.dtype.kind == "f":
            assert np.array_equal(got, want, equal_nan=True), c
            assert np.array_equal(np.signbit(got), np.signbit(want)), c
        elif want.dtype.kind in "biuM":
            assert got.dtype == want.dtype and np.array_equal(got, want), c
        else:
            assert got.astype(object).tolist() == want.astype(object).tolist(), c


def test_status_figures_within_the_limit_stay_a_plain_csv(tmp_path):
    cli.build_report_outcome([str(REPORT_CASES / "raw.err")], tmp_path)
    status = cli.read_status_figures(tmp_path)   # (status.csv)
    (out,) = parse_file(REPORT_CASES / "raw.err")
    assert len(status) == len(out.status_measurements) > 5
    assert not (tmp_path / "status.parquet").exists()


def test_a_long_line_is_thinned_for_drawing_keeping_each_slice_extremes():
    rng = np.random.default_rng(1)
    x = np.arange(100_000, dtype=float)
    y = rng.exponential(1000, len(x))
    y[77_777] = 1e9                          # one spike
    tx, ty = _thinned_for_drawing(x, y, slices=500)
    assert len(tx) <= 1000 and np.all(np.diff(tx) > 0)
    assert 1e9 in ty and y.min() in ty
    short_x, short_y = _thinned_for_drawing(x[:100], y[:100], slices=500)
    assert len(short_x) == 100


def test_the_thinned_line_is_each_slices_first_lowest_and_last_highest_point():
    """Slice by slice, as the rule reads (a missing value is a slice's lowest or highest point
    only when the whole slice is missing)."""
    rng = np.random.default_rng(5)
    for n, slices in ((10_001, 997), (5_000, 1_000), (30_000, 7), (20_000, 300)):
        y = rng.integers(0, 20, n).astype(float)
        y[rng.random(n) < 0.2] = np.nan
        x = np.arange(n, dtype=float) * 0.5
        if n == 30_000:   # whole slices missing too
            y[: n // 7 + 1] = np.nan
        if n == 20_000:   # a run of whole missing slices in the middle
            y[4_000:4_600] = np.nan
        tx, ty = _thinned_for_drawing(x, y, slices=slices)
        low, high = np.where(np.isnan(y), np.inf, y), np.where(np.isnan(y), -np.inf, y)
        expected = set()
        for k in range(slices):
            rows = np.flatnonzero(np.arange(n) * slices // n == k)
            expected.add(rows[np.argmin(low[rows])])
            expected.add(rows[len(rows) - 1 - np.argmax(high[rows][::-1])])
        keep = np.array(sorted(expected))
        assert np.array_equal(tx, x[keep]) and np.array_equal(ty, y[keep], equal_nan=True)


def _points(polygons) -> set[tuple[float, float]]:
    return {tuple(p) for poly in polygons for p in poly}


def test_a_long_line_is_drawn_as_the_band_of_its_thinned_points_split_at_whole_missing_slices():
    """The band's corners are exactly the thinned line's points; its upper edge runs along the
    slices' highest points left to right, the lower edge back along their lowest, and a gap
    of whole missing slices starts a new band."""
    rng = np.random.default_rng(7)
    n, slices = 50_000, 500
    x = np.arange(n, dtype=float)
    y = rng.normal(100, 10, n)
    y[10_000:12_000] = np.nan   # whole slices missing: a gap
    y[30_000] = 1e6             # a spike
    bands = _envelope_for_drawing(x, y, slices=slices)
    tx, ty = _thinned_for_drawing(x, y, slices=slices)
    shown = ~np.isnan(ty)
    assert len(bands) == 2
    assert _points(bands) == set(zip(tx[shown], ty[shown]))
    assert 1e6 in np.concatenate([b[:, 1] for b in bands])
    for band in bands:
        half = len(band) // 2
        upper, lower = band[:half], band[half:]
        assert np.all(np.diff(upper[:, 0]) > 0) and np.all(np.diff(lower[:, 0]) < 0)
        assert np.all(upper[:, 1] >= lower[::-1, 1])   # slice by slice: highest over lowest
    assert _envelope_for_drawing(x[:1000], y[:1000], slices=slices) is None   # drawn whole


def test_a_line_whose_time_goes_back_is_one_band_per_part():
    """One operation's lines of two metrics (``READ`` and ``HdrREAD``) come one after the
    other: a band joining them would cut across the chart, so each part is its own band."""
    rng = np.random.default_rng(8)
    x = np.tile(np.arange(5_000, dtype=float), 2)
    y = np.concatenate([rng.normal(50, 5, 5_000), rng.normal(500, 5, 5_000)])
    bands = _envelope_for_drawing(x, y, slices=100)
    assert len(bands) == 2
    assert max(b[:, 1].max() for b in bands[:1]) < 100 < min(b[:, 1].min() for b in bands[1:])
    assert _points(bands) == _points(
        [_envelope_for_drawing(x[:5_000], y[:5_000], slices=100)[0],
         _envelope_for_drawing(x[5_000:], y[5_000:], slices=100)[0]]
    )
    # a short part cannot be banded: the whole line is drawn as before
    assert _envelope_for_drawing(x[:5_100], y[:5_100], slices=100) is None


def test_a_chart_draws_a_long_solid_line_as_its_band_and_names_it_in_the_legend():
    rng = np.random.default_rng(9)
    x = np.arange(20_000, dtype=float)
    long = _Line("READ", "run-a p99", x, rng.normal(1000, 50, len(x)), "-")
    dashed = _Line("READ", "run-a p99.9", x, rng.normal(2000, 50, len(x)), "--")
    short = _Line("READ", "run-b p99", x[:500], rng.normal(900, 50, 500), "-")
    fig = _draw([long, dashed, short], {"READ": "latency (µs)"}, log=True)
    (ax,) = fig.axes
    (band,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(band.get_paths()) == 1
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "run-a p99", "run-a p99.9", "run-b p99"]
    drawn = {line.get_label(): len(line.get_xdata()) for line in ax.get_lines()}
    assert drawn == {"run-a p99": 0, "run-a p99.9": 2_000, "run-b p99": 500}
    fig.canvas.draw()
    low, high = ax.get_ylim()
    assert low < long.y.min() and high > dashed.y.max()   # the band is in the axes' limits


def _svg(fig) -> bytes:
    import io

    import matplotlib
    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "same ids"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def _lines(rng):
    x = np.arange(20_000, dtype=float)
    y = rng.normal(1000, 300, len(x))   # (some ≤ 0: hidden on a log axis)
    return [_Line("READ", "a p99", x, y, "-"), _Line("READ", "a p99.9", x, y * 2, "--"),
            _Line("READ", "b p99", x[:500], y[:500], "-"), _Line("SCAN", "a p99", x, -y, "-")]


@pytest.mark.parametrize("log", [False, True])
def test_a_line_prepared_when_made_is_drawn_as_the_whole_line_is(log):
    """The long-run charts prepare each line as soon as it is made (its points let go): the
    chart is the same, hidden points included."""
    from ycsb_analysis.charts.over_time import _prepared

    whole = _draw(_lines(np.random.default_rng(10)), {}, log=log)
    prepared = [_prepared(line, log) for line in _lines(np.random.default_rng(10))]
    assert all(line.x is None and line.drawing is not None for line in prepared)
    again = _draw(prepared, {}, log=log)
    assert again.hidden_points == whole.hidden_points and (whole.hidden_points > 0) == log
    assert _svg(again) == _svg(whole)
    with pytest.raises(ValueError, match="prepared for another chart"):
        _draw(prepared, {}, log=not log)


# blocks long enough for a band each (one with a gap); blocks too short: the joined line
@pytest.mark.parametrize("cells", [10_000, 1_500])
def test_a_line_of_several_metric_blocks_drawn_block_by_block_is_the_joined_line(cells):
    from types import SimpleNamespace

    from ycsb_analysis.charts.over_time import _blocks_line, _drawing

    rng = np.random.default_rng(11)
    t_end = np.arange(1, cells + 1, dtype=float)
    rates = [rng.normal(50, 5, cells), rng.normal(500, 5, cells)]
    rates[1][cells // 3:cells // 2] = np.nan
    b = SimpleNamespace(t_end=t_end, rates=rates)
    sums = {}
    got = _blocks_line(b, [0, 1], "READ", "run", sums)
    joined = _Line("READ", "run", np.tile(t_end, 2), np.concatenate(rates), key="run")
    want = _drawing(joined, False)
    assert (want.band is None) == (cells < 2_000)
    assert got.drawing.n == want.n == 2 * cells and sums == {
        0: np.nansum(rates[0]), 1: np.nansum(rates[1])}
    assert (got.drawing.band is None) == (want.band is None)
    if want.band is None:
        assert np.array_equal(got.drawing.y, want.y, equal_nan=True)
    else:
        assert len(got.drawing.band) == len(want.band)
        for g, w in zip(got.drawing.band, want.band):
            assert np.array_equal(g, w)
