"""Raw datapoints are summed up per second while a file is read (readers.raw.RawSummary), so a
long raw run does not keep one row per operation in memory: the summary must be exactly what
the rows give — count, min, mean, nearest-rank percentiles, max — for any block size, for
several outputs in one file, after the rows were let go, and after seconds were closed."""

from __future__ import annotations

import math
import re

import numpy as np
import polars as pl
import pytest
from conftest import FIXTURES
from polars.testing import assert_frame_equal
from ycsb_analysis.readers import output, raw
from ycsb_analysis.readers.output import parse_file, parse_text

RAW_OUTPUTS = sorted(
    p for p in FIXTURES.rglob("*") if p.suffix in (".out", ".txt") and "raw" in p.name
)
RAW_OUT = FIXTURES / "outputs" / "raw.out"


def raw_intervals(rows: pl.DataFrame) -> pl.DataFrame:
    """The summary as its definition reads, from every row: per metric (in order of first
    appearance) and second, the sorted latencies' count, min, mean, value at rank
    ceil(p/100 · count), max."""
    rows = rows.drop_nulls(["timestamp_ms", "latency_us"])
    rows = rows.with_columns(second=np.floor(rows["timestamp_ms"].to_numpy() / 1000) * 1000)
    out = []
    for metric in dict.fromkeys(rows["metric"]):
        mine = rows.filter(pl.col("metric") == metric)
        for second in sorted(set(mine["second"])):
            g = mine.filter(pl.col("second") == second)
            lat = np.sort(g["latency_us"].to_numpy())
            row = {"metric": metric, "interval_start_ms": second, "count": len(lat),
                   "min_latency_us": lat[0], "average_latency_us": lat.mean()}
            for p in raw.PERCENTILES:
                row[f"p{p:g}"] = lat[max(math.ceil(p / 100 * len(lat)), 1) - 1]
            row["max_latency_us"] = lat[-1]
            out.append(row)
    return pl.DataFrame(out, schema=raw.SUMMARY_SCHEMA)


def assert_exact(out) -> None:
    assert_frame_equal(out.raw_summary, raw_intervals(out.raw_datapoints), rel_tol=1e-12)


@pytest.mark.parametrize("path", RAW_OUTPUTS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_the_summary_read_while_parsing_equals_the_one_from_every_row(path):
    for block_bytes in (output.BLOCK_BYTES, 997):
        for out in parse_file(path, block_bytes):
            assert out.raw_total == len(out.raw_datapoints) > 100
            assert_exact(out)


def test_rows_beyond_the_limit_are_let_go_and_the_summary_stays_exact(monkeypatch):
    (every,) = parse_file(RAW_OUT, raw_rows=True)
    monkeypatch.setattr(output, "MAX_KEPT_RAW_ROWS", 50)
    (summed,) = parse_file(RAW_OUT, block_bytes=997)
    assert summed.raw_datapoints.is_empty() and summed.raw_total == len(every.raw_datapoints) > 50
    assert_frame_equal(summed.raw_summary, raw_intervals(every.raw_datapoints))
    (kept,) = parse_file(RAW_OUT, block_bytes=997, raw_rows=True)
    assert_frame_equal(kept.raw_datapoints, every.raw_datapoints)


def test_two_outputs_in_one_file_each_get_their_own_summary():
    text = RAW_OUT.read_text()
    first, second = parse_text(text + text.replace("READ,", "SCAN,"))
    for out in (first, second):
        assert_exact(out)
    assert "SCAN" in set(second.raw_summary["metric"]) - set(first.raw_summary["metric"])


def _text_of(metric, ts, lat) -> str:
    lat_text = ["9223372036854775807" if np.isnan(v) else f"{v:.0f}" for v in lat]
    return "".join(f"{m},{t:.0f},{v}\n" for m, t, v in zip(metric, ts, lat_text))


def test_equal_latencies_across_blocks_are_counted_and_negative_latencies_kept(tmp_path):
    rng = np.random.default_rng(7)
    n = 20_000
    metric = rng.choice(np.array(["UPDATE", "READ", "SERVER_READ"], dtype=object), n)
    ts = 1_700_000_000_000 + np.sort(rng.integers(0, 20_000, n)).astype(float)
    lat = rng.integers(-50, 3000, n).astype(float)
    lat[rng.integers(0, n, 30)] = np.nan          # an empty histogram's Long.MAX_VALUE
    (tmp_path / "made.out").write_text(_text_of(metric, ts, lat))
    (out,) = parse_file(tmp_path / "made.out", block_bytes=12_345, raw_rows=True)
    assert_exact(out)
    assert out.raw_negative == int((lat < 0).sum()) > 0


def test_seconds_closed_while_reading_give_the_same_summary(monkeypatch):
    """A second is summed up once its metric is two minutes further; after a second here."""
    (every,) = parse_file(RAW_OUT, raw_rows=True)
    monkeypatch.setattr(raw, "CLOSE_AFTER", 1)
    closed = []
    real = raw.RawSummary._close_old_seconds

    def spy(self):
        real(self)
        closed.append(sum(len(r) for r in self.closed))
    monkeypatch.setattr(raw.RawSummary, "_close_old_seconds", spy)
    (out,) = parse_file(RAW_OUT, block_bytes=997, raw_rows=True)
    assert closed and closed[-1] > 0
    assert_frame_equal(out.raw_summary, raw_intervals(every.raw_datapoints))


def test_a_datapoint_after_its_second_was_summed_up_makes_the_file_read_again(
    monkeypatch, tmp_path
):
    monkeypatch.setattr(raw, "CLOSE_AFTER", 1)
    (every,) = parse_file(RAW_OUT, raw_rows=True)
    summary = raw.RawSummary()
    rows = every.raw_datapoints.with_columns(output=pl.lit(0, pl.Int64))
    with pytest.raises(raw.NotExact):
        for lo in [*range(0, rows.height, 50), 0]:          # the first 50 again at the end
            summary.add(rows.slice(lo, 50))
    lines = RAW_OUT.read_text().splitlines()
    at = [i for i, ln in enumerate(lines) if re.fullmatch(r"[\w-]+,\d+,-?\d+", ln)]
    # the first datapoint moved after the last: out of time order, read again keeping all
    moved = lines[: at[0]] + lines[at[0] + 1 : at[-1] + 1] + [lines[at[0]]] + lines[at[-1] + 1 :]
    (tmp_path / "moved.out").write_text("\n".join(moved) + "\n")
    tried = []
    real = raw.RawSummary.__init__
    monkeypatch.setattr(raw.RawSummary, "__init__",
                        lambda self, close=True: tried.append(close) or real(self, close))
    (out,) = parse_file(tmp_path / "moved.out", block_bytes=997)
    assert tried == [True, False]
    assert_exact(out)


@pytest.mark.parametrize("wide", ["seconds and latencies", "huge latencies"])
def test_keys_too_wide_for_one_sort_key_give_the_same_summary(wide, tmp_path):
    """Series, second and latency are sorted as one integer when they fit one; when they do
    not, column by column: the same figures."""
    rng = np.random.default_rng(11)
    n = 5_000
    metric = rng.choice(np.array(["READ", "UPDATE"], dtype=object), n)
    ts = np.sort(rng.integers(10**12, 10**15, n)).astype(float)
    ts[1::2] = ts[::2][: len(ts[1::2])]     # two datapoints in most seconds
    lat = rng.integers(0, 2**40 if wide == "huge latencies" else 2**23, n).astype(float)
    (tmp_path / "wide.out").write_text(_text_of(metric, ts, lat))
    (out,) = parse_file(tmp_path / "wide.out", block_bytes=20_000, raw_rows=True)
    assert len(out.raw_summary) > 1000
    assert_exact(out)


def test_windows_line_ends_give_the_same_datapoints_and_summary(tmp_path):
    """A copy with CRLF line ends: each line's \\r is no part of its latency, in blocks of
    datapoints only and in mixed ones."""
    (lf,) = parse_file(RAW_OUT, raw_rows=True)
    crlf = tmp_path / "raw-crlf.out"
    crlf.write_bytes(RAW_OUT.read_bytes().replace(b"\n", b"\r\n"))
    for block_bytes in (output.BLOCK_BYTES, 997):
        (out,) = parse_file(crlf, block_bytes, raw_rows=True)
        assert out.raw_total == lf.raw_total > 100
        assert_frame_equal(out.raw_datapoints, lf.raw_datapoints)
        assert_frame_equal(out.raw_summary, lf.raw_summary)
