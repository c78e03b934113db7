"""HdrHistogram interval logs (``hdrhistogram.fileoutput=true``): one reader for V1 and V2.

YCSB writes one log per metric, ``<hdrhistogram.output.path><METRIC>.hdr``, one line per
status interval::

    #[Logging for: BATCH_READ]
    #[Histogram log format version 1.3]
    #[StartTime: 1795385515.017 (seconds since epoch), Sun Nov 22 22:11:55 UTC 2026]
    "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
    0.030,0.041,0.006,HISTFAAAACR42pNpmSzMwMDAxgABzFCaEULJ/7f/AGG9N2b6zcwCAGRcBcQ=

Timestamps are seconds relative to StartTime (or to ``#[BaseTime: ...]`` when present);
``Interval_Max`` is in seconds (µs / 10^6).

Payload encodings:

* ``HISTFAAA…`` — V2 (cookie 0x1c849314, ZigZag-LEB128 counts), written by HdrHistogram
  2.1.12; decoded by the ``hdrhistogram`` package.
* ``HISTggAA…`` — V1 (cookie 0x1c849382), written by the HdrHistogram 2.1.4 that stock YCSB
  0.17.0 ships; the ``hdrhistogram`` package rejects it, so :func:`decode_v1_counts` reads
  it here by the layout of HdrHistogram's Java encoder: a zlib envelope around a 40-byte
  header and plain big-endian counts, one per bucket index, of the word size that bits 4–7
  of the cookie give (8 for YCSB's long counts).
"""

from __future__ import annotations

import base64
import re
import struct
import zlib
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import polars as pl
from hdrh.codec import HdrHistogramEncoder
from hdrh.histogram import HdrHistogram

from ..errors import UnreadableInput
from ..hdr_logs import CountsHistogram, merge_histograms, percentiles
from ..layout import HDR_FILE

V1_COMPRESSED_COOKIE_BASE = 0x1C849302
V1_COOKIE_BASE = 0x1C849301
V2_COMPRESSED_COOKIE_BASE = 0x1C849304
V0_COMPRESSED_COOKIE_BASE = 0x1C849309
_COOKIE_BASE_MASK = ~0xF0  # bits 4-7 carry the word size
MAX_GROW = 16  # _decode_v2: at most 2^16 x the range the header states

_HEADER_LINE = re.compile(r"^#\[(?P<key>[^:\]]+):\s*(?P<value>.*?)\]?\s*$")
_FORMAT_LINE = re.compile(r"^#\[Histogram log format version [\d.]+\]")


def decode_v1_counts(payload: bytes) -> CountsHistogram:
    """Decode a V1 compressed histogram (``HISTggAA…``) into bucket counts."""
    if len(payload) < 8:
        raise ValueError("V1 histogram payload shorter than its 8-byte envelope")
    cookie, deflated_length = struct.unpack(">ii", payload[:8])   # then the zlib bytes
    if cookie & _COOKIE_BASE_MASK != V1_COMPRESSED_COOKIE_BASE:
        raise ValueError(f"not a V1 compressed histogram (cookie {cookie:#x})")
    try:
        inner = zlib.decompress(payload[8 : 8 + deflated_length])
    except zlib.error as e:
        raise ValueError(f"V1 histogram payload does not inflate: {e}") from e
    if len(inner) < 40:
        raise ValueError("V1 histogram header shorter than 40 bytes")
    # cookie, payload length, normalizing index offset, significant digits, lowest discernible
    # value, highest trackable value, int-to-double ratio
    inner_cookie, payload_length, normalizing_offset, digits, lowest, _, _ = struct.unpack(
        ">iiiiqqd", inner[:40])
    if inner_cookie & _COOKIE_BASE_MASK != V1_COOKIE_BASE:
        raise ValueError(f"inner cookie {inner_cookie:#x} is not V1")
    word_size = (inner_cookie & 0xF0) >> 4
    if word_size not in (2, 4, 8):
        raise ValueError(f"V1 word size {word_size} is not 2, 4 or 8")
    if normalizing_offset != 0:
        raise ValueError("V1 histogram with a normalizing index offset (a DoubleHistogram) is "
                         "not supported")
    body = inner[40 : 40 + payload_length]
    usable = len(body) - len(body) % word_size
    counts = np.frombuffer(body[:usable], dtype=f">i{word_size}").astype(np.int64)
    if (counts < 0).any():
        raise ValueError("V1 histogram holds negative counts")
    return CountsHistogram(counts, lowest=int(lowest), significant_digits=int(digits),
                           rank_rounding="half-up")


def _decode_v2(encoded: str) -> HdrHistogram:
    """By the hdrhistogram package; an auto-resized Java histogram may hold counts above the
    range its header states, which the package refuses: a bucket's value does not depend on
    the range, so its counts are decoded again into a range 2, 4, ... 2^MAX_GROW times higher."""
    for grow in range(MAX_GROW + 1):
        payload = HdrHistogramEncoder.decode(encoded, True)  # its counts are read once
        p = payload.payload
        try:
            return HdrHistogram(p.lowest_trackable_value, p.highest_trackable_value << grow,
                                p.significant_figures, hdr_payload=payload)
        except IndexError:
            if grow == MAX_GROW:
                raise


def decode_histogram(encoded: str) -> CountsHistogram:
    """Decode one base64 histogram of a log line, V2 (via hdrhistogram) or V1 (here)."""
    try:
        raw = base64.b64decode(encoded.strip(), validate=True)
    except (ValueError, TypeError) as e:
        raise ValueError(f"histogram is not valid base64: {e}") from e
    if len(raw) < 4:
        raise ValueError("histogram payload is empty")
    cookie = struct.unpack(">i", raw[:4])[0]
    base = cookie & _COOKIE_BASE_MASK
    if base == V1_COMPRESSED_COOKIE_BASE:
        return decode_v1_counts(raw)
    if base == V2_COMPRESSED_COOKIE_BASE:
        try:
            h = _decode_v2(encoded.strip())
        except Exception as e:  # the package raises its own exception types
            raise ValueError(f"V2 histogram does not decode: {e}") from e
        counts = np.frombuffer(h.counts, dtype=f"<i{h.word_size}")[: h.counts_len]
        return CountsHistogram(counts.astype(np.int64), lowest=int(h.lowest_trackable_value),
                               significant_digits=int(h.significant_figures))
    if base == V0_COMPRESSED_COOKIE_BASE:
        raise ValueError("V0 histogram encoding (HdrHistogram before 2.1.0) is not supported")
    raise ValueError(f"unknown histogram cookie {cookie & 0xFFFFFFFF:#x}")


@dataclass
class HdrLog:
    """One ``.hdr`` interval log: its metric, start time and decoded intervals."""

    path: str
    metric: str
    intervals: pl.DataFrame  # start_s (epoch), length_s, interval_max_s, count
    histograms: list[CountsHistogram]  # one per interval row
    cut_line: str | None = None  # a last line without its newline (file cut): not read
    # the writing JVM's clock offset from UTC (seconds), from StartTime's readable part: the
    # same clock stamps YCSB's status lines, so status time t is epoch t - utc_offset_s
    utc_offset_s: float | None = None

    def total(self) -> CountsHistogram:
        return merge_histograms(self.histograms)


def read_hdr_log(path: Path | str, metric: str | None = None) -> HdrLog:
    """Read a YCSB ``.hdr`` interval log. Raises :class:`UnreadableInput` naming the file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise UnreadableInput(path, f"cannot be read ({e.strerror or e})") from e
    header: dict[str, str] = {}
    rows: list[list[str]] = []
    cut_line = None
    if text and not text.endswith("\n"):
        # The writer ends every line with a newline: a last line without one was cut mid-write
        # (a client killed while logging); its histogram would not decode, or decode short.
        text, _, cut_line = text.rpartition("\n")
    known_header = False  # a line only an HdrHistogram log writer prints
    for line in text.splitlines():  # one line per status interval: small files
        if _FORMAT_LINE.match(line) or line.startswith('"StartTimestamp"'):
            known_header = True
            continue
        if m := _HEADER_LINE.match(line):
            header[m.group("key").strip()] = m.group("value")
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split(",")
        # Tagged lines ("Tag=...,start,length,max,payload") have 5 fields.
        if len(parts) == 5 and parts[0].startswith("Tag="):
            parts = parts[1:]
        if len(parts) != 4:
            raise UnreadableInput(path, f"line {line[:60]!r} is not start,length,max,histogram")
        rows.append(parts)
    known_header = known_header or bool(header.keys() & {"StartTime", "BaseTime", "Logging for"})
    if not rows and not known_header and cut_line is None:
        # A log with its header only (a client that stopped before its first status tick)
        # is a log of no intervals; an empty file or other text is not a log at all.
        raise UnreadableInput(path, "is empty" if not text.strip() else
                              "is not an HdrHistogram interval log (no log header, no intervals)")
    base = _epoch(header.get("BaseTime"))
    start = _epoch(header.get("StartTime"))
    histograms, times = [], []
    for i, (s, length, mx, payload) in enumerate(rows):
        try:
            histograms.append(decode_histogram(payload))
            times.append((float(s), float(length), float(mx)))
        except ValueError as e:
            raise UnreadableInput(path, f"interval {i + 1}: {e}") from e
    starts, lengths, maxes = np.array(times, dtype=float).reshape(-1, 3).T
    if len(starts) and starts.max() < 1e9:  # relative timestamps
        starts = starts + (base if base is not None else (start or 0.0))
    intervals = pl.DataFrame({"start_s": starts, "length_s": lengths, "interval_max_s": maxes,
                              "count": [h.total_count for h in histograms]},
                             schema={"start_s": pl.Float64, "length_s": pl.Float64,
                                     "interval_max_s": pl.Float64, "count": pl.Int64})
    name = metric or header.get("Logging for") or _metric_from_filename(path)
    return HdrLog(str(path), name, intervals, histograms, cut_line,
                  _utc_offset(header.get("StartTime", ""), start))


def _epoch(value: str | None) -> float | None:
    """A header's ``1795385515.017 (seconds since epoch), ...`` → its seconds; None if none."""
    if value is None:
        return None
    try:
        return float(value.split()[0])
    except (ValueError, IndexError):   # not a number, or empty ("#[StartTime: ]")
        return None


def _utc_offset(value: str, start: float | None) -> float | None:
    """``1795891193.144 (seconds since epoch), Sat Nov 28 18:39:53 UTC 2026`` → the offset of
    the readable local time (Java's Date.toString) from the epoch, to the quarter hour."""
    readable = value.partition("),")[2].split()
    if start is None or len(readable) != 6:
        return None
    _, month, day, clock, _, year = readable
    try:
        local = datetime.strptime(f"{month} {day} {clock} {year}", "%b %d %H:%M:%S %Y")
    except ValueError:
        return None
    utc = datetime.fromtimestamp(start, tz=timezone.utc).replace(tzinfo=None)
    return round((local - utc).total_seconds() / 900.0) * 900.0


def _metric_from_filename(path: Path) -> str:
    """``client-0-READ-FAILED.hdr`` → ``READ-FAILED``."""
    m = HDR_FILE.match(path.name)
    return m.group("metric") if m else path.stem


def interval_percentiles(log: HdrLog, points=(50.0, 99.0, 99.9)) -> pl.DataFrame:
    """Per-interval percentiles of one log (``start_s``, ``count``, ``p50``, ``p99``...)."""
    return pl.DataFrame([{"start_s": iv["start_s"], "length_s": iv["length_s"],
                          **percentiles(h, points)}
                         for iv, h in zip(log.intervals.iter_rows(named=True), log.histograms)])
