"""The answer first: one row per compared phase, in the manner of Go's benchstat — each side's
primary figure with its 95% interval, the ratio with its interval, one symbol for the verdict,
the trials, and a mark for each caveat (explained once, below the table). The other figures of
each phase (latencies; in a closed loop service times) follow in a table of their own, said to be
secondary: one figure decides a phase (verdicts.PRIMARY).

It heads report.html and is written as answer.txt, which the quickstart prints as its last lines
before the report's path: the same table, defined once here. The verdicts themselves (the
words, the secondary figures, the footnotes' detail) stay in verdicts.csv and the report's
verdicts section; this only condenses the primary one of each phase.

Symbols: "+11%" / "-8%" a difference called (side A against side B, the interval of the ratio
excludes 1), "~" no significant difference, "?" not judged (one trial on a side, or a trial not
steady); "[1]" a caveat (comparability: a difference the user controls).
"""

from __future__ import annotations

import html
import math

import polars as pl

from . import comparability
from .comparisons import Comparisons
from .intervals_html import plus_minus
from .verdicts import COMPARED, LATENCIES, closed_loop, known

_COLUMN = {label: column for column, label, _ in COMPARED}
LEGEND = ("~ no significant difference (the ratio's 95% interval includes 1); ? not judged (one "
          "trial on a side, or a trial not steady: see the verdicts); A/B is the ratio of the "
          "first side's figure to the second's, its interval from the spread between trials")


def symbol(v: dict) -> str:
    """The verdict of one primary row in one word or sign."""
    if v["significant"] in (True, "True"):
        return f"{(float(v['ratio']) - 1) * 100:+.0f}%"
    if known(v["ratio_low"]) and not str(v["verdict"]).startswith("not judged"):
        return "~"
    return "?"


def _side(agg: list[dict], v: dict, side: str) -> dict | None:
    """The aggregate row of one side of a verdict (its own results: timestamp)."""
    return next((r for r in agg if r["database"] == side and r["phase"] == v["phase"]
                 and r["scenario"] == v["scenario"] and r["timestamp"] == v["timestamp"]), None)


def _rows(agg: list[dict], verdicts: pl.DataFrame, primary: bool) -> list[dict]:
    """One row per verdict whose ``primary`` is as asked, condensed (module docstring)."""
    rows = []
    for v in verdicts.iter_rows(named=True):
        if bool(v["primary"]) != primary:
            continue
        column = _COLUMN.get(v["figure"], "throughput_ops_per_s")
        found = {side: _side(agg, v, side) for side in (v["side_a"], v["side_b"])}
        sides = {side: plus_minus(row, column) if row is not None else "–"
                 for side, row in found.items()}
        # in a closed loop each side ran at its own saturation: its latency is a service time
        closed = all(row is not None and closed_loop(row) for row in found.values())
        figure = (f"{LATENCIES[column]} (µs)" if closed and column in LATENCIES else
                  f"{v['figure']} (µs)" if column in LATENCIES else v["figure"])
        ratio = (f"{v['ratio']:.2f} ({v['ratio_low']:.2f}–{v['ratio_high']:.2f})"
                 if known(v["ratio_low"]) else f"{v['ratio']:.2f}" if known(v["ratio"]) else "–")
        marks = str(v.get("marks") or "")
        rows.append({"phase": f"{v['scenario']} {v['phase']}", "figure": figure,
                     "A": v["side_a"], "A figure": sides[v["side_a"]],
                     "B": v["side_b"], "B figure": sides[v["side_b"]],
                     "A/B (95% CI)": ratio, "verdict": symbol(v), "trials": v["trials"],
                     "marks": " ".join(f"[{m}]" for m in marks.split(",") if m)})
    return rows


def table(agg: list[dict], verdicts: pl.DataFrame) -> list[dict]:
    """The primary verdict of every compared phase, one row each."""
    return _rows(agg, verdicts, primary=True)


def secondary(agg: list[dict], verdicts: pl.DataFrame) -> list[dict]:
    """Every other figure compared (latencies), one row each: they decide nothing."""
    return _rows(agg, verdicts, primary=False)


def text(answer: list[dict]) -> str:
    """The table as aligned text (answer.txt, the quickstart's last lines)."""
    if not answer:
        return ""
    cells = [[f"{r['phase']} {r['figure']}", f"{r['A']} {r['A figure']}",
              f"{r['B']} {r['B figure']}", r["A/B (95% CI)"], r["verdict"], r["trials"],
              r["marks"]] for r in answer]
    head = ["phase", "A", "B", "A/B (95% CI)", "verdict", "trials", ""]
    width = [max(len(str(c[i])) for c in cells + [head]) for i in range(len(head))]
    line = ("  ".join(str(c).ljust(w) for c, w in zip(row, width)).rstrip()
            for row in [head] + cells)
    return "\n".join(line) + "\n" + LEGEND + "\n"


def _html_table(rows: list[dict], table_id: str) -> str:
    head = "".join(f"<th class=\"text\">{html.escape(c)}</th>" for c in
                   ("phase", "figure", "A", "B", "A/B (95% CI)", "verdict", "trials", ""))
    body = "".join(
        "<tr>" + "".join(f'<td class="text">{html.escape(str(c))}</td>' for c in (
            r["phase"], r["figure"], f"{r['A']}: {r['A figure']}", f"{r['B']}: {r['B figure']}",
            r["A/B (95% CI)"], r["verdict"], r["trials"], r["marks"])) + "</tr>"
        for r in rows)
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def section(answer: list[dict], footnotes: dict[str, str],
            others: list[dict] | None = None) -> str:
    """The table as the report's first section (nothing when no two sides were compared), the
    secondary figures (``others``: :func:`secondary`) in their own table right after it."""
    if not answer:
        return ""
    others = others or []
    used = sorted({m.strip("[]") for r in answer + others for m in r["marks"].split()},
                  key=lambda m: int(m) if m.isdigit() else math.inf)
    notes = "".join(f'<p class="note footnote">[{html.escape(m)}] not like for like: '
                    f"{html.escape(footnotes.get(m, 'see comparability.csv'))}</p>" for m in used)
    second = "" if not others else (
        '<h3 id="secondary">Secondary figures</h3><p class="note">Secondary: they decide '
        "nothing (one figure decides a phase, above; five figures judged at 95% would be five "
        "chances of a false call). In a closed loop each side ran at its own saturation, so its "
        "latencies are service times there.</p>" + _html_table(others, "secondary-table"))
    return ('<section id="answer"><h2>The answer</h2>' + _html_table(answer, "answer-table")
            + second + f'<p class="note">{html.escape(LEGEND)}; <a href="#verdicts">the '
            "verdicts in words</a>.</p>" + notes + "</section>")


def of(compared: Comparisons) -> str:
    """The answer of a set of results as the report opens with it, and the notebook."""
    return section(table(compared.agg, compared.verdicts),
                   comparability.footnotes(compared.differences),
                   secondary(compared.agg, compared.verdicts))
