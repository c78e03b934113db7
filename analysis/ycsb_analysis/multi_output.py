"""One file, several YCSB outputs: split them apart and parse each one.

Seed 001 quotes four HBase clients' final reports pasted one after another, with the HBase
client's own log lines between them::

    [INSERT], Return=OK, 1000000
    20/01/19 13:19:16 INFO client.ConnectionManager$HConnectionImplementation: Closing zookeeper ...
    20/01/19 13:19:16 INFO zookeeper.ZooKeeper: Session: 0x36f98ad0a4ad8cc closed
    [OVERALL], RunTime(ms), 1165806

An output starts at an ``[OVERALL]`` line that follows a non-``[OVERALL]`` report line (or
starts the file); this also catches an output whose ``RunTime(ms)`` line was lost (the
seed's second copy of that quote begins at ``Throughput(ops/sec)``). Status lines and raw
datapoints are printed while a run goes on, so they belong to the next report after them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from . import exporters, report_parser, status_parser
from .errors import UnreadableInput
from .line_formats import LINE_KINDS, RAW_DATAPOINT, classify_lines, latency_number, lines_of, to_number

_JSON_START = re.compile(r"^\s*(?:\{|\[\s*\{)")


@dataclass
class ParsedOutput:
    """Everything one YCSB client printed for one run (possibly from two files: .out + .err)."""

    source: str
    report: pd.DataFrame                 # metric, measurement, value (every final-report figure)
    status_entries: pd.DataFrame         # one row per status entry
    status_measurements: pd.DataFrame    # one row per status entry and metric
    timeseries: pd.DataFrame             # metric, time_ms, average_latency_us (timeseries type)
    raw_datapoints: pd.DataFrame         # metric, timestamp_ms, latency_us (raw type)
    line_counts: dict[str, int] = field(default_factory=dict)

    @property
    def skipped_lines(self) -> int:
        """Lines that were neither YCSB data nor YCSB's own messages."""
        return int(self.line_counts.get("unknown", 0))

    @property
    def has_report(self) -> bool:
        return not self.report.empty

    @property
    def summary(self) -> pd.DataFrame:
        return report_parser.latency_summary(self.report)

    @property
    def returns(self) -> pd.DataFrame:
        return report_parser.returns(self.report)

    @property
    def overall(self) -> dict[str, float]:
        return report_parser.overall(self.report)

    @property
    def gc(self) -> pd.DataFrame:
        return report_parser.gc_figures(self.report)

    def combined_with(self, other: "ParsedOutput") -> "ParsedOutput":
        """Join a client's stdout and stderr parses (report from one, status from the other)."""
        def cat(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
            if a.empty:
                return b
            if b.empty:
                return a
            return pd.concat([a, b], ignore_index=True)
        entries_b = other.status_entries.copy()
        meas_b = other.status_measurements.copy()
        if not self.status_entries.empty and not entries_b.empty:
            # Keep entry ids unique across the two files.
            shift = int(self.status_entries["entry"].max()) + 1
            entries_b["entry"] += shift
            if not meas_b.empty:
                meas_b["entry"] += shift
        counts = dict(self.line_counts)
        for k, v in other.line_counts.items():
            counts[k] = counts.get(k, 0) + v
        return ParsedOutput(
            source=f"{self.source} + {other.source}",
            report=cat(self.report, other.report),
            status_entries=cat(self.status_entries, entries_b),
            status_measurements=cat(self.status_measurements, meas_b),
            timeseries=cat(self.timeseries, other.timeseries),
            raw_datapoints=cat(self.raw_datapoints, other.raw_datapoints),
            line_counts=counts,
        )


def segment_of_lines(kinds: pd.Series, report_metrics: pd.Series) -> pd.Series:
    """Which output (0, 1, ...) each line belongs to.

    ``report_metrics`` holds the bracketed metric of report lines (index ⊂ kinds.index).
    """
    n = len(kinds)
    is_report = kinds.isin(["report", "timeseries"]).to_numpy()
    start = np.zeros(n, dtype=bool)
    if is_report.any():
        rep_idx = np.flatnonzero(is_report)
        metric = report_metrics.reindex(kinds.index[rep_idx]).fillna("").to_numpy()
        is_overall = metric == "OVERALL"
        prev_overall = np.concatenate([[False], is_overall[:-1]])
        first = np.zeros(len(rep_idx), dtype=bool)
        first[0] = True
        starts = (is_overall & ~prev_overall) | first
        start[rep_idx[starts]] = True
    n_segments = int(start.sum())
    if n_segments <= 1:
        return pd.Series(np.zeros(n, dtype="int64"), index=kinds.index)
    starts_upto = np.cumsum(start)
    seg = np.where(is_report, starts_upto - 1, starts_upto)   # non-report lines → next report
    seg = np.clip(seg, 0, n_segments - 1)
    return pd.Series(seg.astype("int64"), index=kinds.index)


def _empty(columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=object) for c in columns})


def _parse_raw_datapoints(lines: pd.Series) -> pd.DataFrame:
    if lines.empty:
        return _empty(["metric", "timestamp_ms", "latency_us"])
    p = lines.astype(object).str.extract(RAW_DATAPOINT.pattern)
    return pd.DataFrame({"metric": p["metric"].astype(object), "timestamp_ms": to_number(p["timestamp_ms"]),
                         "latency_us": latency_number(p["latency_us"])})


def parse_text(text: str, source: str = "<text>") -> list[ParsedOutput]:
    """Parse YCSB text (report and/or status lines, any mix) into one ParsedOutput per output."""
    lines = lines_of(text)
    kinds = classify_lines(lines)
    report_lines = lines[kinds == "report"]
    report = report_parser.parse_report_lines(report_lines)
    ts_lines = lines[kinds == "timeseries"]
    timeseries = report_parser.parse_timeseries_lines(ts_lines) if len(ts_lines) else \
        _empty(["metric", "time_ms", "average_latency_us"])
    metrics = pd.concat([report["metric"], timeseries["metric"]]) if len(timeseries) else report["metric"]
    segments = segment_of_lines(kinds, metrics)

    entries_text = status_parser.join_entries(lines, kinds)
    entries = status_parser.parse_status_entries(entries_text) if len(entries_text) else \
        _empty(status_parser.ENTRY_COLUMNS + ["measurements_text"])
    measurements = status_parser.parse_status_measurements(entries) if len(entries) else \
        _empty(["entry", "metric", "count"])
    raw = _parse_raw_datapoints(lines[kinds == "raw_datapoint"])

    n_segments = int(segments.max()) + 1 if len(segments) else 1
    counts = pd.crosstab(segments, kinds) if len(lines) else pd.DataFrame()
    outputs = []
    for seg in range(n_segments):
        def pick(df: pd.DataFrame, index_col: str | None = None) -> pd.DataFrame:
            if df.empty:
                return df.reset_index(drop=True)
            idx = df[index_col] if index_col else df.index
            mask = segments.reindex(idx).to_numpy() == seg
            return df[mask].reset_index(drop=True)
        ents = pick(entries, "entry")
        meas = measurements[measurements["entry"].isin(ents["entry"])].reset_index(drop=True) \
            if not measurements.empty else measurements
        line_counts = {k: int(counts.loc[seg, k]) if (seg in counts.index and k in counts.columns) else 0
                       for k in LINE_KINDS}
        outputs.append(ParsedOutput(
            source=source if n_segments == 1 else f"{source}#{seg + 1}",
            report=pick(report).drop(columns=["value_text"], errors="ignore"),
            status_entries=ents.drop(columns=["measurements_text"], errors="ignore"),
            status_measurements=meas,
            timeseries=pick(timeseries),
            raw_datapoints=pick(raw),
            line_counts=line_counts,
        ))
    return outputs


def parse_file(path: Path | str) -> list[ParsedOutput]:
    """Parse one YCSB output file: text (stdout/stderr, any number of outputs) or a JSON
    exporter file. Raises :class:`UnreadableInput` when it holds no YCSB output at all."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise UnreadableInput(path, f"cannot be read ({e.strerror or e})") from e
    text = data.decode("utf-8", errors="replace")
    if _JSON_START.match(text[:200]):
        try:
            report = exporters.parse_exporter_text(text)
        except ValueError as e:
            raise UnreadableInput(path, f"looks like a YCSB JSON exporter file but is not valid: {e}") from e
        return [ParsedOutput(source=str(path), report=report,
                             status_entries=_empty(status_parser.ENTRY_COLUMNS),
                             status_measurements=_empty(["entry", "metric", "count"]),
                             timeseries=_empty(["metric", "time_ms", "average_latency_us"]),
                             raw_datapoints=_empty(["metric", "timestamp_ms", "latency_us"]),
                             line_counts={"report": len(report)})]
    outputs = parse_text(text, source=str(path))
    if not any(o.has_report or not o.status_entries.empty or not o.timeseries.empty
               or not o.raw_datapoints.empty for o in outputs):
        total = sum(sum(o.line_counts.values()) for o in outputs)
        raise UnreadableInput(path, f"no YCSB output found ({total} lines, none is a final-report "
                                    "'[OVERALL], RunTime(ms), ...' line or a status line)")
    return outputs
