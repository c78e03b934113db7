"""What one YCSB client printed for one run, as frames: :class:`ParsedOutput`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from . import final_report, raw


@dataclass
class ParsedOutput:
    """Everything one YCSB client printed for one run (possibly from two files: .out + .err)."""

    source: str
    report: pl.DataFrame  # metric, measurement, value (every final-report figure)
    status_entries: pl.DataFrame  # one row per status entry (status.ENTRY_COLUMNS)
    status_measurements: pl.DataFrame  # one row per status entry and metric
    timeseries: pl.DataFrame  # metric, time_ms, average_latency_us (timeseries type)
    raw_datapoints: pl.DataFrame  # metric, timestamp_ms, latency_us (raw type; see below)
    line_counts: dict[str, int] = field(default_factory=dict)
    # Raw datapoints summed up per second while reading (readers.raw.COLUMNS, exact), how many
    # there were and how many had a negative latency. The rows themselves are kept only up to
    # MAX_KEPT_RAW_ROWS per file unless asked for (``parse_file(raw_rows=True)``): otherwise
    # ``raw_datapoints`` is empty though ``raw_total`` is not.
    raw_summary: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema=raw.SUMMARY_SCHEMA))
    raw_total: int = 0
    raw_negative: int = 0
    # Completeness, in the reader's words: a last line without its newline (not read as
    # data), the blocks of the final report it or a short block leaves incomplete, and the
    # text encoding when it was not UTF-8.
    cut_line: str | None = None
    incomplete_blocks: list[str] = field(default_factory=list)
    encoding: str = "utf-8"

    @property
    def skipped_lines(self) -> int:
        """Lines that were neither YCSB data nor YCSB's own messages."""
        return int(self.line_counts.get("unknown", 0))

    @property
    def file_names(self) -> str:
        """The source files' names without their directories: ``client-0.out + client-0.err``."""
        return " + ".join(Path(part).name for part in self.source.split(" + "))

    @property
    def has_report(self) -> bool:
        return self.report.height > 0

    @property
    def summary(self) -> pl.DataFrame:
        return final_report.latency_summary(self.report)

    @property
    def returns(self) -> pl.DataFrame:
        return final_report.returns(self.report)

    @property
    def overall(self) -> dict[str, float]:
        return final_report.overall(self.report)

    @property
    def gc(self) -> pl.DataFrame:
        return final_report.gc_figures(self.report)

    def combined_with(self, other: ParsedOutput) -> ParsedOutput:
        """Join a client's stdout and stderr parses (report from one, status from the other)."""

        def cat(a: pl.DataFrame, b: pl.DataFrame) -> pl.DataFrame:
            return b if a.is_empty() else a if b.is_empty() else pl.concat(
                [a, b], how="diagonal_relaxed")

        entries_b, meas_b = other.status_entries, other.status_measurements
        if self.status_entries.height and entries_b.height:
            # entry ids stay unique across the two files
            shift = int(self.status_entries["entry"].max()) + 1
            entries_b = entries_b.with_columns(pl.col("entry") + shift)
            meas_b = meas_b.with_columns(pl.col("entry") + shift)
        counts = {k: self.line_counts.get(k, 0) + other.line_counts.get(k, 0)
                  for k in self.line_counts | other.line_counts}
        return ParsedOutput(
            source=f"{self.source} + {other.source}",
            report=cat(self.report, other.report),
            status_entries=cat(self.status_entries, entries_b),
            status_measurements=cat(self.status_measurements, meas_b),
            timeseries=cat(self.timeseries, other.timeseries),
            raw_datapoints=cat(self.raw_datapoints, other.raw_datapoints),
            line_counts=counts,
            # (a client's stdout and stderr never both hold raw datapoints of one second)
            raw_summary=cat(self.raw_summary, other.raw_summary),
            raw_total=self.raw_total + other.raw_total,
            raw_negative=self.raw_negative + other.raw_negative,
            cut_line=self.cut_line if self.cut_line is not None else other.cut_line,
            incomplete_blocks=self.incomplete_blocks + other.incomplete_blocks,
            encoding=self.encoding if self.encoding != "utf-8" else other.encoding,
        )

    @property
    def completeness_problems(self) -> list[str]:
        """Why this output's figures are not all there, one phrase each (empty when complete)."""
        problems = []
        if self.cut_line is not None:
            shown = self.cut_line if len(self.cut_line) <= 60 else self.cut_line[:57] + "..."
            problems.append(f"its last line {shown!r} has no line end (the file was cut): not read")
        if self.incomplete_blocks:
            problems.append("final report incomplete: " + "; ".join(self.incomplete_blocks))
        return problems
