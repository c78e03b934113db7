"""The status-line fast path (``fast_status``: numbers read with numpy, each distinct line
skeleton checked once) gives exactly what the readable path (every line classified and
scanned by regex) gives: on every real output (``test_fast_raw`` compares whole parses of
every fixture at two block sizes), on a dense log grown from the fixtures at several block
sizes, and on real lines with doubtful variants spliced in, which must go the readable way."""

from __future__ import annotations

import numpy as np
import pandas as pd
from conftest import OUTPUTS
from test_fast_raw import TEXT_OUTPUTS, assert_same
from ycsb_analysis import fast_raw, fast_status, line_formats, multi_output, status_parser


def readable(text: str, monkeypatch, block_bytes: int | None = None):
    with monkeypatch.context() as m:
        m.setattr(multi_output, "piece_of", lambda t: fast_raw.Piece.of_lines(t.splitlines()))
        return parse(text, block_bytes)


def parse(text: str, block_bytes: int | None):
    if block_bytes is None:
        return multi_output.parse_text(text)
    blocks = [text[i : i + block_bytes] for i in range(0, len(text), block_bytes)]
    # whole lines per block, as text_blocks cuts them
    joined, out = "", []
    for b in blocks:
        joined += b
        cut = joined.rfind("\n") + 1
        if cut:
            out.append(joined[:cut])
            joined = joined[cut:]
    if joined:
        out.append(joined)
    return multi_output._parse_blocks(iter(out), "<text>")


def status_lines(name: str) -> list[str]:
    text = (OUTPUTS / name).read_text(encoding="utf-8")
    return [ln for ln in text.splitlines() if " sec: " in ln or ln.startswith(("[", " [", "Raw"))]


def test_the_fast_path_reads_the_status_lines_of_the_fixtures():
    """Guard against comparing the readable path with itself: nearly every status line of the
    fixtures is read by the fast path (the exceptions are named in the next test)."""
    taken = total = 0
    for path in TEXT_OUTPUTS:
        text = path.read_text(encoding="utf-8", errors="replace")
        piece = fast_raw.piece_of(text)
        kinds = multi_output.kinds_of(piece).to_numpy()   # of the lines not read here
        total += int(np.isin(kinds, ["status", "status_continuation"]).sum()) + len(piece.status)
        taken += len(piece.status)
    assert total > 200 and taken >= 0.95 * total


def test_doubtful_lines_go_the_readable_way_with_their_whole_entry(monkeypatch):
    head = [ln for ln in status_lines("hdrhistogram.err") if "est completion in " in ln][2]
    de = status_lines("locale-de.err")[2]
    two_in_one = status_lines("hdrhistogram+histogram.err")[:10]
    odd = [
        head.replace("2026-", "run7 2026-", 1),                 # a label with a digit
        head.replace("Min=", "Min=-", 1),                        # a negative latency
        head.replace("Count=", "Count=1234567890123456", 1),     # 16 digits
        head.replace("-11-", "-13-", 1),                         # no such month
        head.replace("Avg=", "Avg=1.2.", 1),                     # two decimal marks
        head.replace("current ops/sec; ", "current ops/sec;\t", 1),
        head.replace("est completion in ", "est completion in  ", 1),
        head.replace("[READ:", "[RÉAD:", 1),                      # a non-ASCII name
        head.replace("99.9=", "99,9=", 1),                       # a percentile with a comma
    ]
    # Other percentiles than its twins: another skeleton (names stay as written), read here.
    other_percentiles = head.replace("90=", "95=", 1)
    # A continuation line the fast path does not read makes its whole entry go the readable way.
    broken = two_in_one[1].replace("AverageLatency(us)=", "AverageLatency(us)=x")
    odd_entry = [two_in_one[0], broken]
    foreign = "20/01/19 13:19:16 INFO zookeeper.ZooKeeper: Session: 0x36f98ad0a4ad8cc closed"
    lines = [head, de] + odd + [de] + two_in_one + [foreign] + odd_entry + two_in_one[2:]
    lines.append(other_percentiles)
    # distinct times, so that no entry is YCSB's repeated last line
    lines = [
        ln.replace("23:1", f"0{i % 10}:{i % 6}", 1) for i, ln in enumerate(lines)
    ]
    assert all(o != head for o in odd)
    text = "\n".join(lines) + "\n"
    for block_bytes in (None, 700):
        assert_same(parse(text, block_bytes), readable(text, monkeypatch, block_bytes))
    piece = fast_raw.piece_of(text)
    read = set(piece.status.pos.tolist())
    assert not read & set(range(2, 2 + len(odd))), "a doubtful line was read by the fast path"
    assert {0, 1, len(lines) - 1} <= read
    assert len(read) >= len(two_in_one) * 2


def test_a_dense_log_parses_the_same_in_any_block_size(monkeypatch):
    lines = []
    for name in ("hdrhistogram.err", "locale-de.err", "hdrhistogram+histogram.err", "raw.err",
                 "histogram.err", "interval-both.err"):
        lines += status_lines(name)
    lines.insert(7, "20/01/19 13:19:16 INFO zookeeper.ZooKeeper: Session: 0x36f98ad0a4ad8cc closed")
    text = "".join(
        "\n".join(lines).replace("2026-11-22 2", f"2026-11-{10 + k} 2") + "\n" for k in range(6)
    )
    ref = readable(text, monkeypatch)
    for block_bytes in (None, 4096, 997, 300):
        assert_same(parse(text, block_bytes), ref)
    (out,) = ref
    assert len(out.status_entries) > 100 and len(out.status_measurements) > 500


def test_each_skeleton_is_checked_once_against_the_grammar():
    line = status_lines("hdrhistogram.err")[3].encode()
    skeleton = fast_status.layout_of(
        b"2026-11-22 23:12:04:402 1 sec: 149 operations; 132 current ops/sec; "
        .replace(b"2026-11-22 23:12:04:402", b"#-#-# #:#:#:#").replace(b"1 sec", b"# sec")
        .replace(b"149", b"#").replace(b"132", b"#")
    )
    assert skeleton is not None and skeleton.head and skeleton.measurements == ()
    assert fast_status.layout_of(b"[READ], Operations, #") is None   # a report line
    starts = np.array([0])
    ends = np.array([len(line)])
    read = fast_status.read_status_lines(line + b"\n", starts, ends)
    assert len(read) == 1 and len(read.rows["pos"]) >= 1
    assert list(read.rows)[:7] == fast_status.ROW_COLUMNS
    assert pd.api.types.is_float_dtype(read.rows["count"])


def test_parse_file_equals_the_readable_oracle_on_the_status_fixtures():
    """On every real status output, what ``parse_file`` keeps (fast path, blocks, categorical
    text columns) is value for value what the readable parser alone gives for the whole
    text: ``status_parser`` over ``line_formats.classify_lines``, no fast path, no blocks."""
    compared = 0
    for path in TEXT_OUTPUTS:
        text = path.read_text(encoding="utf-8", errors="replace")
        if " sec: " not in text:
            continue
        outputs = multi_output.parse_file(path, block_bytes=997)
        if len(outputs) != 1 or outputs[0].status_entries.empty:
            continue
        (out,) = outputs
        lines = pd.Series(text.splitlines(), dtype=object)
        texts = status_parser.join_entries(lines, line_formats.classify_lines(lines))
        entries = status_parser.parse_status_entries(texts)
        oracle = status_parser.parse_status_measurements(entries)
        pd.testing.assert_frame_equal(
            out.status_entries, entries.drop(columns="measurements_text"), check_dtype=False,
            obj=f"{path.name} entries",
        )
        pd.testing.assert_frame_equal(out.status_measurements, oracle, obj=path.name)
        for c in ("metric", "operation", "structure", "format"):   # one byte a row
            column = out.status_measurements[c]
            assert isinstance(column.dtype, pd.CategoricalDtype), c
            assert list(column.cat.categories) == sorted(set(column.astype(object))), c
        compared += 1
    assert compared >= 5
