"""The CSV text assembled by numpy (``csv_text``) is byte for byte pandas' ``to_csv``: on the
fixtures' long frames and on the values whose formatting is decided per column or per value
(times of several resolutions, dates alone, missing values, -0.0, mixed objects, quoting)."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import pytest
from conftest import REPORT_CASES
from ycsb_analysis.csv_text import csv_blocks, write_csv
from ycsb_analysis.multi_output import parse_file
from ycsb_analysis.text_codes import identity_codes, value_codes


def _same(df: pd.DataFrame) -> None:
    assert b"".join(csv_blocks(df)) == df.to_csv(index=False).encode("utf-8")


def test_the_fixtures_long_frames_are_written_as_pandas_writes_them():
    (err,) = parse_file(REPORT_CASES / "raw.err")
    (out,) = parse_file(REPORT_CASES / "raw.out")
    for df in (err.status_measurements, err.status_entries, out.raw_datapoints, out.raw_summary):
        df = pd.concat([df] * (1 + 3000 // max(len(df), 1)), ignore_index=True)
        assert len(df) > 1000
        _same(df.assign(run="hbase=a,b", client=3))


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
@pytest.mark.parametrize(
    "times",
    [
        ["2026-01-01", "1999-12-31"],                     # midnights only: the date alone
        ["2026-01-01 10:00:00", None],                    # whole seconds, a missing time
        ["2026-01-01 00:00:00.5", "2026-01-01"],          # milliseconds
        ["2026-01-01 00:00:00.000123", "2026-01-01"],     # microseconds
        ["2026-01-01 00:00:00.000000123", "2026-01-01"],  # nanoseconds (cut off in s..us)
    ],
)
def test_times_take_the_format_pandas_chooses_for_the_whole_column(unit, times):
    t = pd.to_datetime(times, format="ISO8601").as_unit(unit)
    _same(pd.DataFrame({"t": t}))
    _same(pd.DataFrame({"t": t, "i": [0, 12345]}))


def test_numbers_strings_and_missing_values():
    _same(pd.DataFrame({
        "i": [0, 9, 10, 99, 100], "neg": [-5, 3, 0, -1, 7], "big": [2**62, 0, 1, 2, 3],
        "u": np.array([0, 1, 2, 3, 2**63 + 5], dtype=np.uint64),
        "f": [1.0, -0.0, np.nan, 1e20, 0.1 + 0.2],          # -0.0 is not 0.0
        "s": ["x", "", None, 'q"u', "a,b"],                  # quoted as pandas quotes
        "o": [1, 1.0, True, "s", None],                       # 1 == 1.0 == True, texts differ
        "b": [True, False, True, True, False],
        "n": pd.array([1, None, 3, 3, 1], dtype="Int64"),
    }))
    _same(pd.DataFrame({"s": ["", "x", None]}))           # a lone empty field is written ""
    _same(pd.DataFrame({"i": [1, 2]}).iloc[:0])           # the header alone


def test_a_line_break_in_a_value_falls_back_to_pandas(tmp_path):
    df = pd.DataFrame({"s": ["two\nlines", "x"], "i": [1, 2]})
    write_csv(df, tmp_path / "a.csv")
    assert (tmp_path / "a.csv").read_bytes() == df.to_csv(index=False).encode()


def test_a_gzipped_file_reads_back_as_pandas_own(tmp_path):
    (err,) = parse_file(REPORT_CASES / "raw.err")
    df = pd.concat([err.status_measurements] * 50, ignore_index=True)
    write_csv(df, tmp_path / "status.csv.gz", gzip_level=1)
    df.to_csv(tmp_path / "pandas.csv.gz", index=False,
              compression={"method": "gzip", "compresslevel": 1, "mtime": 0})
    with gzip.open(tmp_path / "status.csv.gz") as a, gzip.open(tmp_path / "pandas.csv.gz") as b:
        assert a.read() == b.read()


def test_text_columns_of_many_distinct_values_and_of_equal_texts_in_different_objects():
    many = [f"op{i},{i % 7}" for i in range(5000)]          # mostly distinct: by value
    _same(pd.DataFrame({"s": many, "i": range(5000)}))
    split = ["READ"[:k] + "READ"[k:] for k in range(4)] * 500   # equal texts, four objects
    assert len({id(t) for t in split}) > 1
    _same(pd.DataFrame({"s": split, "n": [None, "x"] * 1000}))


def test_codes_by_identity_number_texts_by_value_as_factorize_does():
    texts = np.array(["READ"[:k] + "READ"[k:] for k in range(4)] * 50 + [np.nan, "UPDATE"] * 10,
                     dtype=object)
    codes, uniques = value_codes(texts, by_identity=True)
    want_codes, want_uniques = pd.factorize(texts)
    assert identity_codes(texts) is not None
    assert list(uniques[codes[codes >= 0]]) == list(want_uniques[want_codes[want_codes >= 0]])
    assert list(codes < 0) == list(want_codes < 0)
