"""What keeps a long run's report proportionate: raw datapoints summed up per interval
(exactly), rows over the limit written only on request and named, status figures as Parquet,
and chart lines thinned for drawing only (each slice's extremes kept)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from conftest import OUTPUTS, REPORT_CASES
from ycsb_analysis import cli
from ycsb_analysis.charts.lines import thinned_for_drawing
from ycsb_analysis.readers.output import parse_file


def test_raw_intervals_hold_the_exact_figures_of_every_datapoint():
    (out,) = parse_file(REPORT_CASES / "raw.out")
    raw = out.raw_datapoints
    got = out.raw_summary   # (summed up while the file was read)
    assert got["count"].sum() == raw["latency_us"].is_not_null().sum() > 100
    for row in got.iter_rows(named=True):
        start = row["interval_start_ms"]
        lat = np.sort(
            raw.filter(
                (pl.col("metric") == row["metric"])
                & (pl.col("timestamp_ms") >= start)
                & (pl.col("timestamp_ms") < start + 1000)
            )["latency_us"]
            .drop_nulls()
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
    rows = pl.read_csv(tmp_path / "b" / "raw-datapoints.csv.gz")
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
    # every value as parsed, in order (null where a file's lines printed none, as the frames
    # joined have it)
    expected = pl.concat([f.with_columns(run=pl.lit(p.stem)) for p, f in zip(sources, parsed)],
                         how="diagonal_relaxed")
    figures = [c for c in expected.columns if c != "run"]
    assert status.columns == ["run", "client", *figures]
    assert status["run"].cast(pl.String).to_list() == expected["run"].to_list()
    assert (status["client"] == 0).all()
    for c in figures:
        got, want = status[c], expected[c]
        if want.dtype.is_float():
            assert np.array_equal(got.to_numpy(), want.to_numpy(), equal_nan=True), c
            assert np.array_equal(np.signbit(got.to_numpy()), np.signbit(want.to_numpy())), c
        elif want.dtype.is_numeric() or want.dtype.is_temporal() or want.dtype == pl.Boolean:
            assert got.dtype == want.dtype and got.to_list() == want.to_list(), c
        else:
            assert got.cast(pl.String).to_list() == want.cast(pl.String).to_list(), c


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
    tx, ty = thinned_for_drawing(x, y, slices=500)
    assert len(tx) <= 1000 and np.all(np.diff(tx) > 0)
    assert 1e9 in ty and y.min() in ty
    short_x, short_y = thinned_for_drawing(x[:100], y[:100], slices=500)
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
        tx, ty = thinned_for_drawing(x, y, slices=slices)
        low, high = np.where(np.isnan(y), np.inf, y), np.where(np.isnan(y), -np.inf, y)
        expected = set()
        for k in range(slices):
            rows = np.flatnonzero(np.arange(n) * slices // n == k)
            expected.add(rows[np.argmin(low[rows])])
            expected.add(rows[len(rows) - 1 - np.argmax(high[rows][::-1])])
        keep = np.array(sorted(expected))
        assert np.array_equal(tx, x[keep]) and np.array_equal(ty, y[keep], equal_nan=True)
