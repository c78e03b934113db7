"""The fast path (``fast_raw``: raw datapoints read from bytes with pyarrow's CSV reader, or
numpy for doubtful blocks) gives exactly what the readable path (every line classified and
scanned by regex) gives, on every real output of the fixtures, for several block sizes (so
raw runs are cut between blocks), and on lines pyarrow would read more leniently."""

from __future__ import annotations

import os
import re

import pandas as pd
import pytest
from conftest import FIXTURES
from ycsb_analysis import fast_raw, multi_output
from ycsb_analysis.errors import UnreadableInput
from ycsb_analysis.multi_output import parse_file

TEXT_OUTPUTS = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".out", ".err", ".txt"))


@pytest.fixture(params=["compiled", "pyarrow"])
def engine(request, monkeypatch):
    """Each test that takes it runs with the C scanner first and with pyarrow first."""
    if request.param == "compiled" and fast_raw._raw_scan is None:
        missing = "the C scanner _raw_scan is not built (no C compiler at install)"
        if os.environ.get("CI") == "true":   # .ci/run installs a compiler: it must be built
            pytest.fail(missing)
        pytest.skip(missing)
    monkeypatch.setattr(fast_raw, "USE_COMPILED", request.param == "compiled")
    return request.param


def readable_parse(path, block_bytes, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(multi_output, "piece_of", lambda text: fast_raw.Piece.of_lines(
            (text if isinstance(text, str) else text.decode("utf-8", "replace")).splitlines()
        ))
        return parse_file(path, block_bytes)


def assert_same(fast, ref):
    assert len(fast) == len(ref)
    for f, r in zip(fast, ref):
        assert f.source == r.source and f.line_counts == r.line_counts and f.cut_line == r.cut_line
        assert f.incomplete_blocks == r.incomplete_blocks
        for name in (
            "report",
            "status_entries",
            "status_measurements",
            "timeseries",
            "raw_datapoints",
        ):
            pd.testing.assert_frame_equal(
                getattr(f, name), getattr(r, name), obj=f"{f.source} {name}"
            )


@pytest.mark.parametrize("path", TEXT_OUTPUTS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fast_path_equals_readable_path_on_every_fixture(path, engine, monkeypatch):
    for block_bytes in (multi_output.BLOCK_BYTES, 997):
        try:
            fast = parse_file(path, block_bytes)
        except UnreadableInput as e:   # the same sentence either way
            with pytest.raises(UnreadableInput, match=re.escape(str(e))):
                readable_parse(path, block_bytes, monkeypatch)
            continue
        assert_same(fast, readable_parse(path, block_bytes, monkeypatch))


def test_the_fast_path_reads_the_raw_fixtures(engine, monkeypatch):
    """Guard against a comparison of the readable path with itself: on the raw outputs the
    fast path must have read the datapoints."""
    taken = []
    real = fast_raw.piece_of

    def spy(text):
        piece = real(text)
        taken.append(len(piece.raw_pos))
        return piece
    monkeypatch.setattr(multi_output, "piece_of", spy)
    raw_files = [p for p in TEXT_OUTPUTS if p.name.endswith("raw.out")]
    assert raw_files
    for p in raw_files:
        taken.clear()
        (out,) = parse_file(p)
        assert sum(taken) == len(out.raw_datapoints) > 100


def test_doubtful_lines_go_the_readable_way_and_keep_their_place(engine, monkeypatch):
    """Real raw lines with, spliced in, lines the fast path must not take: a non-ASCII name, a
    16-digit latency, a trailing blank, a report line, a status head."""
    real = [ln for ln in (FIXTURES / "outputs" / "raw.out").read_text().splitlines()]
    raw = [ln for ln in real if ln.count(",") == 2 and not ln.startswith("[")]
    odd = [
        "RÉAD,1795385384846,27",
        "READ,1795385384846,1234567890123456",
        "READ,1795385384846,27 ",
        "[READ], Operations, 3",
        "READ,179538538,27",
        "READ,,27",
        ",1795385384846,27",
        "READ,1795385384846,-",
    ]
    text = "\n".join(raw[:50] + odd + raw[50:] + [ln for ln in real if ln.startswith("[")]) + "\n"
    fast = multi_output.parse_text(text)
    with monkeypatch.context() as m:
        m.setattr(multi_output, "piece_of", lambda t: fast_raw.Piece.of_lines(t.splitlines()))
        ref = multi_output.parse_text(text)
    assert_same(fast, ref)
    piece = fast_raw.piece_of(text)
    all_lines = text.splitlines()
    taken_slow = {all_lines[i] for i in piece.line_pos}
    assert set(odd) <= taken_slow
    assert [all_lines[i] for i in piece.line_pos] == piece.lines


def _spliced(odd: str) -> str:
    real = (FIXTURES / "outputs" / "raw.out").read_text().splitlines()
    raw = [ln for ln in real if ln.count(",") == 2 and not ln.startswith("[")]
    return "\n".join(raw[:50] + [odd] + raw[50:] + [ln for ln in real if ln.startswith("[")]) + "\n"


@pytest.mark.parametrize("odd", [
    "READ,1795385384846,0x1F",           # pyarrow reads hexadecimal integers
    "READ,0X1A2B3C4D5E,27",
    "READ,1795385384846, 27",            # ... and trims spaces and tabs
    "READ,1795385384846,27\t",
    "READ,1795385384846,+27",
    '"READ",1795385384846,27',           # no quoting
    "READ,0001795385384846,27",          # leading zeros: the same number either way
    "READ,00000000001,27",               # 11 digits, a small number
    "READ,-1795385384846,27",
    "READ,1795385384846,9223372036854775807",   # Long.MAX_VALUE: no latency
    "READ,1795385384846,-0",
    "READ,1795385384846,",
    ",1795385384846,27",
    "READ,1795385384846,27,3",
    "READ,1795385384846",
    "",                                  # an empty line is a line
    "READ,1795385384846,27\rREAD,1795385384847,28",
    "READ,1795385384846,27\u2028READ,1795385384847,28",   # str.splitlines ends lines there too
    "READ,1795385384846,27\x85",
    "READ,17953853848460000,27",         # 17 digits: beyond what the fast paths take
    "READ,1795385384846,0000000000000027",
    "READ_-9z,1795385384846,27",
    "A" * 41 + ",1795385384846,27",      # a name over 40 characters
])
def test_lines_pyarrow_reads_leniently_are_read_as_the_readable_path_reads_them(
    odd, engine, monkeypatch
):
    text = _spliced(odd)
    fast = multi_output.parse_text(text)
    with monkeypatch.context() as m:
        m.setattr(multi_output, "piece_of", lambda t: fast_raw.Piece.of_lines(t.splitlines()))
        ref = multi_output.parse_text(text)
    assert_same(fast, ref)


def test_pyarrow_reads_the_datapoints_of_the_raw_fixtures(monkeypatch):
    """Guard: the blocks of real raw outputs go through pyarrow (header and report lines kept
    as text beside), not through the numpy fallback."""
    monkeypatch.setattr(fast_raw, "USE_COMPILED", False)
    read = []
    real = fast_raw._arrow_piece

    def spy(*args):
        piece = real(*args)
        read.append(piece is not None)
        return piece
    monkeypatch.setattr(fast_raw, "_arrow_piece", spy)
    raw_files = [p for p in TEXT_OUTPUTS if p.name.endswith("raw.out")]
    for p in raw_files:
        read.clear()
        (out,) = parse_file(p)
        assert read and all(read) and out.raw_total > 100


def test_the_compiled_scanner_reads_the_raw_fixtures_and_gives_up_on_what_it_cannot_take():
    """Guard: with the C scanner built, real raw outputs' blocks are read by it (header and
    report lines kept as text beside); a status log's block, a block with more than 256
    metric names or another line break is left to the other ways (None)."""
    if fast_raw._raw_scan is None:
        pytest.skip("the C scanner _raw_scan is not built (no C compiler at install)")
    raw = (FIXTURES / "outputs" / "raw.out").read_bytes()
    piece = fast_raw._scanned_piece(raw)
    assert piece is not None and len(piece.raw_pos) > 100 and piece.lines
    assert piece.lines == [raw.decode().splitlines()[i] for i in piece.line_pos]
    status = (FIXTURES / "outputs" / "hdrhistogram.err").read_bytes()
    assert fast_raw._scanned_piece(status) is None
    assert fast_raw._raw_scan.scan(status * 5) is None   # given up after a few dozen lines
    many = "".join(f"OP{i},1795385384846,{i}\n" for i in range(257)).encode()
    assert fast_raw._raw_scan.scan(many) is None
    assert fast_raw._raw_scan.scan(many[: many.index(b"OP256")]) is not None
    assert fast_raw._raw_scan.scan(b"READ,1795385384846,27\n\x0c\n") is None
