"""The answer first: one row per compared phase, in the manner of Go's benchstat — each side's
primary figure with its 95% interval, the ratio with its interval, one symbol for the verdict,
the trials, and a mark for each caveat (explained once, below the table).

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

import pandas as pd

from .intervals_html import plus_minus
from .verdicts import COMPARED

_COLUMN = {label: column for column, label, _ in COMPARED}
LEGEND = ("~ no significant difference (the ratio's 95% interval includes 1); ? not judged (one "
          "trial on a side, or a trial not steady: see the verdicts); A/B is the ratio of the "
          "first side's figure to the second's, its interval from the spread between trials")


def symbol(v: pd.Series) -> str:
    """The verdict of one primary row in one word or sign."""
    if v["significant"] in (True, "True"):
        return f"{(float(v['ratio']) - 1) * 100:+.0f}%"
    if v["ratio_low"] == v["ratio_low"] and not str(v["verdict"]).startswith("not judged"):
        return "~"
    return "?"


def table(agg: pd.DataFrame, verdicts: pd.DataFrame) -> pd.DataFrame:
    """The primary verdict of every compared phase, one row each."""
    if verdicts.empty:
        return pd.DataFrame()
    rows = []
    for _, v in verdicts[verdicts["primary"].fillna(False).astype(bool)].iterrows():
        figure = _COLUMN.get(v["figure"], "throughput_ops_per_s")
        sides = {}
        for side in (v["side_a"], v["side_b"]):
            match = agg[(agg["database"] == side) & (agg["phase"] == v["phase"])
                        & (agg["scenario"] == v["scenario"])
                        & (agg["timestamp"] == v["timestamp"])]
            sides[side] = plus_minus(match.iloc[0], figure) if not match.empty else "–"
        ratio = (f"{v['ratio']:.2f} ({v['ratio_low']:.2f}–{v['ratio_high']:.2f})"
                 if v["ratio_low"] == v["ratio_low"] else
                 f"{v['ratio']:.2f}" if v["ratio"] == v["ratio"] else "–")
        marks = str(v.get("marks") or "")
        rows.append({"phase": f"{v['scenario']} {v['phase']}", "figure": v["figure"],
                     "A": v["side_a"], "A figure": sides[v["side_a"]],
                     "B": v["side_b"], "B figure": sides[v["side_b"]],
                     "A/B (95% CI)": ratio, "verdict": symbol(v), "trials": v["trials"],
                     "marks": " ".join(f"[{m}]" for m in marks.split(",") if m and m != "nan")})
    return pd.DataFrame(rows)


def text(answer: pd.DataFrame) -> str:
    """The table as aligned text (answer.txt, the quickstart's last lines)."""
    if answer.empty:
        return ""
    cells = [[f"{r['phase']} {r['figure']}", f"{r['A']} {r['A figure']}",
              f"{r['B']} {r['B figure']}", r["A/B (95% CI)"], r["verdict"], r["trials"],
              r["marks"]] for _, r in answer.iterrows()]
    head = ["phase", "A", "B", "A/B (95% CI)", "verdict", "trials", ""]
    width = [max(len(str(c[i])) for c in cells + [head]) for i in range(len(head))]
    line = ("  ".join(str(c).ljust(w) for c, w in zip(row, width)).rstrip()
            for row in [head] + cells)
    return "\n".join(line) + "\n" + LEGEND + "\n"


def section(answer: pd.DataFrame, footnotes: dict[str, str]) -> str:
    """The table as the report's first section (nothing when no two sides were compared)."""
    if answer.empty:
        return ""
    head = "".join(f"<th class=\"text\">{html.escape(c)}</th>" for c in
                   ("phase", "figure", "A", "B", "A/B (95% CI)", "verdict", "trials", ""))
    body = "".join(
        "<tr>" + "".join(f'<td class="text">{html.escape(str(c))}</td>' for c in (
            r["phase"], r["figure"], f"{r['A']}: {r['A figure']}", f"{r['B']}: {r['B figure']}",
            r["A/B (95% CI)"], r["verdict"], r["trials"], r["marks"])) + "</tr>"
        for _, r in answer.iterrows())
    used = sorted({m.strip("[]") for marks in answer["marks"] for m in marks.split() if m},
                  key=lambda m: int(m) if m.isdigit() else math.inf)
    notes = "".join(f'<p class="note footnote">[{html.escape(m)}] not like for like: '
                    f"{html.escape(footnotes.get(m, 'see comparability.csv'))}</p>" for m in used)
    return ('<section id="answer"><h2>The answer</h2>'
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            f'<p class="note">{html.escape(LEGEND)}; <a href="#verdicts">the verdicts in words'
            "</a>, secondary figures included.</p>" + notes + "</section>")
