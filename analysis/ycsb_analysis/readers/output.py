"""One file, any number of YCSB outputs: split them apart and read each with the readers.

Seed 001 quotes four HBase clients' final reports pasted one after another, with the HBase
client's own log lines between them::

    [INSERT], Return=OK, 1000000
    20/01/19 13:19:16 INFO zookeeper.ZooKeeper: Session: 0x36f98ad0a4ad8cc closed
    [OVERALL], RunTime(ms), 1165806

An output starts at an ``[OVERALL]`` line that follows a non-``[OVERALL]`` report line (or
starts the file); this also catches an output whose ``RunTime(ms)`` line was lost (the seed's
second copy of that quote begins at ``Throughput(ops/sec)``). Status lines and raw datapoints
are printed while a run goes on, so they belong to the next report after them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import polars as pl

from ..errors import UnreadableInput
from . import final_report, raw, status
from .exporter_json import JSON_START, parse_exporter_text
from .lines import (
    BLOCK_BYTES,
    LINE_KINDS,
    classify,
    lines_of,
    text_encoding,
    utf8_blocks,
    withhold_cut_line,
)
from .parsed_output import ParsedOutput

# Raw datapoints kept as rows per file unless all are asked for; beyond this only their
# per-second summary is kept, so memory does not grow with a long raw run. ycsb-report
# writes the rows as plain CSV up to the same number (~10 MB).
MAX_KEPT_RAW_ROWS = 250_000
TIMESERIES_SCHEMA = {"metric": pl.String, "time_ms": pl.Float64, "average_latency_us": pl.Float64}


class _TextReader:
    """The reading of one text, fed block by block (whole lines, in order); :meth:`outputs`
    then gives what reading the whole text at once gives. Across blocks go the line numbers,
    where outputs start, the status entry whose continuation lines may be in the next block,
    and the raw datapoints' per-second summary."""

    def __init__(self, source: str, raw_rows: bool, close_seconds: bool):
        self.source = source
        self.all_raw_rows = raw_rows
        self.summary = raw.RawSummary(close=close_seconds)
        self.next_line = 0
        self.starts: list[int] = []        # line numbers where an output starts
        self.after_overall = self.seen_report = False
        self.report: list[pl.DataFrame] = []
        self.timeseries: list[pl.DataFrame] = []
        self.kinds: list[pl.DataFrame] = []      # line, kind (raw datapoints: counted apart)
        self.raw_counts: dict[int, int] = {}     # output → raw datapoints
        self.raw_rows: list[pl.DataFrame] = []
        self.kept_raw = 0
        self.status_lines = pl.DataFrame(schema={"line": pl.Int64, "text": pl.String,
                                                 "head": pl.Boolean})
        self.entries: list[pl.DataFrame] = []
        self.measurements: list[pl.DataFrame] = []

    def _outputs_upto(self, line: pl.Expr, report: bool) -> pl.Expr:
        """The output of lines: report lines belong to the output begun at or before them,
        other lines to the next one (unclipped: the last output is known at the end)."""
        upto = pl.lit(pl.Series(self.starts, dtype=pl.Int64)).search_sorted(line, side="right")
        return (upto.cast(pl.Int64) - (1 if report else 0)).clip(lower_bound=0)

    def feed(self, block: bytes, last: bool) -> None:
        lines = lines_of(block, self.next_line)
        self.next_line += lines.height
        points, others = raw.split_datapoints(lines, block)
        others = others.with_columns(kind=classify(pl.col("text")))
        self.kinds.append(others.select("line", pl.col("kind").cast(pl.Enum(LINE_KINDS))))
        self._find_starts(others)
        if points.height:
            self._add_raw(points)
        st = others.filter(pl.col("kind").is_in(["status", "status_continuation"]))
        self.status_lines = pl.concat([
            self.status_lines, st.select("line", "text", head=pl.col("kind") == "status"),
        ])
        # An entry's continuation lines may be in the next block: its lines wait for it.
        heads = self.status_lines.filter("head")["line"]
        if last:
            done, self.status_lines = self.status_lines, self.status_lines.clear()
        elif heads.len() > 1:
            waiting = pl.col("line") >= heads[-1]
            done = self.status_lines.filter(~waiting)
            self.status_lines = self.status_lines.filter(waiting)
        else:
            return
        entries, meas = status.entries_and_measurements(status.joined_entries(done))
        self.entries.append(entries)
        self.measurements.append(meas)

    def _find_starts(self, others: pl.DataFrame) -> None:
        found = []
        for kind, rows, frames in (("report", final_report.report_rows, self.report),
                                   ("timeseries", final_report.timeseries_rows, self.timeseries)):
            lines = others.filter(pl.col("kind") == kind)
            if lines.height:
                frames.append(rows(lines.select("line", "text")))
                found.append(frames[-1].select("line", "metric"))
        if not found:
            return
        for line, metric in pl.concat(found).sort("line").rows():
            is_overall = metric == "OVERALL"
            if (is_overall and not self.after_overall) or not self.seen_report:
                self.starts.append(line)
            self.after_overall, self.seen_report = is_overall, True

    def _add_raw(self, points: pl.DataFrame) -> None:
        points = points.with_columns(output=self._outputs_upto(pl.col("line"), report=False))
        for output, n in enumerate(np.bincount(points["output"].to_numpy())):
            if n:
                self.raw_counts[output] = self.raw_counts.get(output, 0) + int(n)
        self.summary.add(points.select("output", "metric", "timestamp_ms", "latency_us"))
        if self.all_raw_rows or self.kept_raw + points.height <= MAX_KEPT_RAW_ROWS:
            self.raw_rows.append(points.drop("line"))
            self.kept_raw += points.height
        else:   # from now on only the summary
            self.raw_rows, self.kept_raw = [], MAX_KEPT_RAW_ROWS + 1

    def outputs(self) -> list[ParsedOutput]:
        """One :class:`ParsedOutput` per YCSB output found in the text fed."""
        n = max(len(self.starts), 1)

        def of_lines(frames: list[pl.DataFrame], report: bool, line: str = "line"):
            frame = pl.concat(frames) if frames else None
            if frame is None or not frame.height:
                return None
            return frame.with_columns(
                output=self._outputs_upto(pl.col(line), report).clip(upper_bound=n - 1))

        report = of_lines(self.report, report=True)
        timeseries = of_lines(self.timeseries, report=True)
        rows = pl.concat(self.raw_rows) if self.raw_rows else None
        kinds = of_lines(self.kinds, report=False)
        if kinds is not None:   # (report lines belong to the output begun at or before them)
            is_report = pl.col("kind").is_in(["report", "timeseries"])
            kinds = kinds.with_columns(
                output=pl.when(is_report).then(self._outputs_upto(pl.col("line"), report=True))
                .otherwise("output").clip(upper_bound=n - 1))
        entries = of_lines(self.entries, report=False, line="entry")
        if entries is not None:   # YCSB's repeated last line: read once
            repeat = pl.struct("fingerprint_1", "fingerprint_2").is_first_distinct()
            entries = entries.filter(repeat)
        measurements = (pl.concat(self.measurements, how="diagonal") if self.measurements
                        else pl.DataFrame(schema=status.EMPTY_MEASUREMENTS))
        summaries = self.summary.intervals(n)
        outputs = []
        for o in range(n):
            counts = dict.fromkeys(LINE_KINDS, 0)
            if kinds is not None:
                counts.update(kinds.filter(pl.col("output") == o)["kind"].value_counts().rows())
            total_raw = sum(c for out, c in self.raw_counts.items() if min(out, n - 1) == o)
            counts["raw_datapoint"] = total_raw
            mine = (entries.filter(pl.col("output") == o) if entries is not None
                    else pl.DataFrame(schema=status.EMPTY_ENTRIES))
            outputs.append(ParsedOutput(
                source=self.source if n == 1 else f"{self.source}#{o + 1}",
                report=_frame_of(report, o, n, final_report.REPORT_SCHEMA),
                status_entries=status.entries_frame(mine) if mine.height
                else pl.DataFrame(schema=status.EMPTY_ENTRIES),
                status_measurements=status.measurements_frame(measurements.join(
                    mine.select("entry"), on="entry", how="semi", maintain_order="left"), mine),
                timeseries=_frame_of(timeseries, o, n, TIMESERIES_SCHEMA),
                raw_datapoints=_frame_of(rows, o, n, raw.SCHEMA),
                line_counts=counts,
                raw_summary=summaries[o],
                raw_total=total_raw,
                raw_negative=self.summary.negative_in(o, last=o == n - 1),
            ))
        return outputs


def _frame_of(rows: pl.DataFrame | None, output: int, n: int, schema: dict) -> pl.DataFrame:
    """The rows of ``output`` (of ``n``: rows after the last output belong to it)."""
    if rows is None:
        return pl.DataFrame(schema=schema)
    return rows.filter(pl.col("output").clip(upper_bound=n - 1) == output).select(*schema)


def _read_blocks(make_blocks: Callable[[], Iterator[bytes]], source: str,
                 raw_rows: bool) -> list[ParsedOutput]:
    """Read text given as blocks of whole lines (``make_blocks()``: a fresh iterator of them);
    again, keeping every second open, when a raw datapoint came after its second was summed
    up."""
    for close in (True, False):
        reader = _TextReader(source, raw_rows, close_seconds=close)
        blocks = make_blocks()
        block = next(blocks, b"")
        try:
            for following in blocks:
                reader.feed(block, last=False)
                block = following
            reader.feed(block, last=True)
            return reader.outputs()
        except raw.NotExact:
            if not close:
                raise
    raise AssertionError("unreachable")


def parse_text(text: str, source: str = "<text>") -> list[ParsedOutput]:
    """Parse YCSB text (report and/or status lines, any mix) into one ParsedOutput per output."""
    return _read_blocks(lambda: iter([text.encode("utf-8")]), source, raw_rows=False)


def parse_file(path: Path | str, block_bytes: int = BLOCK_BYTES,
               raw_rows: bool = False) -> list[ParsedOutput]:
    """Parse one YCSB output file: text (stdout/stderr, any number of outputs) or a JSON
    exporter file. Raises :class:`UnreadableInput` when it holds no YCSB output at all.

    Text is read in blocks of about ``block_bytes`` (the result is the same for any size).
    Raw datapoints are kept as rows up to MAX_KEPT_RAW_ROWS, all of them with ``raw_rows``;
    their per-second summary always."""
    path = Path(path)
    cut: list[str] = []
    try:
        with path.open("rb") as f:
            head_bytes = f.read(200)
        encoding = text_encoding(head_bytes)
        if JSON_START.match(head_bytes.decode(encoding, errors="replace")):
            return [_exporter_output(path, path.read_bytes().decode(encoding, errors="replace"))]

        def blocks() -> Iterator[bytes]:
            cut.clear()
            return withhold_cut_line(utf8_blocks(path, encoding, block_bytes), cut)

        outputs = _read_blocks(blocks, str(path), raw_rows)
    except OSError as e:
        raise UnreadableInput(path, f"cannot be read ({e.strerror or e})") from e
    if not any(o.has_report or o.status_entries.height or o.timeseries.height
               or o.raw_total for o in outputs):
        raise UnreadableInput(path, _why_no_output(head_bytes, cut, outputs, encoding))
    for o in outputs:
        o.encoding = encoding
        o.incomplete_blocks = final_report.incomplete_blocks(o.report)
    if cut:
        last = outputs[-1]
        last.cut_line = cut[0]
        block = final_report.block_of_line(cut[0])
        if block is not None:
            # The block the cut line belongs to lost that line (and whatever followed it).
            last.incomplete_blocks = [b for b in last.incomplete_blocks
                                      if not b.startswith(f"[{block}] ")]
            last.incomplete_blocks.append(f"[{block}] cut at {cut[0].strip()!r}")
    return outputs


def _why_no_output(head: bytes, cut: list[str], outputs: list[ParsedOutput],
                   encoding: str) -> str:
    if not head and not cut:
        return "is empty (a client that failed or was killed before printing anything)"
    if cut and final_report.block_of_line(cut[0]) is not None:
        return (f"holds only {cut[0].strip()!r} without a line end: the file was cut before "
                "its first complete line, and a number at the cut is not read")
    total = sum(sum(o.line_counts.values()) for o in outputs)
    return (f"no YCSB output found ({total} lines read as {encoding}, none is a final-report "
            "'[OVERALL], RunTime(ms), ...' line or a status line)")


def _exporter_output(path: Path, text: str) -> ParsedOutput:
    try:
        report = parse_exporter_text(text)
    except ValueError as e:
        raise UnreadableInput(
            path, f"looks like a YCSB JSON exporter file but is not valid: {e}") from e
    return ParsedOutput(
        source=str(path),
        report=report,
        status_entries=pl.DataFrame(schema=status.EMPTY_ENTRIES),
        status_measurements=pl.DataFrame(schema=status.EMPTY_MEASUREMENTS),
        timeseries=pl.DataFrame(schema=TIMESERIES_SCHEMA),
        raw_datapoints=pl.DataFrame(schema=raw.SCHEMA),
        line_counts={"report": report.height},
    )
