"""``ycsb-report``: parse YCSB results, write charts, CSV/JSON figures and report.html.

    ycsb-report results/s3-thread-sweep -o out/
    ycsb-report cassandra=seed-cassandra.txt hbase=seed-hbase.txt --batchsize hbase=100 -o out/
    ycsb-report results/new -o out/ --baseline results/old

Exit status: 0 on success, 2 when an input cannot be read or holds no YCSB output (the
message names the file and what was wrong), 1 on an unexpected internal error.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path

import pandas as pd

from . import __version__
from .batched import records_table
from .charts import ALL_CHARTS, Chart
from .errors import UnreadableInput
from .html_report import comparison_table, write_report
from .loader import Run, load, run_label
from .merge import MergedRun, merge_clients
from .summary import runs_summary


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ycsb-report",
        description="Parse YCSB 0.17 outputs (results directories of the scenario runner, or plain "
                    "output files), merge the clients of each phase, and write charts (PNG, SVG), "
                    "CSV/JSON of every figure and a self-contained report.html.")
    p.add_argument("inputs", nargs="+", metavar="RESULTS",
                   help="results directory (searched for <phase>/metadata.json) or YCSB output file; "
                        "a file may be given as LABEL=PATH")
    p.add_argument("-o", "--out", required=True, type=Path, help="output directory (created)")
    p.add_argument("--baseline", nargs="+", metavar="RESULTS",
                   help="comparison mode: results to compare against; the report shows both and the change in %%")
    p.add_argument("--batchsize", action="append", default=[], metavar="[LABEL=]N",
                   help="records per operation for plain files, for all of them (N) or for the file "
                        "given as LABEL=PATH (LABEL=N; repeatable), e.g. hbase=100 for the seed's HBase "
                        "batches; phases of a results directory take it from metadata.json")
    p.add_argument("--title", default="YCSB results", help="report title")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return p


def export_figures(out: Path, runs: list[Run], merged: dict[str, MergedRun], summary: pd.DataFrame) -> list[Path]:
    """Write every parsed figure as CSV and JSON; return the files written."""
    written = []
    figures, operations, returns, records, status = [], [], [], [], []
    for r in runs:
        label = run_label(r)
        for c in r.clients:
            rep = c.output.report.assign(run=label, client=c.index, source=c.output.source)
            figures.append(rep[["run", "client", "source", "metric", "measurement", "value"]])
            sm = c.output.status_measurements
            if not sm.empty:
                status.append(sm.assign(run=label, client=c.index))
        operations.append(merged[label].operations.assign(run=label))
        returns.append(merged[label].returns.assign(run=label))
        rec = records_table(r)
        if not rec.empty:
            records.append(rec.assign(run=label))

    def dump(frames: list[pd.DataFrame], stem: str, json_too: bool = True) -> None:
        df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
        if df.empty:
            return
        first = ["run"] + [c for c in df.columns if c != "run"]
        df = df[first]
        df.to_csv(out / f"{stem}.csv", index=False)
        written.append(out / f"{stem}.csv")
        if json_too:
            df.to_json(out / f"{stem}.json", orient="records", indent=1, date_format="iso")
            written.append(out / f"{stem}.json")

    dump(figures, "figures")
    dump(operations, "operations")
    dump(returns, "returns")
    dump(records, "records")
    dump(status, "status", json_too=False)
    if not summary.empty:
        summary.to_csv(out / "summary.csv", index=False)
        summary.to_json(out / "summary.json", orient="records", indent=1)
        written += [out / "summary.csv", out / "summary.json"]
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


def build_report(inputs: list[str], out: Path, baseline: list[str] | None = None,
                 batchsize: int | dict[str, int] = 1, title: str = "YCSB results") -> Path:
    """Everything ``ycsb-report`` does, as a function (used by the notebook and tests)."""
    runs = load(inputs, batchsize=batchsize)
    if not runs:
        raise UnreadableInput(" ".join(inputs), "no run found")
    out.mkdir(parents=True, exist_ok=True)
    merged = {run_label(r): merge_clients(r) for r in runs}
    summary = runs_summary(runs, merged)
    charts: list[Chart] = []
    for chart in ALL_CHARTS:
        charts.extend(chart(runs, out))
    export_figures(out, runs, merged, summary)
    comparison = None
    if baseline:
        base_runs = load(baseline, batchsize=batchsize)
        comparison = comparison_table(summary, runs_summary(base_runs))
        comparison.to_csv(out / "comparison.csv", index=False)
        (out / "comparison.json").write_text(comparison.to_json(orient="records", indent=1))
    return write_report(out / "report.html", runs, merged, summary, charts, comparison, title)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        batchsizes = parse_batchsizes(args.batchsize)
    except ValueError as e:
        parser.error(f"--batchsize: {e}")
    try:
        report = build_report(args.inputs, args.out, args.baseline, batchsizes, args.title)
    except UnreadableInput as e:
        print(f"ycsb-report: error: {e.path}: {e.problem}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"ycsb-report: error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 2
    except Exception:  # a bug of ours: say so, with the traceback for the bug report
        print("ycsb-report: internal error (please report it with this traceback):", file=sys.stderr)
        traceback.print_exc()
        return 1
    print(f"wrote {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
