"""Status lines: every summary format, locale commas, ∞, multi-line entries, repeats."""

import math

import polars as pl
import pytest
from conftest import OUTPUTS, SEED
from polars.testing import assert_frame_equal
from ycsb_analysis.readers.output import parse_file, parse_text

COUNTED_TYPES = [
    "hdrhistogram",
    "raw",
    "hdrhistogram+histogram",
    "hdrhistogram+raw",
    "locale-de",
    "interval-both",
]


def only(path):
    (out,) = parse_file(path)
    return out


@pytest.mark.parametrize("name", COUNTED_TYPES)
def test_interval_counts_add_up_to_the_final_report_operations(name):
    status = only(OUTPUTS / f"{name}.err").status_measurements
    report = only(OUTPUTS / f"{name}.out").summary
    for op in ("READ", "UPDATE"):
        st = status.filter((pl.col("operation") == op) & ~pl.col("failed") & ~pl.col("intended")
                           & pl.col("structure").is_in(["", "hdrhistogram"]))
        rep = report.filter((pl.col("operation") == op) & ~pl.col("failed") & ~pl.col("intended")
                            & pl.col("structure").is_in(["", "hdrhistogram"]))
        assert st["count"].sum() == rep["operations"][0]


def test_first_interval_of_zero_ms_reads_infinity():
    e = only(OUTPUTS / "hdrhistogram.err").status_entries
    assert math.isinf(e["current_ops_per_s"][0])
    assert e["current_ops_per_s"][1:].is_finite().all()


def test_german_decimal_commas_become_decimals():
    de = only(OUTPUTS / "locale-de.err")
    assert (de.status_measurements["average_latency_us"] % 1 != 0).any()
    cur = de.status_entries["current_ops_per_s"]
    assert (cur.filter(cur.is_finite()) % 1 != 0).any()
    m = de.status_measurements.filter(pl.col("count") > 0)
    assert (m["min_latency_us"] <= m["average_latency_us"]).all()
    assert (m["average_latency_us"] <= m["max_latency_us"]).all()


def test_multi_line_entries_of_two_in_one_types_are_one_entry_each():
    path = OUTPUTS / "hdrhistogram+histogram.err"
    heads = sum(1 for line in path.read_text().splitlines() if " sec: " in line)
    out = only(path)
    assert len(out.status_entries) == heads
    per_entry = out.status_measurements.group_by("entry").agg(pl.col("structure").cast(pl.String))
    assert all({"hdrhistogram", "histogram"} <= set(s) for s in per_entry["structure"])


def test_average_only_and_raw_summaries_are_read():
    hist = only(OUTPUTS / "histogram.err").status_measurements
    assert set(hist["format"]) == {"average"} and hist["average_latency_us"].is_not_null().all()
    raw = only(OUTPUTS / "raw.err").status_measurements
    assert set(raw["format"]) == {"raw"} and (raw["count"] > 0).all()


LINE = (
    "2026-11-22 22:11:22:082 1 sec: 148 operations; 136 current ops/sec; "
    "est completion in 2 second "
    "[READ: Count=58, Max=3251, Min=2, Avg=1146.72, 90=2105, 99=3251, 99.9=3251, 99.99=3251] "
)


def test_last_line_printed_twice_counts_once():
    (out,) = parse_text(LINE + "\n" + LINE + "\n")
    assert len(out.status_entries) == 1
    assert out.status_measurements["count"].sum() == 58


def test_label_prefix_and_estimate_variants_are_read():
    text = "\n".join(
        [
            "run-a"
            + LINE.replace("est completion in 2 second", "est completion in 1 hours 3 minutes"),
            LINE.replace("est completion in 2 second ", ""),
        ]
    )
    (out,) = parse_text(text)
    e = out.status_entries
    assert list(e["label"]) == ["run-a", ""]
    assert e["est_completion"][0] == "1 hours 3 minutes"
    assert out.status_measurements["p99.9"].to_list() == [3251, 3251]


def test_empty_interval_minimum_and_nan_average_are_missing_values():
    line = (
        "2026-11-22 22:11:23:095 2 sec: 300 operations; 142,86 current ops/sec; "
        "[READ: Count=0, Max=0, Min=9223372036854775807, Avg=NaN, 90=0, 99=0, 99.9=0, 99.99=0] "
    )
    (out,) = parse_text(line)
    m = {k: math.nan if v is None else v
         for k, v in out.status_measurements.row(0, named=True).items()}
    assert (
        m["count"] == 0 and math.isnan(m["min_latency_us"]) and math.isnan(m["average_latency_us"])
    )
    assert out.status_entries["current_ops_per_s"][0] == pytest.approx(142.86)


BLOCK_FIXTURES = [
    OUTPUTS / "hdrhistogram+histogram.err",
    OUTPUTS / "locale-de.err",
    OUTPUTS / "raw.out",
    OUTPUTS / "timeseries.out",
    SEED / "hbase-insert-4-clients.txt",
]


@pytest.mark.parametrize("path", BLOCK_FIXTURES, ids=lambda p: p.name)
def test_a_file_read_in_small_blocks_parses_exactly_as_the_whole_text(path):
    # 300-byte blocks cut through the multi-line entries of the two-in-one types and
    # between the outputs of the seed's four pasted clients.
    whole = parse_text(path.read_text(encoding="utf-8"), source=str(path))
    blocks = parse_file(path, block_bytes=300)
    assert [o.source for o in blocks] == [o.source for o in whole]
    for b, w in zip(blocks, whole):
        assert b.line_counts == w.line_counts
        for frame in (
            "report",
            "status_entries",
            "status_measurements",
            "timeseries",
            "raw_datapoints",
        ):
            assert_frame_equal(getattr(b, frame), getattr(w, frame))


def test_an_entry_repeated_in_a_later_block_counts_once_as_in_a_whole_file_parse(tmp_path):
    # The same status log pasted twice: with one block per copy, every entry of the second
    # block repeats one of the first, as YCSB's repeated last line does within a file.
    real = (OUTPUTS / "hdrhistogram.err").read_text(encoding="utf-8")
    path = tmp_path / "client-0.err"
    path.write_text(real + real, encoding="utf-8")
    (blocks,) = parse_file(path, block_bytes=len(real.encode("utf-8")))
    (whole,) = parse_text(real + real)
    (once,) = parse_file(OUTPUTS / "hdrhistogram.err")
    assert_frame_equal(blocks.status_entries, whole.status_entries)
    assert_frame_equal(blocks.status_measurements, whole.status_measurements)
    assert len(blocks.status_entries) == len(once.status_entries)
