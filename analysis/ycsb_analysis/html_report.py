"""One self-contained ``report.html``: summary tables per phase, the charts, every run's
exact properties, and (comparison mode) the change against a baseline in percent.

Self-contained means no external file or URL: charts are embedded as PNG data URIs and the
only links are in-page anchors, so the report can be mailed or attached to an issue.
"""

from __future__ import annotations

import base64
import html
import json
import math
from datetime import datetime, timezone
from pathlib import Path

import polars as pl

from .batched import records_table
from .charts import Chart
from .merge import FIGURE_COLUMNS, MERGE_RULES, MergedRun
from .model import Run, run_label
from .per_client import client_figures, client_latencies
from .readers.final_report import percentile_columns
from .tables import frame

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.6em 0;font-size:.8em}
th,td{border:1px solid #ddd;padding:.25em .45em;text-align:right}th{background:#f3f3f3;vertical-align:bottom}
td{white-space:nowrap}td.text{white-space:normal;min-width:7em;max-width:28em;overflow-wrap:break-word}
.problems{border:2px solid #cf222e;padding:.4em 1em;background:#fff5f5}.flag{color:#9a6700}
td.text,th.text{text-align:left}
figure{margin:1.5em 0}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:.9em;color:#555}.note{color:#666;font-size:.85em}
.better{color:#1a7f37}.worse{color:#cf222e}details{margin:.5em 0}
"""


def _fmt(v) -> str:
    """A figure as text: whole numbers without decimals, others with at least two decimals
    (three significant digits below 1), so 630.5005 µs reads 630.50, not 631."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        if math.isnan(v):
            return "–"
        if math.isinf(v):
            return "∞" if v > 0 else "−∞"
        if v == int(v):
            return f"{v:,.0f}"
        if abs(v) >= 1:
            return f"{v:,.2f}"
        return f"{v:.3g}" if abs(v) >= 0.001 else f"{v:.2e}"
    return html.escape(str(v))


# Column headers in words with units (the CSV/JSON files keep the short names).
COLUMN_TITLES = {
    "run": "Run", "threads": "Threads", "clients": "Clients", "batchsize": "Records per batch",
    "runtime_ms": "Run time (ms)", "throughput_ops_per_s": "Throughput (ops/s)",
    "records_per_s": "Records/s", "main_operation": "Main operation",
    "average_latency_us": "Average latency (µs)", "min_latency_us": "Min latency (µs)",
    "max_latency_us": "Max latency (µs)", "p95_latency_us": "p95 latency (µs)",
    "p99_latency_us": "p99 latency (µs)", "percentiles_source": "Percentiles from",
    "errors": "Errors (non-OK returns)", "metric": "Metric", "operation": "Operation",
    "operations": "Operations", "status": "Status", "count": "Count", "intended": "Intended?",
    "client": "Client", "source": "Source file", "returns": "Returns",
    "gc_count": "GC count", "gc_time_ms": "GC time (ms)", "gc_time_percent": "GC time (% of run)",
    "batches": "Batches", "records_ok": "Records OK", "records_source": "Records from",
    "per_record_latency_us": "Per-record latency (µs)", "records_per_batch": "Records per batch",
    "records_total": "Records", "property": "Property", "value": "Value", "metadata": "Metadata",
    "figure": "Figure", "how clients are merged": "How clients are merged",
}


def column_title(column: str) -> str:
    """``p99.9`` → ``p99.9 (µs)``; known columns → their words; others as they are."""
    if column in COLUMN_TITLES:
        return COLUMN_TITLES[column]
    if column.startswith("p") and column[1:2].isdigit():
        return f"{column} (µs)"
    return column.replace("_", " ")


def _table(df: pl.DataFrame, text_columns: tuple[str, ...] = ()) -> str:
    if df.is_empty():
        return '<p class="note">(none)</p>'
    # (a missing figure reads "–", missing text nothing)
    rows = df.with_columns(pl.col(pl.Float64).fill_null(math.nan)).iter_rows(named=True)
    cls = {c: "text" if c in text_columns else "" for c in df.columns}
    head = "".join(f'<th class="{cls[c]}">{html.escape(column_title(str(c)))}</th>' for c in df.columns)
    body = "".join("<tr>" + "".join(f'<td class="{cls[c]}">{_fmt(row[c])}</td>' for c in df.columns)
                   + "</tr>" for row in rows)
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _anchor(text: str) -> str:
    return "run-" + "".join(ch if ch.isalnum() else "-" for ch in text).strip("-").lower()


def _chart_html(chart: Chart) -> str:
    data = base64.b64encode(chart.png.read_bytes()).decode("ascii")
    return (
        f'<figure id="chart-{html.escape(chart.name)}"><img alt="{html.escape(chart.title)}" '
        f'src="data:image/png;base64,{data}"><figcaption>{html.escape(chart.title)} '
        f"(also <code>{html.escape(chart.svg.name)}</code> beside this report)</figcaption></figure>"
    )


INTENDED_NOTE = (
    "<code>Intended-</code> rows are YCSB's intended latency (<code>measurement.interval=intended|both</code>): "
    "measured from the moment <code>-target</code> pacing meant the operation to start, so time an "
    "operation waited behind a slow one counts (coordinated omission corrected). The plain rows are "
    "service latency: from the moment the operation really started. With no backlog the two agree."
)


def _list(items: list[str], cls: str = "") -> str:
    return f'<ul class="{cls}">' + "".join(f"<li>{html.escape(i)}</li>" for i in items) + "</ul>"


def _window_note(overall: dict) -> str:
    thr, window = overall.get("all_running_throughput_ops_per_s"), overall.get("all_running_window_s")
    if thr is None or window is None or math.isnan(thr):
        return ""
    return (f"; {_fmt(thr)} ops/s over the {_fmt(window)} s in which all {overall['clients']} "
            "clients ran (from their status lines)")


def _run_section(run: Run, merged: MergedRun) -> str:
    label = run_label(run)
    ops = merged.operations
    if ops.height:
        cols = ["metric", *FIGURE_COLUMNS, *percentile_columns(ops), "percentiles_source"]
        ops = ops.select(c for c in cols if c in ops.columns)
    rec = records_table(run)
    meta = {k: json.dumps(v) if isinstance(v, (dict, list)) else v
            for k, v in run.metadata.items()
            if not k.startswith("_") and k not in ("properties", "command")}
    props = frame([{"property": k, "value": v} for k, v in sorted(run.properties.items())],
                  ["property", "value"])
    command = run.metadata.get("command")
    overall = merged.overall
    problems = ('<div class="problems"><strong>Not used or incomplete:</strong>'
                + _list(run.unused) + "</div>") if run.unused else ""
    warn = _list(run.warnings, "flag") if run.warnings else ""
    intended = merged.operations.height > 0 and merged.operations["intended"].any()
    per_client = client_figures(run)
    latencies = client_latencies(run)
    many = len(run.clients) > 1
    skipped_text = (f"{run.skipped_lines} line(s) that are not YCSB output (a binding's log "
                    "lines, say) skipped." if run.skipped_lines else "")
    return f"""
<section id="{_anchor(label)}">
<h2>{html.escape(label)}{' — partial' if run.partial else ''}</h2>
<p>{html.escape(str(run.metadata.get('label') or ''))} — {overall['clients']} client(s), run time
{_fmt(overall['runtime_ms'])} ms, throughput {_fmt(overall['throughput_ops_per_s'])} ops/s
(sum of clients){_window_note(overall)}. Source: <code>{html.escape(run.path)}</code>.
{skipped_text}</p>
{problems}{warn}
<h3>Operations{" (clients merged)" if many else ""}</h3>{
    _table(ops, ("metric", "percentiles_source"))}
{f'<p class="note">{INTENDED_NOTE}</p>' if intended else ""}
<h3>{"Per client" if many else "Client"}</h3>{_table(per_client, ("source", "returns"))}
<details{" open" if many else ""}><summary>Latency of each client as YCSB printed it</summary>
{_table(latencies, ("metric",))}</details>
<h3>Return statuses</h3>{_table(merged.returns, ("operation", "status"))}
{"<h3>Batched records</h3>" + _table(rec, ("operation", "records_source")) if rec.height else ""}
<details><summary>Exact properties and metadata of this run</summary>
{_table(frame([{"metadata": k, "value": v} for k, v in meta.items()], ["metadata", "value"]),
        ("metadata", "value"))}
{_table(props, ("property", "value"))}
{"<p>Command: <code>" + html.escape(" ".join(map(str, command))) + "</code></p>" if command else ""}
</details>
</section>"""


def _comparison_html(table: pl.DataFrame) -> str:
    if table.is_empty():
        return '<p class="note">No phase of the baseline matches a phase of these results.</p>'
    rows = []
    for r in table.iter_rows(named=True):
        ch = r["change_percent"]
        good = (ch > 0) == (r["better_when"] == "higher")
        cls = "" if (math.isnan(ch) or abs(ch) < 0.5 or r.get("significant") is False) else \
            ("better" if good else "worse")
        figure = r["figure"] + (" (primary)" if str(r.get("primary")) == "True" else "")
        rows.append("<tr>" + "".join(f'<td class="text">{html.escape(t)}</td>'
                                     for t in (r["scenario"], r["phase"], r["database"], figure))
                    + f'<td>{_fmt(r["baseline"])}</td><td>{_fmt(r["current"])}</td>'
                    f'<td class="{cls}">{"–" if math.isnan(ch) else f"{ch:+.1f} %"}</td>'
                    f'<td class="text">{html.escape(r["verdict"])}</td></tr>')
    return ('<table><thead><tr><th class="text">scenario</th><th class="text">phase</th>'
            '<th class="text">database</th><th class="text">figure</th><th>baseline</th><th>current</th><th>change</th>'
            '<th class="text">verdict (95% CI of the ratio)</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def _files_html(files: list[Path], report_dir: Path) -> str:
    """Links to every CSV/JSON written beside the report (relative: they travel together)."""
    items = []
    for f in files:
        f = Path(f)
        rel = f.name if f.parent.resolve() == report_dir.resolve() else str(f)
        items.append(f'<li><a href="{html.escape(rel)}">{html.escape(rel)}</a> — '
                     f'{html.escape(FILE_CONTENTS.get(f.stem, ""))}</li>')
    return "<ul>" + "".join(items) + "</ul>"


FILE_CONTENTS = {
    "figures": "every final-report figure of every client (run, client, source, metric, measurement, value)",
    "clients": "per client: run time, throughput, operations, returns, GC",
    "operations": "per run and metric, the clients merged",
    "returns": "Return= counts, clients summed",
    "records": "batched records (records/s, per-record latency)",
    "timeseries": "measurementtype=timeseries rows: average latency per interval (time_ms)",
    "raw-datapoints": "measurementtype=raw datapoints: one row per operation (timestamp_ms, latency_us)",
    "raw-intervals": "measurementtype=raw datapoints per metric and second: count, min, mean, p50-p99.9, max",
    "status": "every per-interval status-line figure",
    "status.csv": "every per-interval status-line figure (gzipped: a long run)",
    "raw-datapoints.csv": "measurementtype=raw datapoints: one row per operation (gzipped)",
    "summary": "one row per run (the overview)",
    "comparison": "baseline vs current, change in percent, ratio with its 95% interval (with "
    "--session-spread, the spread between sessions included), verdict; primary figure marked",
    "verdicts": "Cassandra vs HBase (or an A/A test's two sides) per phase and figure: ratio "
    "with its 95% interval, verdict, which figure is primary",
}


def write_report(path: Path, runs: list[Run], merged: dict[str, MergedRun], summary: pl.DataFrame,
                 charts: list[Chart], comparison: pl.DataFrame | None = None,
                 title: str = "YCSB results", skipped: list | None = None, unused: list[str] | None = None,
                 notes: list[str] | None = None, files: list[Path] | None = None,
                 extra_sections: str = "", answer: str = "") -> Path:
    """Write the self-contained HTML report and return its path.

    ``answer`` (answer.section: the verdict of each compared phase) comes first, then
    ``skipped`` (inputs not used at all), ``unused`` (incomplete parts of used runs) and
    ``notes``; ``files`` are the CSV/JSON files written beside it.
    """
    path = Path(path)
    skipped, unused, notes, files = skipped or [], unused or [], notes or [], files or []
    toc = "".join(f'<li><a href="#{_anchor(run_label(r))}">{html.escape(run_label(r))}</a></li>'
                  for r in runs)
    chart_toc = "".join(f'<li><a href="#chart-{html.escape(c.name)}">{html.escape(c.title)}</a>'
                        "</li>" for c in charts)
    cols = ["run", "threads", "clients", "batchsize", "runtime_ms", "throughput_ops_per_s",
            "records_per_s", "main_operation", "average_latency_us", "p95_latency_us",
            "p99_latency_us", "percentiles_source", "errors"]
    overview = summary.select(c for c in cols if c in summary.columns)
    rules = frame([{"figure": k, "how clients are merged": v} for k, v in MERGE_RULES.items()])
    generated = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    base_notes = [n for n in notes if "baseline" in n]
    comparison_part = "" if comparison is None else (
        f'<h2 id="comparison">Comparison with the baseline</h2>{_comparison_html(comparison)}'
        + (_list(base_notes, "note") if base_notes else ""))
    problems = "" if not (skipped or unused) else (
        '<div class="problems" id="not-used"><h2>Not used or incomplete</h2>'
        + (f"<p>{len(skipped)} input(s) skipped:</p>" + _list([str(s) for s in skipped])
           if skipped else "")
        + (f"<p>{len(unused)} incomplete part(s) of the runs below:</p>" + _list(unused)
           if unused else "")
        + "<p>The report covers everything else.</p></div>")
    flagged = [f"{run_label(r)}: {w}" for r in runs for w in r.warnings]
    other_notes = [n for n in notes if "baseline" not in n]
    doc = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{_CSS}</style></head>
<body>
<h1>{html.escape(title)}</h1>
<p class="note">Generated {generated} by ycsb-report from {len(runs)} run(s).</p>
{answer}
{problems}
{('<h2 id="flags">Flags</h2>' + _list(flagged, "flag")) if flagged else ""}
{_list(other_notes, "note") if other_notes else ""}
<nav><h2>Contents</h2><ul><li><a href="#overview">Overview</a></li>
{'<li><a href="#comparison">Comparison with the baseline</a></li>' if comparison is not None else ""}
<li><a href="#charts">Charts</a><ul>{chart_toc}</ul></li><li>Runs<ul>{toc}</ul></li>
<li><a href="#files">Data files</a></li></ul></nav>
<h2 id="overview">Overview</h2>
{_table(overview, ("run", "main_operation", "percentiles_source"))}
<p class="note">Throughput is summed over a phase's clients; records/s applies to batched phases
(see each run's "Batched records"). Percentiles of several clients are recomputed from their merged
.hdr logs or shown as – (never averaged).</p>
<details><summary>How clients are merged</summary>{_table(rules, ("figure", "how clients are merged"))}</details>
{extra_sections}
{comparison_part}
<h2 id="charts">Charts</h2>
{"".join(_chart_html(c) for c in charts) or '<p class="note">No chart could be drawn from these runs.</p>'}
{"".join(_run_section(r, merged[run_label(r)]) for r in runs)}
<h2 id="files">Data files</h2>
<p>Written beside this report (CSV and JSON; charts also as PNG and SVG):</p>
{_files_html(files, path.parent)}
</body></html>
"""
    path.write_text(doc, encoding="utf-8")
    return path
