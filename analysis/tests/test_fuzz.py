"""Mutated and truncated YCSB lines never crash the parsers: they are skipped and counted."""

import random

import polars as pl
from conftest import OUTPUTS, SEED
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from ycsb_analysis.readers.lines import LINE_KINDS, classify
from ycsb_analysis.readers.output import parse_text

REAL_LINES = []
for name in [
    "hdrhistogram.err",
    "hdrhistogram+histogram.err",
    "raw.err",
    "locale-de.err",
    "timeseries.out",
    "raw.out",
    "interval-both.out",
]:
    REAL_LINES += (OUTPUTS / name).read_text().splitlines()
REAL_LINES += (SEED / "hbase-insert-4-clients.txt").read_text().splitlines()


@st.composite
def mutated_line(draw):
    line = draw(st.sampled_from(REAL_LINES))
    op = draw(st.sampled_from(["truncate", "insert", "delete", "replace", "keep"]))
    if not line or op == "keep":
        return line
    pos = draw(st.integers(0, len(line)))
    junk = draw(
        st.text(
            alphabet=st.sampled_from(list("[]:,;=.- 0123456789∞NaNE\t") + ["\u00a0", "é"]),
            min_size=1,
            max_size=4,
        )
    )
    if op == "truncate":
        return line[:pos]
    if op == "insert":
        return line[:pos] + junk + line[pos:]
    if op == "delete":
        return line[:pos] + line[pos + len(junk) :]
    return line[:pos] + junk + line[pos + len(junk) :]


@settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.lists(mutated_line(), min_size=1, max_size=30))
@example(lines=["[UPDATE], Return=OK, .134"])  # a count that is no whole number (found by it)
def test_mutated_lines_are_parsed_or_counted_never_crash(lines):
    text = "\n".join(lines)
    outputs = parse_text(text)
    counted = sum(sum(o.line_counts.values()) for o in outputs)
    assert counted == len(text.splitlines())
    for o in outputs:
        assert set(o.line_counts) <= set(LINE_KINDS)
        # Whatever was recognised has the documented columns.
        if o.status_measurements.height:
            assert {"metric", "count", "average_latency_us"} <= set(o.status_measurements.columns)
        _ = o.summary, o.returns, o.overall


@settings(max_examples=200, deadline=None, database=None)
@given(st.text(max_size=300))
def test_arbitrary_text_is_classified_line_by_line(text):
    lines = pl.Series("text", text.splitlines(), dtype=pl.String)
    kinds = lines.to_frame().select(classify(pl.col("text"))).to_series()
    assert len(kinds) == len(lines)
    assert set(kinds) <= set(LINE_KINDS)
    parse_text(text)


def test_garbage_between_real_lines_is_counted_as_unknown():
    rnd = random.Random(7)
    real = (OUTPUTS / "hdrhistogram.err").read_text().splitlines()
    garbage = [f"garbage {rnd.random()}" for _ in range(5)]
    (out,) = parse_text("\n".join(garbage[:2] + real + garbage[2:]))
    assert out.line_counts["unknown"] >= 5
    assert len(out.status_entries) == sum(" sec: " in x for x in real)
