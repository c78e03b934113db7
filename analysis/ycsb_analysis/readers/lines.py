"""A YCSB text file as numbered lines, read in blocks, each line labelled with its kind.

A run writes a handful of line shapes to stdout and stderr, mixed with whatever the binding
logs (HBase's ``INFO zookeeper.ZooKeeper`` lines, for instance). Each shape is defined once, in
:mod:`.line_formats`; :func:`classify` labels a block of lines with one of
:data:`LINE_KINDS`, in this order of precedence:

``status``               ``2026-11-22 22:09:44:123 0 sec: 21 operations; ∞ current ops/sec; …``
``timeseries``           ``[READ], 0, 623.7826086956521`` (``measurementtype=timeseries``)
``report``               ``[READ], 99thPercentileLatency(us), 1408``
``status_continuation``  ``[BucketREAD AverageLatency(us)=671.39] [HdrUPDATE: Count=39, …``
``raw_datapoint``        ``READ,1795385384846,2701`` (``measurementtype=raw``)
``ycsb_message``         ``Loading workload...``, ``DBWrapper: report latency …``, …
``blank``                empty or whitespace only
``unknown``              anything else: skipped and counted
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import polars as pl

from .line_formats import (
    RAW_DATAPOINT,
    REPORT_LINE,
    STATUS_CONTINUATION,
    STATUS_HEAD,
    TIMESERIES_LINE,
    YCSB_MESSAGE,
)

LINE_KINDS = ("report", "timeseries", "status", "status_continuation", "raw_datapoint",
              "ycsb_message", "blank", "unknown")

# A big file is read in blocks of about this many bytes of whole lines: memory holds one
# block's lines, not the file's.
BLOCK_BYTES = 16 * 2**20


def classify(text: pl.Expr) -> pl.Expr:
    """The kind of each line of ``text`` (see the module's table)."""
    return (
        pl.when(text.str.contains(" sec: ", literal=True) & text.str.contains(STATUS_HEAD))
        .then(pl.lit("status"))
        .when(text.str.contains(TIMESERIES_LINE)).then(pl.lit("timeseries"))
        .when(text.str.contains(REPORT_LINE)).then(pl.lit("report"))
        .when(text.str.contains(STATUS_CONTINUATION)).then(pl.lit("status_continuation"))
        .when(text.str.contains(RAW_DATAPOINT)).then(pl.lit("raw_datapoint"))
        .when(text.str.contains(YCSB_MESSAGE)).then(pl.lit("ycsb_message"))
        .when(text.str.strip_chars() == "").then(pl.lit("blank"))
        .otherwise(pl.lit("unknown"))
    )


def text_encoding(head: bytes) -> str:
    """The encoding of a file from its first bytes: UTF-16 with a byte-order mark (what
    PowerShell's ``>`` writes), UTF-16 without one (a NUL in every other byte of ASCII text),
    UTF-8 with or without a BOM."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if head.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    even, odd = head[0::2], head[1::2]
    if len(head) >= 8 and odd.count(0) > 0.8 * len(odd) and even.count(0) < 0.2 * len(even):
        return "utf-16-le"
    if len(head) >= 8 and even.count(0) > 0.8 * len(even) and odd.count(0) < 0.2 * len(odd):
        return "utf-16-be"
    return "utf-8"


def utf8_blocks(path: Path, encoding: str, block_bytes: int = BLOCK_BYTES) -> Iterator[bytes]:
    """The file as UTF-8 bytes in blocks that end at a line end (the last block: where the
    file ends)."""
    with path.open("rb") as f:
        if encoding not in ("utf-8", "utf-8-sig"):
            text = io.TextIOWrapper(f, encoding=encoding, errors="replace", newline="\n")
            while data := text.read(block_bytes):
                yield (data + text.readline()).encode("utf-8")
            return
        if encoding == "utf-8-sig":
            f.read(3)
        while data := f.read(block_bytes):
            if not data.endswith(b"\n"):
                data += f.readline()   # the rest of the block's last line
            yield data


def withhold_cut_line(blocks: Iterator[bytes], cut: list[str]) -> Iterator[bytes]:
    """The blocks, less a last line that has no line end: it goes into ``cut``.

    YCSB ends every line it prints with a newline, so a file whose last line lacks one was cut
    (a disk filled, a copy interrupted, a client killed mid-write): ``[OVERALL], RunTime(ms),
    40`` may be the first digits of 400. Such a line is never read as data.
    """
    for block in blocks:
        if block.endswith((b"\n", b"\r")):
            yield block
            continue
        start = max(block.rfind(b"\n"), block.rfind(b"\r")) + 1
        rest = block[start:].decode("utf-8", errors="replace")
        if rest.strip():
            cut.append(rest)
        if start:
            yield block[:start]


def lines_of(block: bytes, first_line: int) -> pl.DataFrame:
    """``line`` (its number in the file, from ``first_line``) and ``text`` of a block's lines."""
    try:
        frame = pl.scan_lines(block, name="text").collect()
    except pl.exceptions.ComputeError:   # not valid UTF-8
        text = block.decode("utf-8", errors="replace").encode()
        frame = pl.scan_lines(text, name="text").collect()
    frame = frame.with_row_index("line", offset=first_line).with_columns(
        pl.col("line").cast(pl.Int64))
    if b"\r" in block:   # (Windows line ends: the \r of each)
        frame = frame.with_columns(pl.col("text").str.strip_suffix("\r"))
    return frame
