"""``ycsb-report``: parse YCSB results, write charts, CSV/JSON figures and report.html.

    ycsb-report results/s3-thread-sweep -o out/
    ycsb-report cassandra=seed-cassandra.txt hbase=seed-hbase.txt --batchsize hbase=100 -o out/
    ycsb-report results/new -o out/ --baseline results/old --session-spread 5%

Exit status (:data:`EXIT_CODES`): 0 when every input was used completely; 3 when the report
was written but something was not used or is incomplete (an input skipped, a client file
without output, a final report cut short or missing, an unreadable .hdr log — each named on
stderr and at the top of the report); 2 when no report could be written (no input usable, bad
arguments); 1 on an unexpected internal error.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from . import __version__, answer, comparability, faults
from .batched import records_table
from .charts import ALL_CHARTS, Chart
from .comparisons import compare_sides
from .errors import UnreadableInput
from .html_report import write_report
from .intervals_html import sections as interval_sections
from .loader import load
from .merge import MergedRun, merge_clients
from .model import WINDOW_KIND, Run, SkippedInput, run_label
from .per_client import client_figures
from .plausibility import implausible_figures
from .readers.fault_verdicts import verdicts_in
from .readers.output import MAX_KEPT_RAW_ROWS
from .readers.raw import INTERVAL_MS
from .report_sections import capacity_section, faults_section, lost_section, what_ran_section
from .servers import servers_table
from .summary import runs_summary
from .tables import labelled, write_csv, write_json, write_parquet
from .verdicts import against_baseline, aggregate, unmatched_phases

EXIT_COMPLETE = 0
EXIT_INTERNAL_ERROR = 1
EXIT_NO_REPORT = 2
EXIT_INCOMPLETE = 3
EXIT_CODES = {
    EXIT_COMPLETE: "every input was used completely",
    EXIT_INTERNAL_ERROR: "internal error (a bug: the traceback is printed)",
    EXIT_NO_REPORT: "no report written: no input could be used, or bad arguments",
    EXIT_INCOMPLETE: "report written, but some input was skipped or is incomplete (named on stderr "
    "and at the top of report.html)",
}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ycsb-report",
        description="Parse YCSB 0.17 outputs (results directories of the scenario runner, or plain "
        "output files), merge the clients of each phase, and write charts (PNG, SVG), "
        "CSV/JSON of every figure and a self-contained report.html.",
        epilog="exit status: " + "; ".join(f"{k} = {v}" for k, v in sorted(EXIT_CODES.items())),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("inputs", nargs="+", metavar="RESULTS",
                   help="results directory (searched for <phase>/metadata.json) or YCSB output "
                   "file; a file may be given as LABEL=PATH")
    p.add_argument("-o", "--out", required=True, type=Path, help="output directory (created)")
    p.add_argument("--baseline", nargs="+", metavar="RESULTS",
                   help="comparison mode: results to compare against; the report shows both "
                   "and the change in %%")
    p.add_argument("--session-spread", metavar="PERCENT",
                   help="with --baseline: the between-session CV of a figure as you measured "
                   "it (an A/A run in each session, e.g. 5%%, or 0.05); the interval of "
                   "current/baseline then includes the spread between sessions. Without it a "
                   "difference between the two sessions' trials is 'within-session only': it "
                   "may be the sessions'")
    p.add_argument("--batchsize", action="append", default=[], metavar="[LABEL=]N",
                   help="records per operation for plain files, for all of them (N) or for the "
                   "file given as LABEL=PATH (LABEL=N; repeatable), e.g. hbase=100 for the "
                   "seed's HBase batches; phases of a results directory take it from "
                   "metadata.json")
    p.add_argument("--skip", type=float, metavar="SECONDS",
                   help="figures over everything after the first SECONDS of each phase, instead "
                   "of the steady window found by the trend rule (or the part after the "
                   "runner's warm-up)")
    p.add_argument("--expected-difference", action="append", default=[], metavar="PATTERN",
                   help="a difference between a comparison's sides that you meant to make (a "
                   "glob on the fact, e.g. 'server setting compaction_*' or 'client library "
                   "netty-*'): named as expected, not marked 'not like for like' on the verdict")
    p.add_argument("--title", default="YCSB results", help="report title")
    p.add_argument("--raw-rows", action="store_true",
                   help="with more than 250,000 raw datapoints in a file, also write every one "
                   "of them (raw-datapoints.csv.gz); they are always summed up per second in "
                   "raw-intervals.csv")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return p


# Beyond this many rows (~10 MB of CSV) raw datapoints and status figures are not written as
# plain CSV: raw rows are summed up per second (rows gzipped on request, --raw-rows; the parse
# keeps as many rows, readers.output.MAX_KEPT_RAW_ROWS), status figures (as CSV ~1.3 times the
# log they come from) go to a Parquet file, ~1/50 of the log. A data file stays proportionate
# to the run, not to its operations.
MAX_PLAIN_ROWS = MAX_KEPT_RAW_ROWS
STATUS_PARQUET = "status.parquet"


def read_status_figures(report_dir: Path) -> pl.DataFrame:
    """The per-interval status figures a report wrote into ``report_dir``: ``status.csv``, or
    ``status.parquet`` for a long run."""
    report_dir = Path(report_dir)
    if (report_dir / STATUS_PARQUET).exists():
        return pl.read_parquet(report_dir / STATUS_PARQUET)
    return pl.read_csv(report_dir / "status.csv", infer_schema_length=None)


def export_figures(out: Path, runs: list[Run], merged: dict[str, MergedRun],
                   summary: pl.DataFrame, raw_rows: bool = False,
                   notes: list[str] | None = None) -> list[Path]:
    """Write every parsed figure as CSV and JSON; return the files written. What is written
    only in summed-up form is said in ``notes``."""
    written = []
    notes = [] if notes is None else notes   # (without the caller's list: said to nobody)
    figures, operations, returns, records, status = [], [], [], [], []
    clients, series, raw, raw_summed = [], [], [], []
    n_raw = 0
    for r in runs:
        label = run_label(r)
        for c in r.clients:
            figures.append(labelled(c.output.report, run=label, client=c.index,
                                    source=c.output.source))
            if c.output.status_measurements.height:
                status.append(c.output.status_measurements.with_columns(
                    run=pl.lit(label), client=pl.lit(c.index, pl.Int64)))
            if c.output.timeseries.height:
                series.append(labelled(c.output.timeseries, run=label, client=c.index))
            # (raw rows are labelled only when written: no copy of millions of rows)
            if c.output.raw_datapoints.height:
                raw.append((label, c.index, c.output.raw_datapoints))
            if c.output.raw_total:   # summed up while the file was read
                n_raw += c.output.raw_total
                raw_summed.append(c.output.raw_summary.with_columns(
                    run=pl.lit(label), client=pl.lit(c.index, pl.Int64)))
        clients.append(labelled(client_figures(r), run=label))
        operations.append(labelled(merged[label].operations, run=label))
        returns.append(labelled(merged[label].returns, run=label))
        rec = records_table(r)
        if rec.height:
            records.append(labelled(rec, run=label))

    def dump(frames: list, stem: str, json_too: bool = True, gzip: bool = False) -> None:
        df = pl.concat(frames, how="diagonal_relaxed") if frames else pl.DataFrame()
        if df.is_empty():
            return
        df = df.select("run", pl.exclude("run"))
        name = f"{stem}.csv.gz" if gzip else f"{stem}.csv"
        write_csv(df, out / name, compressed=gzip)
        written.append(out / name)
        if json_too:
            write_json(df, out / f"{stem}.json")
            written.append(out / f"{stem}.json")

    for frames, stem in ((figures, "figures"), (clients, "clients"), (operations, "operations"),
                         (returns, "returns"), (records, "records"), (series, "timeseries")):
        dump(frames, stem)
    dump(raw_summed, "raw-intervals", json_too=False)
    kept = sum(len(rd) for _, _, rd in raw) == n_raw   # (the parse lets go of rows beyond
    # MAX_KEPT_RAW_ROWS unless --raw-rows)
    if kept and (n_raw <= MAX_PLAIN_ROWS or raw_rows):  # one row per operation: CSV only
        rows = [labelled(rd, run=label, client=client) for label, client, rd in raw]
        dump(rows, "raw-datapoints", json_too=False, gzip=n_raw > MAX_PLAIN_ROWS)
    else:
        notes.append(f"{n_raw:,} raw datapoints are in raw-intervals.csv summed up per "
                     f"{INTERVAL_MS // 1000} s (count, min, mean, percentiles, max); ycsb-report "
                     "--raw-rows also writes every row (raw-datapoints.csv.gz)")
    n_status = sum(len(f) for f in status)
    if n_status > MAX_PLAIN_ROWS:   # a long run's status log: Parquet
        first = ["run", "client"]
        write_parquet([f.select(*first, pl.exclude(first)) for f in status],
                      out / STATUS_PARQUET)
        written.append(out / STATUS_PARQUET)
        notes.append(f"{n_status:,} per-interval status figures are in {STATUS_PARQUET} (Parquet, "
                     f"zstd; too many rows for a CSV file): read it with "
                     f"polars.read_parquet('{STATUS_PARQUET}'), the columns of status.csv")
    else:
        dump(status, "status", json_too=False)
    dump([summary.drop(WINDOW_KIND, strict=False)], "summary")  # (its `window` says the kind)
    return written


def parse_batchsizes(values: list[str]) -> dict[str, int]:
    """``["100"]`` → {"": 100}; ``["hbase=100"]`` → {"hbase": 100}. Raises ValueError."""
    out: dict[str, int] = {}
    for v in values:
        label, _, n = v.rpartition("=")
        size = int(n)
        if size < 1:
            raise ValueError(f"batch size must be at least 1, not {size}")
        out[label] = size
    return out


def parse_spread(text: str) -> float:
    """``"20%"`` → 0.2, ``"0.2"`` → 0.2 (the runner's --precision reads the same way); a bare
    number of 1 or more is refused: 20 could mean 20% or 2000%. Raises ValueError."""
    value = float(text.strip().rstrip("%"))
    if not text.strip().endswith("%"):
        if value >= 1:
            raise ValueError(f"{text}: give a percentage ({text}%) or a fraction below 1")
    else:
        value /= 100
    if value < 0:
        raise ValueError(f"{text}: a spread is not negative")
    return value


@dataclass
class ReportOutcome:
    """What ``ycsb-report`` wrote and what it could not use."""

    report: Path
    skipped: list[SkippedInput] = field(default_factory=list)  # inputs not used at all
    unused: list[str] = field(default_factory=list)  # parts of used runs, "run: why"
    notes: list[str] = field(default_factory=list)  # worth knowing, nothing lost
    warnings: list[str] = field(default_factory=list)  # "run: flag" (implausible figures ...)

    @property
    def complete(self) -> bool:
        return not self.skipped and not self.unused


def build_report_outcome(inputs: list[str], out: Path, baseline: list[str] | None = None,
                         batchsize: int | dict[str, int] = 1, title: str = "YCSB results",
                         skip: float | None = None, raw_rows: bool = False,
                         expected: list[str] = (),
                         session_spread: float | None = None) -> ReportOutcome:
    """Everything ``ycsb-report`` does, and what it could not use.

    Raises :class:`UnreadableInput` only when no input can be used at all.
    """
    made = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    try:
        return _report_outcome(inputs, out, baseline, batchsize, title, skip, raw_rows,
                               list(expected), session_spread)
    except UnreadableInput:
        if made and not any(out.iterdir()):
            out.rmdir()   # (nothing could be used: no empty directory left behind)
        raise


def _report_outcome(inputs: list[str], out: Path, baseline: list[str] | None,
                    batchsize: int | dict[str, int], title: str, skip: float | None,
                    raw_rows: bool, expected: list[str],
                    session_spread: float | None) -> ReportOutcome:
    skipped: list[SkippedInput] = []
    runs = load(inputs, batchsize=batchsize, skipped=skipped, raw_rows=raw_rows)
    if not runs:
        reasons = "; ".join(str(s) for s in skipped) or "no run found"
        raise UnreadableInput(" ".join(inputs), f"nothing could be used ({reasons})")
    for r in runs:
        r.warnings += [f"implausible: {f}" for f in implausible_figures(r)]
    merged = {run_label(r): merge_clients(r) for r in runs}
    summary = runs_summary(runs, merged, skip)
    compared = compare_sides(runs, summary, expected)
    agg, db_verdicts, differences = compared.agg, compared.verdicts, compared.differences
    cap_steps, cap_found, cap_verdicts = compared.steps, compared.found, compared.capacity_verdicts
    servers = servers_table(runs)
    charts: list[Chart] = [c for chart in ALL_CHARTS for c in chart(runs, out)]
    notes: list[str] = []
    written = export_figures(out, runs, merged, summary, raw_rows=raw_rows, notes=notes)
    fault_verdicts, unreadable = verdicts_in(Path(r.path).parent for r in runs)
    lost = faults.lost_lines(fault_verdicts)   # first, wherever the report speaks
    if db_verdicts.height or lost:
        table = answer.text(answer.table(agg, db_verdicts)) if db_verdicts.height else ""
        (out / "answer.txt").write_text("".join(f"{line}\n" for line in lost) + table)
        written.append(out / "answer.txt")
    if db_verdicts.height:
        write_csv(db_verdicts, out / "verdicts.csv")
        written.append(out / "verdicts.csv")
    if servers.height:
        write_csv(servers, out / "servers.csv")
        written.append(out / "servers.csv")
    if cap_steps.height:
        write_csv(cap_steps, out / "capacity-steps.csv")
        write_csv(cap_found, out / "capacity.csv")
        written += [out / "capacity-steps.csv", out / "capacity.csv"]
    skipped += [SkippedInput(str(path), why) for path, why in unreadable]
    fault_table = faults.across_repeats(fault_verdicts)
    fault_lines = lost + faults.lines(fault_table, fault_verdicts)
    if fault_lines:   # what the faults' acknowledged writes survive, beside them
        fault_lines += faults.durability_lines(runs)
    if fault_table.height:
        write_csv(fault_table, out / "faults.csv")
        written.append(out / "faults.csv")
    if fault_lines:
        (out / "faults.txt").write_text("\n".join(fault_lines) + "\n")
        written.append(out / "faults.txt")
    comparison = None
    if baseline:
        base_skipped: list[SkippedInput] = []
        base_runs = load(baseline, batchsize=batchsize, skipped=base_skipped)
        skipped += [SkippedInput(s.path, f"(baseline) {s.reason}") for s in base_skipped]
        base_summary = runs_summary(base_runs, skip=skip)
        comparison, base_differences = comparability.against_baseline(
            against_baseline(agg, aggregate(base_summary), session_spread), runs, base_runs,
            expected, first_mark=1 + len(comparability.footnotes(differences)))
        differences = pl.concat([differences, base_differences], how="diagonal_relaxed")
        write_csv(comparison, out / "comparison.csv")
        write_json(comparison, out / "comparison.json")
        written += [out / "comparison.csv", out / "comparison.json"]
        notes += unmatched_phases(summary, base_summary)
    if differences.height:
        write_csv(differences, out / "comparability.csv")
        written.append(out / "comparability.csv")
    unused = [f"{run_label(r)}: {u}" for r in runs for u in r.unused]
    if baseline:
        unused += [f"(baseline) {run_label(r)}: {u}" for r in base_runs for u in r.unused]
    # Repeated inputs are read once: worth saying, but nothing is lost.
    repeated = [s for s in skipped if "read once" in s.reason]
    skipped = [s for s in skipped if s not in repeated]
    notes = [str(s) for s in repeated] + notes
    report = write_report(out / "report.html", runs, merged, summary, charts, comparison, title,
                          skipped=skipped, unused=unused, notes=notes, files=written,
                          answer=lost_section(lost) + answer.of(compared),
                          extra_sections=interval_sections(agg, db_verdicts)
                          + capacity_section(cap_steps, cap_found, cap_verdicts)
                          + faults_section(fault_table, fault_lines)
                          + what_ran_section(runs, differences))
    warnings = lost + [f"{run_label(r)}: {w}" for r in runs for w in r.warnings]
    return ReportOutcome(report, skipped, unused, notes, warnings)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        batchsizes = parse_batchsizes(args.batchsize)
    except ValueError as e:
        parser.error(f"--batchsize: {e}")
    spread = None
    if args.session_spread is not None:
        if not args.baseline:
            parser.error("--session-spread: only with --baseline (a comparison across sessions)")
        try:
            spread = parse_spread(args.session_spread)
        except ValueError as e:
            parser.error(f"--session-spread: {e}")
    try:
        outcome = build_report_outcome(args.inputs, args.out, args.baseline, batchsizes,
                                       args.title, args.skip, raw_rows=args.raw_rows,
                                       expected=args.expected_difference,
                                       session_spread=spread)
    except UnreadableInput as e:
        print(f"ycsb-report: error: {e.path}: {e.problem}", file=sys.stderr)
        return EXIT_NO_REPORT
    except OSError as e:
        print(f"ycsb-report: error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return EXIT_NO_REPORT
    except Exception:  # a bug of ours: say so, with the traceback for the bug report
        print("ycsb-report: internal error (please report it with this traceback):",
              file=sys.stderr)
        traceback.print_exc()
        return EXIT_INTERNAL_ERROR
    for what, items in (("skipped", outcome.skipped), ("incomplete", outcome.unused),
                        ("note", outcome.notes), ("warning", outcome.warnings)):
        for item in items:
            print(f"ycsb-report: {what}: {item}", file=sys.stderr)
    print(f"wrote {outcome.report}")
    if not outcome.complete:
        print(f"ycsb-report: the report covers what could be used; exit status {EXIT_INCOMPLETE} "
              f"({len(outcome.skipped)} input(s) skipped, {len(outcome.unused)} incomplete "
              "part(s))", file=sys.stderr)
        return EXIT_INCOMPLETE
    return EXIT_COMPLETE


if __name__ == "__main__":
    sys.exit(main())
