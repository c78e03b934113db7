"""The report's sections on trust: figures with 95% intervals and their window, the verdicts
between two sides (Cassandra vs HBase, or an A/A test's two sides), and who was the bottleneck
(client/server CPU per operation)."""

from __future__ import annotations

import html
import math

import polars as pl

from .bottleneck import CLIENT_BOUND
from .sides import is_aa, known_sides, title
from .tables import by_key, frame
from .verdicts import known

METHOD = (
    "Each figure describes the phase's steady window (column <i>window</i>): the intervals after "
    "the runner's warm-up (the phase's own workload, in the same clients, until the per-interval "
    "throughput of the last seconds has no trend and a low spread, bounded by a maximum time), "
    "checked again for a trend; for an output without a warm-up, the leading intervals are "
    "dropped until the rest has no trend (<code>--skip SECONDS</code> overrides). A load is a "
    "finite job: its figure is the whole job. YCSB's final report, and so the per-run tables and "
    "Return= counts below, cover the whole run, warm-up included. "
    "The 95% interval of a phase run in several trials (fresh servers each) is the t-interval "
    "of the trials' figures; of a single trial, the interval within its run (per-interval "
    "values, the standard error widened for their autocorrelation): it describes one server "
    "lifetime and never decides a comparison. Comparisons rest on the spread between trials, "
    "paired by trial number where the runner ran them in blocks A,B then B,A; a difference is "
    "called only when the interval of the ratio excludes 1, and a comparison with one trial on "
    "a side gets no verdict."
)


def plus_minus(row: dict, figure: str) -> str:
    """A figure ± the half width of its 95% interval; an interval wider than its figure (its low
    end below zero) is not a measurement: said so in words, with the interval and its basis."""
    v = row.get(figure)
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    lo, hi = row.get(f"{figure}_ci_low"), row.get(f"{figure}_ci_high")
    if not known(lo) or not known(hi):
        return f"{v:,.0f}"
    # the half width from the top: trials.mean_interval cuts the low end at zero
    half = max(hi - v, v - lo)
    if half >= abs(v):
        trials = row.get("trials", 1)
        basis = (f"{int(trials)} trials" if known(trials) and int(trials) > 1
                 else "the intervals of one run")
        return (f"{v:,.0f}: too noisy to measure (95% CI ± {half:,.0f} from {basis}: wider "
                "than the figure)")
    return f"{v:,.0f} ± {half:,.0f}"


def _cell(v) -> str:
    if isinstance(v, float):
        return "–" if math.isnan(v) else f"{v:,.0f}" if abs(v) >= 10 else f"{v:,.2f}"
    return html.escape("" if v is None else str(v))


def html_table(df: pl.DataFrame) -> str:
    """``df`` as an HTML table of text cells, numbers to a precision that reads at a glance."""
    if df.is_empty():
        return '<p class="note">(none)</p>'
    head = "".join(f'<th class="text">{html.escape(str(c))}</th>' for c in df.columns)
    body = "".join(
        "<tr>" + "".join(f'<td class="text">{_cell(v)}</td>' for v in r) + "</tr>"
        for r in df.iter_rows()
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _share(r: dict) -> str:
    share = r.get("client_core_share")
    if not known(share):
        return "–"
    return f"{share * 100:.0f}%" + (" ⚠ measures the client" if r.get("client_bound") else "")


def figures_table(agg: list[dict]) -> pl.DataFrame:
    """One row per phase: its figures with their 95% intervals, window and CPU per operation."""
    return frame([{
        "run": r["run"], "trials": r.get("trials", 1), "window": r.get("window", ""),
        "throughput ops/s (95% CI)": plus_minus(r, "throughput_ops_per_s"),
        "records/s": plus_minus(r, "records_per_s"),
        "mean latency µs": plus_minus(r, "average_latency_us"),
        "p95 µs": plus_minus(r, "p95_latency_us"), "p99 µs": plus_minus(r, "p99_latency_us"),
        "client CPU µs/op": r.get("client_cpu_us_per_op", math.nan),
        "server CPU µs/op": r.get("server_cpu_us_per_op", math.nan),
        "client share of cores": _share(r),
    } for r in agg])


def sections(agg: list[dict], db_verdicts: pl.DataFrame) -> str:
    """HTML: the intervals section and, when both databases ran, the verdicts section (the
    marks on its verdicts are explained under the answer: answer.py)."""

    def flagged(column: str) -> list[str]:
        return [str(r["run"]) for r in agg if r.get(column)]

    notes = []
    if flagged("shared_machine"):
        notes.append(
            "Client and servers shared one machine in the phases the runner ran on local "
            "servers: throughput there is roughly cores ÷ (client + server CPU per "
            "operation), so a cheaper client shows up as a faster database."
        )
    if flagged("client_bound"):
        bound = ", ".join(flagged("client_bound"))
        notes.append(
            f"The client kept more than {CLIENT_BOUND:.0%} of its machine's cores (on a fleet: "
            f"of its busiest loader's) busy in: {html.escape(bound)}. These phases measure the "
            "client, not the database."
        )
    unsteady = [str(r["run"]) for r in agg if not r["steady"]]
    if unsteady:
        notes.append(f"No steady state in: {html.escape(', '.join(unsteady))} (see the window "
                     "column): their figures average a trend and get no verdict.")
    out = [
        '<h2 id="intervals">Figures with 95% confidence intervals</h2>'
        f'<p class="note">{METHOD}</p>',
        "".join(f'<p class="note">⚠ {n}</p>' for n in notes),
        html_table(figures_table(agg)),
    ]
    if db_verdicts.height:
        sides = known_sides(agg)
        verdicts = by_key(db_verdicts.to_dicts(), ["side_a", "side_b"])
        for i, ((a, b), v) in enumerate(verdicts.items()):
            out.append(_verdicts_html(v, a, b, sides, anchor=i == 0))
        out.append(_footnotes_html(db_verdicts.to_dicts()))
    return "".join(out)


def _footnotes_html(verdicts: list[dict]) -> str:
    """The marks the verdicts carry, each once; what a mark means is said under the answer at
    the top of the report (answer.py), the verdicts point there."""
    used = {m for v in verdicts for m in str(v.get("marks") or "").split(",") if m}
    return "".join(f'<p class="note footnote">[{html.escape(m)}] not like for like: '
                   f'<a href="#answer">under the answer</a>; detail in comparability.csv</p>'
                   for m in sorted(used, key=int))


def _percent(x) -> str:
    return f"{x:.1f}" if known(x) else "–"


def _verdicts_html(v: list[dict], a: str, b: str, sides: dict, anchor: bool) -> str:
    """One comparison's verdicts, phase by phase, each phase's primary figure first."""
    aa = is_aa(a, b, sides)
    rows = []
    for phase in by_key(v, ["scenario", "timestamp", "phase"]).values():
        for r in sorted(phase, key=lambda r: not r["primary"]):
            rows.append({k: r[k] for k in ("scenario", "phase", "figure")}
                        | {"role": "primary" if r["primary"] else "secondary", a: r[a], b: r[b],
                           "trials": r["trials"], "ratio (95% CI)": (
                               f"{r['ratio']:.2f} ({r['ratio_low']:.2f}–{r['ratio_high']:.2f})"
                               if known(r["ratio_low"]) else f"{r['ratio']:.2f}")}
                        # the smallest difference this environment resolves at the trials run
                        | ({"resolves ±%": _percent(r["resolves_percent"]),
                            "80% power ±%": _percent(r["detectable_80_percent"])} if aa else {})
                        | {"verdict": r["verdict"]})
    what = ("A/A: the same configuration on both sides; a difference should be called in "
            "about 1 comparison in 20, and the widths say how small a difference these trials "
            "resolve (the interval's half width; the difference found with 80% power). "
            if aa else "")
    head = ' id="verdicts"' if anchor else ""
    return (
        f"<h2{head}>{html.escape(title(a, b, sides))}</h2>"
        '<p class="note">Ratio '
        f"{html.escape(a)} ÷ {html.escape(b)} per phase and figure, its 95% interval from the "
        "spread between trials (paired by trial number); a difference is called only when that "
        "interval excludes 1, and only with two or more trials of each side, every one steady. "
        f"{what}One figure decides each phase (primary: records/s of a batched phase, else "
        "throughput); the others are secondary. In a closed loop (no -target) each side ran at "
        "its own saturation point: its latencies are service times there, and the mean is "
        "threads ÷ throughput (Little's law), the throughput verdict again.</p>"
        + html_table(frame(rows))
    )
