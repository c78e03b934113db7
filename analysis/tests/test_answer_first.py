"""The answer first (answer.py): one row per compared phase heads report.html and is written as
answer.txt (what the quickstart prints last), on a kept real quickstart run
(fixtures/quickstart-s4: two trials of each side)."""

from __future__ import annotations

import re

import polars as pl
import pytest
from conftest import FIXTURES, read_csv
from ycsb_analysis import answer
from ycsb_analysis.cli import main

QUICKSTART = FIXTURES / "quickstart-s4" / "qs-main"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("answer")
    assert main([str(QUICKSTART), "-o", str(out)]) in (0, 1)
    return out


def test_the_answer_heads_the_report_before_its_contents_and_overview(report):
    page = (report / "report.html").read_text()
    body = page[page.index("<body>"):]
    assert body.index('id="answer"') < body.index("<nav>") < body.index('id="overview"')
    table = body[body.index('id="answer-table"'):]
    rows = re.findall(r"<tr><td[^>]*>(.*?)</td>", table[:table.index("</table>")])
    v = read_csv(report / "verdicts.csv")
    assert len(rows) == int(v["primary"].sum()) == 1  # one compared phase, one primary figure
    assert rows[0] == "s4 update-heavy-threads-8"


def test_the_text_answer_is_the_same_row_as_the_primary_verdict(report):
    text = (report / "answer.txt").read_text()
    v = read_csv(report / "verdicts.csv")
    (p,) = v.filter(pl.col("primary")).to_dicts()
    (line,) = [x for x in text.splitlines() if x.startswith("s4 update-heavy-threads-8")]
    assert f"{p['ratio']:.2f} ({p['ratio_low']:.2f}–{p['ratio_high']:.2f})" in line
    # the sign, then the trials; no mark: the two bindings' own libraries are no caveat
    assert line.split()[-2:] == [answer.symbol(p), p["trials"]] == ["~", "2/2"]
    assert text.splitlines()[-1] == answer.LEGEND


def _verdict(**kw) -> dict:
    base = {"significant": False, "ratio": 1.02, "ratio_low": 0.97, "ratio_high": 1.07,
            "verdict": "no significant difference (...)"}
    return base | kw


def test_one_sign_per_verdict():
    assert answer.symbol(_verdict(significant=True, ratio=1.11, ratio_low=1.07)) == "+11%"
    assert answer.symbol(_verdict(significant=True, ratio=0.92, ratio_high=0.95)) == "-8%"
    assert answer.symbol(_verdict()) == "~"
    assert answer.symbol(_verdict(ratio_low=float("nan"), ratio_high=float("nan"),
                                  verdict="one trial: no verdict (...)")) == "?"
    assert answer.symbol(_verdict(verdict="not judged: hbase trial 2: NOT steady")) == "?"


def test_secondary_figures_follow_in_their_own_table_named_service_times(report):
    """The answer shows the primary figure only; the latencies of the closed loop follow in a
    table of their own, said to be secondary, labelled service time."""
    page = (report / "report.html").read_text()
    section = page[page.index('<section id="answer"'):]
    section = section[:section.index("</section>")]
    first = section[section.index('id="answer-table"'):section.index("</table>")]
    assert section.index('id="answer-table"') < section.index('id="secondary-table"')
    assert "Secondary figures" in section and "decide nothing" in section
    rows = re.findall(r"<tr><td[^>]*>[^<]*</td><td[^>]*>([^<]*)</td>", first)
    assert rows == ["throughput"]
    second = section[section.index('id="secondary-table"'):]
    figures = re.findall(r"<tr><td[^>]*>[^<]*</td><td[^>]*>([^<]*)</td>", second)
    v = read_csv(report / "verdicts.csv")
    assert len(figures) == int((~v["primary"]).sum()) == 3
    assert figures == ["mean service time (µs)", "p95 service time (µs)",
                       "p99 service time (µs)"]
    # answer.txt, what the quickstart prints, is the primary figure only
    assert "service time" not in (report / "answer.txt").read_text()
