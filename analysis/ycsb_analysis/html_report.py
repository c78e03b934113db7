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

import pandas as pd

from .batched import records_table
from .charts import Chart
from .loader import Run, run_label
from .merge import MERGE_RULES, MergedRun

COMPARED_FIGURES = [
    ("throughput_ops_per_s", "throughput (ops/s)", "higher"),
    ("records_per_s", "records/s", "higher"),
    ("average_latency_us", "average latency (µs)", "lower"),
    ("p95_latency_us", "p95 latency (µs)", "lower"),
    ("p99_latency_us", "p99 latency (µs)", "lower"),
    ("runtime_ms", "run time (ms)", "lower"),
    ("errors", "errors", "lower"),
]

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0;font-size:.85em}
th,td{border:1px solid #ddd;padding:.25em .5em;text-align:right}th{background:#f3f3f3}
td.text,th.text{text-align:left}
figure{margin:1.5em 0}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:.9em;color:#555}.note{color:#666;font-size:.85em}
.better{color:#1a7f37}.worse{color:#cf222e}details{margin:.5em 0}
"""


def _fmt(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if math.isnan(v):
            return "–"
        if abs(v) >= 100 or v == int(v):
            return f"{v:,.0f}"
        return f"{v:,.2f}"
    return html.escape(str(v))


def _table(df: pd.DataFrame, text_columns: tuple[str, ...] = ()) -> str:
    if df.empty:
        return '<p class="note">(none)</p>'
    head = "".join(f'<th class="{"text" if c in text_columns else ""}">{html.escape(str(c))}</th>' for c in df.columns)
    body = []
    for _, row in df.iterrows():
        cells = "".join(f'<td class="{"text" if c in text_columns else ""}">{_fmt(row[c])}</td>' for c in df.columns)
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _anchor(text: str) -> str:
    return "run-" + "".join(ch if ch.isalnum() else "-" for ch in text).strip("-").lower()


def _chart_html(chart: Chart) -> str:
    data = base64.b64encode(chart.png.read_bytes()).decode("ascii")
    return (f'<figure id="chart-{html.escape(chart.name)}"><img alt="{html.escape(chart.title)}" '
            f'src="data:image/png;base64,{data}"><figcaption>{html.escape(chart.title)} '
            f'(also <code>{html.escape(chart.svg.name)}</code> beside this report)</figcaption></figure>')


def _run_section(run: Run, merged: MergedRun) -> str:
    label = run_label(run)
    ops = merged.operations
    if not ops.empty:
        cols = ["metric", "clients", "operations", "throughput_ops_per_s", "average_latency_us",
                "min_latency_us", "max_latency_us"] + [c for c in ops.columns if c.startswith("p") and c[1:2].isdigit()] \
            + ["percentiles_source"]
        ops = ops[[c for c in cols if c in ops.columns]]
    rec = records_table(run)
    meta = {k: v for k, v in run.metadata.items() if not k.startswith("_") and k not in ("properties", "command")}
    props = pd.DataFrame(sorted(run.properties.items()), columns=["property", "value"])
    command = run.metadata.get("command")
    overall = merged.overall
    warn = "".join(f'<p class="note">⚠ {html.escape(w)}</p>' for w in run.warnings)
    skipped = run.skipped_lines
    return f"""
<section id="{_anchor(label)}">
<h2>{html.escape(label)}</h2>
<p>{html.escape(str(run.metadata.get('label') or ''))} — {overall['clients']} client(s), run time
{_fmt(overall['runtime_ms'])} ms, throughput {_fmt(overall['throughput_ops_per_s'])} ops/s
(sum of clients). Source: <code>{html.escape(run.path)}</code>.
{f'{skipped} unknown line(s) skipped.' if skipped else ''}</p>{warn}
<h3>Operations</h3>{_table(ops, ("metric", "percentiles_source"))}
<h3>Return statuses</h3>{_table(merged.returns, ("operation", "status"))}
{'<h3>Batched records</h3>' + _table(rec, ("operation", "records_source")) if not rec.empty else ''}
<details><summary>Exact properties and metadata of this run</summary>
{_table(pd.DataFrame([(k, json.dumps(v) if isinstance(v, (dict, list)) else v) for k, v in meta.items()],
                     columns=["metadata", "value"]), ("metadata", "value"))}
{_table(props, ("property", "value"))}
{'<p>Command: <code>' + html.escape(' '.join(map(str, command))) + '</code></p>' if command else ''}
</details>
</section>"""


COMPARISON_KEY = ["scenario", "phase", "database"]


def comparison_table(current: pd.DataFrame, baseline: pd.DataFrame) -> pd.DataFrame:
    """Baseline vs current per phase, change in percent.

    Phases are matched on scenario, phase and database (S2's ``load`` is not S3's ``load``);
    when one side holds a phase several times (several timestamps), its latest run is used.
    """
    def latest(summary: pd.DataFrame) -> pd.DataFrame:
        if summary.empty:
            return summary.reindex(columns=COMPARISON_KEY)
        return summary.sort_values("timestamp", kind="stable").drop_duplicates(COMPARISON_KEY, keep="last")

    merged = latest(baseline).merge(latest(current), on=COMPARISON_KEY, suffixes=(" baseline", " current"))
    rows = []
    for _, r in merged.iterrows():
        for col, title, better in COMPARED_FIGURES:
            b, c = r.get(f"{col} baseline"), r.get(f"{col} current")
            if b is None or c is None or (isinstance(b, float) and math.isnan(b)) or \
                    (isinstance(c, float) and math.isnan(c)):
                continue
            # From 0 to 0 is no change; from 0 to something has no percentage.
            change = (c - b) / b * 100.0 if b else (0.0 if c == b else float("nan"))
            rows.append({"scenario": r["scenario"], "phase": r["phase"], "database": r["database"],
                         "figure": title, "baseline": float(b), "current": float(c), "change_percent": change,
                         "better_when": better})
    return pd.DataFrame(rows, columns=COMPARISON_KEY + ["figure", "baseline", "current", "change_percent",
                                                        "better_when"])


def _comparison_html(table: pd.DataFrame) -> str:
    if table.empty:
        return '<p class="note">No phase of the baseline matches a phase of these results.</p>'
    rows = []
    for _, r in table.iterrows():
        ch = r["change_percent"]
        good = (ch > 0) == (r["better_when"] == "higher")
        cls = "" if (math.isnan(ch) or abs(ch) < 0.5) else ("better" if good else "worse")
        rows.append(f'<tr><td class="text">{html.escape(r["scenario"])}</td>'
                    f'<td class="text">{html.escape(r["phase"])}</td><td class="text">'
                    f'{html.escape(r["database"])}</td><td class="text">{html.escape(r["figure"])}</td>'
                    f'<td>{_fmt(r["baseline"])}</td><td>{_fmt(r["current"])}</td>'
                    f'<td class="{cls}">{"–" if math.isnan(ch) else f"{ch:+.1f} %"}</td></tr>')
    return ('<table><thead><tr><th class="text">scenario</th><th class="text">phase</th>'
            '<th class="text">database</th><th class="text">figure</th><th>baseline</th><th>current</th><th>change</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def write_report(path: Path, runs: list[Run], merged: dict[str, MergedRun], summary: pd.DataFrame,
                 charts: list[Chart], comparison: pd.DataFrame | None = None,
                 title: str = "YCSB results") -> Path:
    """Write the self-contained HTML report and return its path."""
    toc = "".join(f'<li><a href="#{_anchor(run_label(r))}">{html.escape(run_label(r))}</a></li>' for r in runs)
    chart_toc = "".join(f'<li><a href="#chart-{html.escape(c.name)}">{html.escape(c.title)}</a></li>' for c in charts)
    cols = ["run", "threads", "clients", "batchsize", "runtime_ms", "throughput_ops_per_s", "records_per_s",
            "main_operation", "average_latency_us", "p95_latency_us", "p99_latency_us", "percentiles_source",
            "errors"]
    overview = summary[[c for c in cols if c in summary.columns]] if not summary.empty else summary
    rules = pd.DataFrame(list(MERGE_RULES.items()), columns=["figure", "how clients are merged"])
    generated = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    comparison_part = ""
    if comparison is not None:
        comparison_part = f'<h2 id="comparison">Comparison with the baseline</h2>{_comparison_html(comparison)}'
    doc = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{_CSS}</style></head>
<body>
<h1>{html.escape(title)}</h1>
<p class="note">Generated {generated} by ycsb-report from {len(runs)} run(s).</p>
<nav><h2>Contents</h2><ul><li><a href="#overview">Overview</a></li>
{'<li><a href="#comparison">Comparison with the baseline</a></li>' if comparison is not None else ''}
<li><a href="#charts">Charts</a><ul>{chart_toc}</ul></li><li>Runs<ul>{toc}</ul></li></ul></nav>
<h2 id="overview">Overview</h2>
{_table(overview, ("run", "main_operation", "percentiles_source"))}
<p class="note">Throughput is summed over a phase's clients; records/s applies to batched phases
(see each run's "Batched records"). Percentiles of several clients are recomputed from their merged
.hdr logs or shown as – (never averaged).</p>
<details><summary>How clients are merged</summary>{_table(rules, ("figure", "how clients are merged"))}</details>
{comparison_part}
<h2 id="charts">Charts</h2>
{''.join(_chart_html(c) for c in charts) or '<p class="note">No chart could be drawn from these runs.</p>'}
{''.join(_run_section(r, merged[run_label(r)]) for r in runs)}
</body></html>
"""
    path = Path(path)
    path.write_text(doc, encoding="utf-8")
    return path
