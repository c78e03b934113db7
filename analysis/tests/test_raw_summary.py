"""Raw datapoints are summed up per second while a file is read (RawIntervalCounts), so a
long raw run does not keep one row per operation in memory: the summary must be exactly
what ``raw_intervals`` computes from every row, for any block size, for several outputs in
one file, and after the rows were let go."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from conftest import FIXTURES
from ycsb_analysis import multi_output
from ycsb_analysis import raw_intervals as ri
from ycsb_analysis.multi_output import parse_file, parse_text
from ycsb_analysis.raw_intervals import RawIntervalCounts, raw_intervals

RAW_OUTPUTS = sorted(
    p for p in FIXTURES.rglob("*") if p.suffix in (".out", ".txt") and "raw" in p.name
)


def assert_summed_in_blocks_equals_rows(metric, ts, lat, block: int) -> RawIntervalCounts:
    """Datapoints added `block` at a time sum up to what raw_intervals makes of all the rows."""
    n = len(metric)
    counts = RawIntervalCounts()
    for lo in range(0, n, block):
        hi = min(lo + block, n)
        counts.add(metric[lo:hi], ts[lo:hi], lat[lo:hi], np.zeros(hi - lo, dtype=int))
    rows = pd.DataFrame({"metric": metric, "timestamp_ms": ts, "latency_us": lat})
    pd.testing.assert_frame_equal(counts.intervals(), raw_intervals(rows), check_dtype=False)
    return counts


@pytest.mark.parametrize("path", RAW_OUTPUTS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_the_summary_read_while_parsing_equals_the_one_from_every_row(path):
    for block_bytes in (multi_output.BLOCK_BYTES, 997):
        for out in parse_file(path, block_bytes):
            assert out.raw_total == len(out.raw_datapoints) > 100
            pd.testing.assert_frame_equal(
                out.raw_summary, raw_intervals(out.raw_datapoints), check_dtype=False
            )


def test_rows_beyond_the_limit_are_let_go_and_the_summary_stays_exact(monkeypatch):
    (path,) = [p for p in RAW_OUTPUTS if p.name == "raw.out" and p.parent.name == "outputs"]
    (every,) = parse_file(path, raw_rows=True)
    monkeypatch.setattr(multi_output, "MAX_KEPT_RAW_ROWS", 50)
    monkeypatch.setattr(ri, "_MERGE_AT", 64)      # merge the per-block counts often
    (summed,) = parse_file(path, block_bytes=997)
    assert summed.raw_datapoints.empty and summed.raw_total == len(every.raw_datapoints) > 50
    pd.testing.assert_frame_equal(
        summed.raw_summary, raw_intervals(every.raw_datapoints), check_dtype=False
    )
    (kept,) = parse_file(path, block_bytes=997, raw_rows=True)
    pd.testing.assert_frame_equal(kept.raw_datapoints, every.raw_datapoints)


def test_two_outputs_in_one_file_each_get_their_own_summary():
    text = (FIXTURES / "outputs" / "raw.out").read_text()
    first, second = parse_text(text + text.replace("READ,", "SCAN,"))
    for out in (first, second):
        pd.testing.assert_frame_equal(
            out.raw_summary, raw_intervals(out.raw_datapoints), check_dtype=False
        )
    assert "SCAN" in set(second.raw_summary["metric"]) - set(first.raw_summary["metric"])


def test_counts_merge_equal_values_across_blocks_and_keep_negative_latencies():
    rng = np.random.default_rng(7)
    n = 20_000
    metric = rng.choice(np.array(["UPDATE", "READ", "SERVER_READ"], dtype=object), n)
    ts = 1_700_000_000_000 + np.sort(rng.integers(0, 20_000, n)).astype(float)
    lat = rng.integers(-50, 3000, n).astype(float)
    lat[rng.integers(0, n, 30)] = np.nan          # an empty histogram's Long.MAX_VALUE
    counts = assert_summed_in_blocks_equals_rows(metric, ts, lat, 1234)
    assert counts.negative_in() == int((lat < 0).sum()) > 0


def test_intervals_closed_while_reading_give_the_same_summary(monkeypatch):
    """Intervals are closed (figures computed, counts let go) once their metric is two minutes
    further; closed after a second here, merged every few blocks."""
    (path,) = [p for p in RAW_OUTPUTS if p.name == "raw.out" and p.parent.name == "outputs"]
    (every,) = parse_file(path, raw_rows=True)
    monkeypatch.setattr(ri, "CLOSE_AFTER", 1)
    monkeypatch.setattr(ri, "_MERGE_AT", 16)
    closed = []
    real = ri.RawIntervalCounts._close_old_intervals

    def spy(self):
        real(self)
        closed.append(sum(len(r) for r in self._closed))
    monkeypatch.setattr(ri.RawIntervalCounts, "_close_old_intervals", spy)
    (out,) = parse_file(path, block_bytes=997, raw_rows=True)
    assert closed and closed[-1] > 0
    pd.testing.assert_frame_equal(
        out.raw_summary, raw_intervals(every.raw_datapoints), check_dtype=False
    )


def test_a_datapoint_after_its_interval_was_closed_makes_the_file_read_again(
    monkeypatch, tmp_path
):
    monkeypatch.setattr(ri, "CLOSE_AFTER", 1)
    monkeypatch.setattr(ri, "_MERGE_AT", 16)
    (every,) = parse_file(FIXTURES / "outputs" / "raw.out", raw_rows=True)
    rd = every.raw_datapoints
    counts = RawIntervalCounts()
    with pytest.raises(ri.NotExact):
        for lo in [*range(0, len(rd), 50), 0]:          # the first 50 again at the end
            part = rd.iloc[lo : lo + 50]
            counts.add(part["metric"].to_numpy(), part["timestamp_ms"].to_numpy(),
                       part["latency_us"].to_numpy(), np.zeros(len(part), dtype=int))
    lines = (FIXTURES / "outputs" / "raw.out").read_text().splitlines()
    raw = [i for i, ln in enumerate(lines) if re.fullmatch(r"[\w-]+,\d+,-?\d+", ln)]
    # the first datapoint moved after the last: out of time order, read again with all counts
    moved = lines[: raw[0]] + lines[raw[0] + 1 : raw[-1] + 1] + [lines[raw[0]]]
    moved += lines[raw[-1] + 1 :]
    (tmp_path / "moved.out").write_text("\n".join(moved) + "\n")
    tried = []
    real = multi_output._parse_blocks
    monkeypatch.setattr(
        multi_output, "_parse_blocks", lambda *a, **k: tried.append(k) or real(*a, **k)
    )
    (out,) = parse_file(tmp_path / "moved.out", block_bytes=997)
    assert [k.get("close_intervals", True) for k in tried] == [True, False]
    pd.testing.assert_frame_equal(
        out.raw_summary, raw_intervals(out.raw_datapoints), check_dtype=False
    )


@pytest.mark.parametrize("wide", ["seconds and latencies", "latencies not integers"])
def test_keys_too_wide_to_pack_are_summed_up_column_wise_with_the_same_result(wide):
    """Entries are packed into one int64 to be sorted; keys that need more than 62 bits, or
    are not integers, are sorted column by column instead: same figures."""
    rng = np.random.default_rng(11)
    n = 5_000
    metric = rng.choice(np.array(["READ", "UPDATE"], dtype=object), n)
    if wide == "seconds and latencies":   # 40 bits of seconds, 23 of latency
        ts = np.sort(rng.integers(10**12, 10**15, n)).astype(float)
        ts[1::2] = ts[::2][: len(ts[1::2])]     # two datapoints in most seconds
        lat = rng.integers(0, 2**23, n).astype(float)
    else:
        ts = 1_700_000_000_000 + np.sort(rng.integers(0, 600_000, n)).astype(float)
        lat = rng.choice(np.array([1.5, 2.25, 3.0]), n) + rng.integers(0, 3, n)
    assert_summed_in_blocks_equals_rows(metric, ts, lat, 700)


@pytest.mark.parametrize("later", ["wider seconds", "a latency not an integer", "far seconds"])
def test_counts_kept_packed_are_repacked_or_unpacked_when_a_later_block_does_not_fit(
    later, monkeypatch
):
    """The counts kept are packed keys of a layout made for the first blocks; a block whose
    keys fall outside it (a longer run, a wider latency) repacks them, one that cannot be
    packed at all (not an integer, keys over 62 bits) turns them back into columns: merged
    and closed counts included, the same figures."""
    monkeypatch.setattr(ri, "CLOSE_AFTER", 5)
    monkeypatch.setattr(ri, "_MERGE_AT", 500)
    rng = np.random.default_rng(3)
    n = 6_000
    metric = rng.choice(np.array(["READ", "UPDATE", "INSERT"], dtype=object), n)
    ts = 1_700_000_000_000 + np.sort(rng.integers(0, 40_000, n)).astype(float)
    lat = rng.integers(0, 900, n).astype(float)
    tail = slice(4_000, None)
    if later == "wider seconds":       # an hour later, latencies of minutes
        ts[tail] += 3_600_000
        lat[tail] *= 100_000
    elif later == "a latency not an integer":
        lat[5_000] = 1.5
    else:                               # seconds and latencies beyond 62 bits
        ts[tail] += 10**15
        lat[tail] += 2**40
    counts = assert_summed_in_blocks_equals_rows(metric, ts, lat, 700)
    assert (counts._packing is None) == (later != "wider seconds")
    assert counts._closed
