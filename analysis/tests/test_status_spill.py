"""ycsb-report's parse of a big status log keeps the seldom-read measurement columns in files
(status_spill): the same frame read back, the same report written, the files gone after."""

from __future__ import annotations

import re

import matplotlib
import numpy as np
import pandas as pd
import pytest
from conftest import FIXTURES, OUTPUTS, REPORT_CASES, RESULTS, SEED
from ycsb_analysis import cli, multi_output, parquet_tables, status_spill
from ycsb_analysis.multi_output import parse_file

# every fixture with status lines: one client's .err, several outputs in one file, the
# readable path's lines (locale-de), YCSB's repeated last entry (all of them), intended
STATUS_FILES = sorted(
    p for p in [*OUTPUTS.glob("*.err"), *REPORT_CASES.rglob("*.err"), *RESULTS.rglob("*.err")]
    if " sec: " in p.read_text(errors="replace")
)


@pytest.fixture
def spill_everything(monkeypatch):
    """Every file counts as big, and blocks are small: many blocks per file."""
    monkeypatch.setattr(status_spill, "SPILL_FROM_BYTES", 0)
    monkeypatch.setattr(status_spill, "SLICE_ROWS", 7)


def _same_frame(got: pd.DataFrame, want: pd.DataFrame) -> None:
    assert list(got.columns) == list(want.columns)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    for c in want.columns:   # -0.0 stays -0.0
        if want[c].dtype.kind == "f":
            assert np.array_equal(np.signbit(got[c].to_numpy()), np.signbit(want[c].to_numpy()))


def test_the_fixtures_hold_status_lines_of_every_kind():
    assert len(STATUS_FILES) >= 10
    assert any("locale-de" in p.name for p in STATUS_FILES)


@pytest.mark.parametrize("path", STATUS_FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_a_status_log_parsed_with_columns_in_files_gives_the_same_frame(
    path, tmp_path, spill_everything
):
    want = parse_file(path)
    with status_spill.spilling(tmp_path) as directory:
        got = parse_file(path, block_bytes=1500)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            if w.status_measurements.empty:
                continue
            assert g.status_files is not None
            assert set(g.status_measurements.columns) <= status_spill.LEAN
            assert g.status_columns == list(w.status_measurements.columns)
            _same_frame(g.status_frame(), w.status_measurements)
            # a few rows, in any order, of a few columns
            rows = np.array([len(w.status_measurements) - 1, 0, 3, 2])
            rows = rows[rows < len(w.status_measurements)]
            _same_frame(g.status_frame(rows, ["time", "p99", "count"]),
                        w.status_frame(rows, ["time", "p99", "count"]))
            _same_frame(g.status_frame(slice(1, 9)), w.status_measurements.iloc[1:9]
                        .reset_index(drop=True))
            for c in w.status_measurements.columns:
                assert np.array_equal(g.status_values(c, rows),
                                      w.status_measurements[c].to_numpy()[rows],
                                      equal_nan=g.status_values(c).dtype.kind == "f")
        assert any(directory.iterdir())
    assert not directory.exists()


def test_outside_the_report_and_for_small_files_every_column_stays_in_memory(tmp_path):
    path = OUTPUTS / "hdrhistogram.err"
    (plain,) = parse_file(path)
    assert plain.status_files is None and "p99" in plain.status_measurements
    with status_spill.spilling(tmp_path):
        (small,) = parse_file(path)   # (far below SPILL_FROM_BYTES)
    assert small.status_files is None
    _same_frame(small.status_measurements, plain.status_measurements)


def test_a_column_that_does_not_join_as_plain_numbers_reads_the_file_again_in_memory(
    tmp_path, spill_everything, monkeypatch
):
    path = OUTPUTS / "hdrhistogram.err"
    (want,) = parse_file(path)
    split = status_spill.Writer.split
    calls = []

    def second_block_differs(self, block):
        calls.append(1)
        if len(calls) == 2:
            raise status_spill.NotSpillable("p99")
        return split(self, block)

    monkeypatch.setattr(status_spill.Writer, "split", second_block_differs)
    with status_spill.spilling(tmp_path) as directory:
        (got,) = parse_file(path, block_bytes=1500)
        assert got.status_files is None
        _same_frame(got.status_measurements, want.status_measurements)
        assert not any(directory.iterdir())   # (the first attempt's files are gone)


def test_the_writer_fills_a_float_column_missing_from_some_blocks_with_nan(tmp_path):
    w = status_spill.Writer(tmp_path)
    lean = w.split({"entry": np.array([0, 0]), "p99": np.array([1.0, 2.0])})
    assert list(lean) == ["entry"]
    w.split({"entry": np.array([1]), "p90": np.array([5.0])})
    w.split({"entry": np.array([2]), "p99": np.array([3.0])})
    s = w.rows_of(0, 4, ["entry", "p90", "p99"])
    assert np.array_equal(s.read("p99"), [1.0, 2.0, np.nan, 3.0], equal_nan=True)
    assert np.array_equal(s.read("p90"), [np.nan, np.nan, 5.0, np.nan], equal_nan=True)


@pytest.mark.parametrize("blocks", [
    # a time column appearing after the first block (pandas would make it objects with NaN)
    [{"entry": np.array([0])}, {"entry": np.array([1]), "time": np.array([0], "M8[us]")}],
    # one column, two types
    [{"p99": np.array([1.0])}, {"p99": np.array([1], dtype=np.int64)}],
    # kept in memory in one block (text), in a file in another
    [{"p99": np.array([1.0])}, {"p99": np.array(["x"], dtype=object)}],
])
def test_the_writer_refuses_blocks_that_do_not_join_as_plain_numbers(tmp_path, blocks):
    w = status_spill.Writer(tmp_path)
    with pytest.raises(status_spill.NotSpillable):
        for b in blocks:
            w.split(b)


def test_keeping_rows_rewrites_the_files_without_the_others(tmp_path, monkeypatch):
    monkeypatch.setattr(status_spill, "SLICE_ROWS", 3)
    w = status_spill.Writer(tmp_path)
    values = np.arange(10, dtype=float)
    times = np.arange(10).astype("M8[s]").astype("M8[us]")
    w.split({"p99": values, "time": times})
    keep = np.ones(10, dtype=bool)
    keep[[2, 7, 9]] = False
    w.keep(keep)
    assert w.rows == 7
    s = w.rows_of(0, 7, ["p99", "time"])
    assert np.array_equal(s.read("p99"), values[keep])
    assert np.array_equal(s.read("time"), times[keep])
    assert np.array_equal(w.rows_of(2, 5, ["p99"]).read("p99", np.array([2, 0])), [5.0, 3.0])
    assert np.array_equal(s.read("p99", slice(1, 5)), values[keep][1:5])
    assert np.array_equal(s.read("p99", slice(4, 1)), [])


def test_a_nat_is_remembered_for_parquet(tmp_path):
    w = status_spill.Writer(tmp_path)
    w.split({"time": np.array(["NaT", "2026-01-01"], dtype="M8[us]"), "p99": np.ones(2)})
    assert w.rows_of(0, 2, ["time", "p99"]).with_missing == {"time"}


def _report_files(directory):
    """Every file of a report, the SVGs and the HTML without the minute they were made."""
    out = {}
    for p in sorted(directory.iterdir()):
        data = p.read_bytes()
        if p.suffix == ".svg":
            data = re.sub(rb"<dc:date>[^<]*</dc:date>", b"", data)
        if p.suffix == ".html":
            data = re.sub(rb"Generated [-0-9: ]+ UTC by", b"", data)
        out[p.name] = data
    return out


def test_the_report_is_the_same_with_columns_in_files(tmp_path, monkeypatch):
    inputs = [
        str(RESULTS),
        f"cassandra={SEED / 'cassandra-insert-1-client.txt'}",
        str(OUTPUTS / "hdrhistogram.err"),
        str(REPORT_CASES / "intended"),
        str(REPORT_CASES / "clock-step.err"),
    ]
    monkeypatch.setitem(matplotlib.rcParams, "svg.hashsalt", "same ids")   # (else random)
    monkeypatch.setattr(cli, "MAX_PLAIN_ROWS", 20)   # status.parquet, in slices of 64 rows
    monkeypatch.setattr(parquet_tables, "ROW_GROUP_ROWS", 64)
    plain = cli.build_report_outcome(inputs, tmp_path / "plain")
    opened = []
    real = status_spill.Spilled.read

    def read(self, name, rows=None):
        opened.append(name)
        return real(self, name, rows)

    monkeypatch.setattr(status_spill.Spilled, "read", read)
    monkeypatch.setattr(status_spill, "SPILL_FROM_BYTES", 0)
    monkeypatch.setattr(status_spill, "SLICE_ROWS", 5)
    spilled = cli.build_report_outcome(inputs, tmp_path / "spilled")
    assert {"time", "p99", "max_latency_us"} <= set(opened)   # (the files were read)
    assert (spilled.skipped, spilled.unused, spilled.notes, spilled.warnings) == (
        plain.skipped, plain.unused, plain.notes, plain.warnings)
    want, got = _report_files(tmp_path / "plain"), _report_files(tmp_path / "spilled")
    assert "status.parquet" in want and "latency-over-time.svg" in want
    assert list(got) == list(want)   # (no directory of columns left behind)
    for name in want:
        assert got[name] == want[name], name


def test_the_report_removes_its_column_files_when_it_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(status_spill, "SPILL_FROM_BYTES", 0)

    def fail(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli, "merge_clients", fail)
    with pytest.raises(RuntimeError):
        cli.build_report_outcome([str(OUTPUTS / "hdrhistogram.err")], tmp_path / "r")
    assert list((tmp_path / "r").iterdir()) == []


def test_a_report_of_nothing_usable_leaves_no_directory(tmp_path):
    bad = tmp_path / "empty.txt"
    bad.write_text("")
    with pytest.raises(multi_output.UnreadableInput):
        cli.build_report_outcome([str(bad)], tmp_path / "r")
    assert not (tmp_path / "r").exists()
