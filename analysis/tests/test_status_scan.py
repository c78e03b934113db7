"""The compiled status scanner (``_status_scan.c``, used by ``fast_status``) reads exactly what
the numpy reader and the readable parser read: value by value on every real output, on real
lines mutated at random (a doubtful line goes the readable way, never gives a wrong number),
and on numbers of every shape; entry fingerprints folded from the lines equal the texts'. On
CI the scanner must be built (``CI=true``): a broken build fails there instead of silently
making the parse ~5x slower."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest
from conftest import OUTPUTS
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_fast_raw import TEXT_OUTPUTS, assert_same
from test_fuzz import REAL_LINES, mutated_line
from ycsb_analysis import fast_raw, fast_status, line_formats, multi_output

compiled_only = pytest.mark.skipif(
    fast_status._status_scan is None, reason="the compiled scanner is not built here"
)


def test_the_compiled_scanner_is_built_on_ci():
    if fast_status._status_scan is None and os.environ.get("CI", "").lower() != "true":
        pytest.skip("no C compiler when the package was installed (numpy reader in use)")
    assert fast_status.engine() == "compiled", (
        "ycsb_analysis._status_scan is missing: `pip install -e analysis` did not build it "
        "(a C compiler and Python's headers are needed)"
    )


def lines_and_bounds(text: str) -> tuple[bytes, np.ndarray, np.ndarray]:
    data = text.encode("utf-8")
    if not data.endswith(b"\n"):
        data += b"\n"
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
    return data, np.concatenate([[0], ends[:-1] + 1]).astype(np.int64), ends


def assert_same_lines(a: fast_status.StatusLines, b: fast_status.StatusLines, what: str):
    assert a.pos.tolist() == b.pos.tolist(), what
    assert a.head.tolist() == b.head.tolist(), what
    assert a.spans.tolist() == b.spans.tolist(), what
    for side in ("heads", "rows"):
        x, y = getattr(a, side), getattr(b, side)
        assert list(x) == list(y), (what, side)
        # text columns compared as text (the order of a block's categories is not kept)
        x, y = (pd.DataFrame({c: np.asarray(v, dtype=object) if isinstance(v, pd.Categorical)
                              else v for c, v in z.items()}) for z in (x, y))
        pd.testing.assert_frame_equal(x, y, obj=f"{what} {side}")


def both_readers(text: str) -> tuple[fast_status.StatusLines, fast_status.StatusLines]:
    data, starts, ends = lines_and_bounds(text)
    compiled = fast_status.compiled_status_lines(data)
    assert compiled is not None
    return compiled, fast_status._numpy_status_lines(data, starts, ends)


@compiled_only
def test_the_compiled_and_the_numpy_reader_agree_on_every_real_output():
    read = 0
    for path in TEXT_OUTPUTS:
        text = path.read_text(encoding="utf-8", errors="replace")
        if any(ch in text for ch in ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85")):
            continue
        compiled, numpy_read = both_readers(text)
        assert_same_lines(compiled, numpy_read, path.name)
        read += len(compiled)
    assert read > 200


@compiled_only
def test_a_whole_parse_is_the_same_with_either_reader(monkeypatch):
    """Also the fallback: with the numpy reader, parse_file gives what it gives compiled."""
    compared = 0
    for path in TEXT_OUTPUTS:
        if b" sec: " not in path.read_bytes():
            continue
        fast = multi_output.parse_file(path, block_bytes=997)
        compared += 1
        with monkeypatch.context() as m:
            m.setattr(fast_status, "USE_COMPILED", False)
            assert fast_status.engine() == "numpy"
            assert_same(fast, multi_output.parse_file(path, block_bytes=997))
    assert compared >= 8


@compiled_only
def test_blocks_of_status_lines_and_messages_only_parse_as_the_general_feed(monkeypatch):
    """The feed of a block whose lines are all status lines read by the scanner, or messages
    only counted (a status log's usual block), gives what the general feed gives."""
    taken = 0
    feed = multi_output._FileParse._feed_status_and_messages

    def counted(self, piece, kinds):
        nonlocal taken
        taken += 1
        return feed(self, piece, kinds)

    compared = 0
    for path in TEXT_OUTPUTS:
        if b" sec: " not in path.read_bytes():
            continue
        with monkeypatch.context() as m:
            m.setattr(multi_output._FileParse, "_feed_status_and_messages", counted)
            fast = multi_output.parse_file(path, block_bytes=997)
        with monkeypatch.context() as m:
            m.setattr(multi_output, "_status_and_messages_only", lambda piece, kinds: False)
            assert_same(fast, multi_output.parse_file(path, block_bytes=997))
        compared += 1
    assert compared >= 8
    assert taken > 20


def readable(text: str, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(multi_output, "piece_of", lambda t: fast_raw.Piece.of_lines(t.splitlines()))
        return multi_output.parse_text(text)


STATUS_LINES = [ln for ln in REAL_LINES if " sec: " in ln or ln.startswith(("[", " [", "Raw"))]


@st.composite
def status_text(draw):
    """Real status lines (several entries, multi-line ones included), some mutated, with
    distinct times so that no entry is YCSB's repeated last line by chance."""
    lines = draw(st.lists(st.one_of(st.sampled_from(STATUS_LINES), mutated_line()),
                          min_size=1, max_size=25))
    return "\n".join(
        ln.replace(":", f"{i % 10}:", 1) if i % 3 else ln for i, ln in enumerate(lines)
    ) + "\n"


@compiled_only
@settings(max_examples=120, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(status_text())
# found by this test: a head the scanner compiled (its percentile columns named) but did
# not read (hour 231), after a line it did read
@example(
    "[BucketREAD-FAILED AverageLatency(us)=2619.5] \n2026-11-22 231:11:46:121 0 sec: 15 "
    "operations; 7 current ops/sec; est completion in 0 second [READ: Count=8, Max=3731, "
    "Min=2, Avg=1159.25, 90=3731, 99=3731, 99.9=3731, 99.99=3731] \n"
)
# found by this test: continuation lines of no entry (the text's start) naming percentiles,
# then entries the scanner did not read (impossible hours), then one without percentiles:
# no percentile column, as the readable parser has none
@example(
    "[HdrUPDATE-FAILED: Count=1, Max=1220, Min=1220, Avg=1220, 90=1220, 99=1220]\n"
    "2026-11-22 231:11:46:121 0 sec: 15 operations; 7 current ops/sec; est completion in 0 "
    "second [READ: Count=8, Max=3731, Min=2, Avg=1159.25, 90=3731, 99=3731] \n"
    "2026-11-22 23:11:50:998 0 sec: 5 operations; 7 current ops/sec; est completion in 0 "
    "second [READ AverageLatency(us)=3360] \n"
)
# ... and when the entries after them have no measurement at all: no measurement row
@example(
    "[HdrUPDATE-FAILED: Count=1, Max=1220, Min=1220, Avg=1220, 90=1220, 99=1220]\n"
    "2026-11-22 23:11:53:013 2 sec: 300 operations; 76.92 current ops/sec;      \n"
)
def test_mutated_status_lines_parse_as_the_readable_parser_parses_them(monkeypatch, text):
    assert_same(multi_output.parse_text(text), readable(text, monkeypatch))
    compiled, numpy_read = both_readers(text)
    assert_same_lines(compiled, numpy_read, "mutated lines")


HEAD = (
    "2026-11-22 23:12:04:402 1 sec: 149 operations; 132 current ops/sec; est completion in 2 "
    "second [READ: Count=64, Max={max}, Min={min}, Avg={avg}, 90=2111, 99=3707] "
    "[UPDATE AverageLatency(us)={avg}] RawREAD count: 3, average latency(us): {avg}"
)
NUMBER = st.one_of(
    st.integers(0, 10**20).map(str),
    st.from_regex(r"\A[0-9]{1,12}[.,][0-9]{1,12}\Z"),
    st.sampled_from(["9223372036854775807", "9223372036854775806", "9223372036854775808",
                     "09223372036854775807", "0.0", "00", "1.2.3", "1,2", "1..2", "-5",
                     "123456789012345", "1234567890123456", "99999999999999.9", "NaN",
                     "4.9406564584124654", "0.30000000000000004", "1e5"]),
)


@compiled_only
@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(NUMBER, NUMBER, NUMBER)
def test_numbers_of_every_shape_are_read_as_to_number_reads_them(monkeypatch, mx, mn, avg):
    """Each figure the scanner gives is ``line_formats.to_number``'s (Long.MAX_VALUE and more:
    missing); a number it is not sure of sends the line the readable way."""
    text = HEAD.format(max=mx, min=mn, avg=avg) + "\n"
    fast = multi_output.parse_text(text)
    assert_same(fast, readable(text, monkeypatch))
    (out,) = fast
    read = fast_status.compiled_status_lines(text.encode())
    if len(read):   # read here: the figures are to_number's
        expect = line_formats.to_number(pd.Series([avg], dtype=object)).iloc[0]
        got = out.status_measurements["average_latency_us"].iloc[0]
        assert (np.isnan(expect) and np.isnan(got)) or got == expect


@compiled_only
def test_every_head_keeps_its_own_estimate_however_many_a_block_holds():
    """A long run's estimates differ from entry to entry (est completion in 59 minutes, 58
    minutes, ...): more distinct texts in one block than the scanner's table first holds, which
    then grows; each head still gets its own text, as the numpy reader gives it."""
    text = "".join(
        HEAD.format(max=4081, min=6, avg=1101.64).replace("in 2 second", f"in {k} minutes") + "\n"
        for k in range(300, 0, -1)
    )
    compiled, numpy_read = both_readers(text)
    assert_same_lines(compiled, numpy_read, "300 estimates")
    assert compiled.heads["est_completion"][:2].tolist() == ["300 minutes", "299 minutes"]


@compiled_only
@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",),
                                               blacklist_characters="\n\r"), max_size=40),
                min_size=1, max_size=5))
def test_an_entry_fingerprint_folded_from_its_lines_is_its_texts(lines):
    scan = fast_status._status_scan
    hashes = np.frombuffer(scan.text_hashes(lines), dtype=np.uint64).reshape(-1, 2)
    nbytes = np.array([len(ln.encode()) for ln in lines], dtype=np.int64)
    first = np.zeros(len(lines), dtype=np.uint8)
    first[0] = 1
    folded = np.frombuffer(
        scan.entry_hashes(hashes.tobytes(), nbytes.tobytes(), first.tobytes()), dtype=np.uint64
    )
    whole = np.frombuffer(scan.text_hashes([" ".join(lines)]), dtype=np.uint64)
    assert folded.tolist() == whole.tolist()


@compiled_only
def test_a_repeated_entry_is_dropped_across_blocks_whichever_way_it_was_read(monkeypatch):
    """YCSB's repeated last entry, in the next block: a multi-line entry the scanner reads,
    and one it refuses (read the readable way, fingerprinted from its text); one copy kept."""
    text = (OUTPUTS / "hdrhistogram+histogram.err").read_text(encoding="utf-8")
    status = [ln for ln in text.splitlines() if " sec: " in ln or ln.startswith(("[", " [", "Raw"))]
    heads = [i for i, ln in enumerate(status) if " sec: " in ln]
    entry = status[heads[1] : heads[2]]
    assert len(entry) >= 2
    odd = [entry[0].replace("Count=", "Count=1234567890123456", 1), *entry[1:]]   # 16 digits
    blocks = ["\n".join(entry) + "\n", "\n".join(entry + odd) + "\n", "\n".join(odd) + "\n"]
    fast = multi_output._parse_blocks(iter(blocks), "<text>")
    assert_same(fast, readable("".join(blocks), monkeypatch))
    (out,) = fast
    assert len(out.status_entries) == 2


def test_a_big_file_read_without_the_scanner_says_so(tmp_path, monkeypatch):
    path = tmp_path / "client-0.err"
    path.write_text("\n".join(STATUS_LINES[:40]) + "\n", encoding="utf-8")
    monkeypatch.setattr(fast_status, "USE_COMPILED", False)
    monkeypatch.setattr(fast_status, "SLOW_ENGINE_SAID", False)
    monkeypatch.setattr(multi_output, "SLOW_ENGINE_NOTICE_BYTES", 100)
    with pytest.warns(RuntimeWarning, match="numpy reader"):
        multi_output.parse_file(path)
    assert fast_status.engine() == "numpy"
