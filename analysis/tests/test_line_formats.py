"""The YCSB line formats read one line at a time (the scenario runner's, the bench scripts'):
the same figures as the readers take from whole files, from the same patterns."""

import math
from datetime import datetime

import polars as pl
import pytest
from conftest import OUTPUTS
from ycsb_analysis.readers import line_formats
from ycsb_analysis.readers.final_report import number
from ycsb_analysis.readers.output import parse_file


@pytest.mark.parametrize("name", ["hdrhistogram", "histogram", "raw", "locale-de",
                                  "interval-both", "hdrhistogram+histogram"])
def test_single_status_lines_read_as_the_reader_reads_the_file(name):
    path = OUTPUTS / f"{name}.err"
    (out,) = parse_file(path)
    reader = [(t, int(s), int(n), r if r is not None and math.isfinite(r) else None)
              for t, s, n, r in out.status_entries.select(
                  "time", "elapsed_s", "operations", "current_ops_per_s").iter_rows()]
    lines = [(h.time, h.elapsed_s, h.operations, h.current_ops_per_s)
             for h in map(line_formats.status_line, path.read_text().splitlines()) if h]
    # the reader reads a repeated last entry once
    assert reader == list(dict.fromkeys(lines))
    assert len(reader) > 3


def test_a_decimal_comma_infinity_and_nan_are_read_as_the_readers_read_them():
    texts = ["62,5", "841,93", "148.8095238095238", "∞", "NaN", " 7 ", "20323.0", "x", ""]
    frame = pl.DataFrame({"text": texts}).select(number(pl.col("text"))).to_series().to_list()
    for text, expected in zip(texts, frame):
        got = line_formats.ycsb_number(text)
        assert got == expected, text  # NaN is missing (None) in both


def test_a_status_line_before_the_first_operation_has_no_throughput():
    # YCSB prints "current ops/sec" only once operations were done (a capacity step's real line)
    line = ("2026-11-28 18:39:47:179 1 sec: 0 operations; est completion in 106751991167300 "
            "days 15 hours [READ: Count=3]\n")
    head = line_formats.status_line(line)
    assert (head.time, head.elapsed_s, head.operations, head.current_ops_per_s) == (
        datetime(2026, 11, 28, 18, 39, 47, 179000), 1, 0, None)
    assert head.rest.startswith(" est completion in")


def test_a_labelled_line_and_the_raw_loops_bare_head_are_status_lines():
    labelled = line_formats.status_line(
        "run-a2026-11-22 23:12:04:402 1 sec: 149 operations; 132 current ops/sec; ")
    assert (labelled.elapsed_s, labelled.operations, labelled.current_ops_per_s) == (1, 149, 132)
    # bench-harness RawLoop: "<time> N sec: M operations;" and nothing more
    bare = line_formats.status_line("2026-11-24 00:10:01:000 1 sec: 500 operations;")
    assert (bare.elapsed_s, bare.operations, bare.current_ops_per_s) == (1, 500, None)
    assert line_formats.status_line("2026-11-24 00:10:01,000 INFO sec: 5 operations;") is None


def test_hdr_measurements_of_a_real_german_locale_line():
    line = next(ln for ln in (OUTPUTS / "locale-de.err").read_text().splitlines()
                if " 1 sec: " in ln)
    read = {m.metric: m for m in line_formats.hdr_measurements(line)}
    assert read["READ"].count == 64 and read["READ"].max_us == 3707
    assert read["READ"].percentiles[:2] == [(90.0, 2111), (99.0, 3707)]


def test_the_estimate_gives_way_keeping_the_measurements_and_the_line_end():
    replace = line_formats.replace_estimate
    assert replace("t 1 sec: 3 operations; 3 current ops/sec; est completion in 3 minutes "
                   "[READ: Count=3]\n", "[x]") == (
        "t 1 sec: 3 operations; 3 current ops/sec; [x] [READ: Count=3]\n")
    assert replace("t 1 sec: 3 operations; est completion in 1 hours 2 minutes \n", "[x]") == (
        "t 1 sec: 3 operations; [x] \n")
    assert replace("no estimate\n", "[x]") == "no estimate\n"


def test_return_counts_and_report_values_of_a_real_final_report():
    text = (OUTPUTS / "locale-de.out").read_text()
    assert line_formats.return_counts(text) == {
        "READ": {"OK": 138, "NOT_FOUND": 11}, "UPDATE": {"OK": 138, "ERROR": 13}}
    assert line_formats.report_value(text, "OVERALL", "Throughput(ops/sec)") == pytest.approx(
        148.8095238095238)
    assert line_formats.report_value(text, "OVERALL", "Failures") is None
