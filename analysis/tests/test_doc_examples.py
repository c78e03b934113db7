"""The docs' example outputs are today's: every example output on README.md, docs/quickstart.md,
docs/method.md and docs/analysis.md is what the current code makes from a kept fixture. Each is a
```text block right after a marker that names it,

    <!-- example: answer.txt of fixtures/quickstart-s4 (remake: DOCS_REMAKE=1 .venv/bin/python
         -m pytest analysis/tests/test_doc_examples.py) -->

and this test fails when a block differs from what ``EXAMPLES[name]`` makes now (a hand edit,
or a change of the code), names an example it does not know, or when a page has an output block
without a marker. One command remakes them all: the one in the marker (DOCS_REMAKE=1 writes
today's output into the pages; inspect the diff). The facts a page states about the code's
settings are checked against the code below.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from conftest import FIXTURES
from ycsb_analysis import answer, faults
from ycsb_analysis.cli import main
from ycsb_analysis.comparisons import compare_sides
from ycsb_analysis.loader import load
from ycsb_analysis.readers.fault_verdicts import verdicts_in

ROOT = FIXTURES.parents[2]
PAGES = [ROOT / "README.md"] + [ROOT / "docs" / p for p in ("quickstart.md", "method.md",
                                                              "analysis.md")]
REMAKE = "DOCS_REMAKE=1 .venv/bin/python -m pytest analysis/tests/test_doc_examples.py"
EXAMPLE = re.compile(r"<!-- example: (?P<name>[^(]+?) \(remake: (?P<remake>[^)]*)\) -->\n"
                     r"```text\n(?P<shown>.*?)```", re.S)
FENCE = re.compile(r"^```(?P<info>\S*)$", re.M)
COMMANDS = ("sh",)   # fenced blocks that hold commands to type, not output
QUICKSTART = FIXTURES / "quickstart-s4" / "qs-main"
S4_UPDATE_HEAVY = "update-heavy-threads-8"


def _report(out: Path, *args: str) -> Path:
    assert main([*args, "-o", str(out)]) in (0, 3)
    return out


def answer_txt(tmp: Path) -> str:
    """`ycsb-report fixtures/quickstart-s4/qs-main`'s answer.txt, as the quickstart prints it."""
    return (_report(tmp / "qs", str(QUICKSTART)) / "answer.txt").read_text()


def verdicts_in_words(tmp: Path) -> str:
    """The primary verdict of S4 update-heavy in three kept runs: two trials a side, one trial a
    side, and trials that never became steady (verdicts.csv's verdict column)."""
    lines = []
    for name in ("quickstart-s4", "warm-s4-s1", "cold-s4"):
        verdicts = compare_sides(load([str(FIXTURES / name)], skipped=[])).verdicts
        (v,) = verdicts.filter(pl.col("primary")
                               & (pl.col("phase") == S4_UPDATE_HEAVY))["verdict"]
        lines.append(f"{name}: {v}")
    return "\n".join(lines) + "\n"


def figures_with_intervals(tmp: Path) -> str:
    """Each side's figures in the answer and secondary tables of the quickstart's kept run: a
    figure ± its interval, or too noisy to measure in words."""
    compared = compare_sides(load([str(QUICKSTART)], skipped=[]))
    rows = (answer.table(compared.agg, compared.verdicts)
            + answer.secondary(compared.agg, compared.verdicts))
    width = max(len(r["figure"]) for r in rows)
    return "".join(f"{r['figure']:<{width}}  {side}: {r[f'{key} figure']}\n"
                   for r in rows for key, side in (("A", r["A"]), ("B", r["B"])))


def against_itself(tmp: Path) -> str:
    """current vs --baseline of the quickstart's kept run against a copy of itself, without and
    with --session-spread 5%: comparison.csv's primary verdicts."""
    baseline = tmp / "baseline" / "qs-main"
    shutil.copytree(QUICKSTART, baseline)
    lines = []
    for spread in ((), ("--session-spread", "5%")):
        out = _report(tmp / f"cmp{len(spread)}", str(QUICKSTART), "--baseline", str(baseline),
                      *spread)
        c = pl.read_csv(out / "comparison.csv", infer_schema_length=None)
        for r in c.filter(pl.col("primary")).iter_rows(named=True):
            lines.append(f"{' '.join(('ycsb-report', *spread)).strip()}: {r['database']}: "
                         f"{r['verdict']}")
    return "\n".join(lines) + "\n"


def faults_txt(tmp: Path) -> str:
    """The faults.txt ycsb-report writes for the kept verdicts of S2's faults with 3 repeats on
    both databases (fixtures/fault-repeats: make_fault_repeats_fixture.sh)."""
    verdicts, unreadable = verdicts_in([FIXTURES / "fault-repeats"])
    assert unreadable == [] and len(verdicts) == 12
    return "\n".join(faults.lines(faults.across_repeats(verdicts), verdicts)) + "\n"


EXAMPLES = {
    "answer.txt of fixtures/quickstart-s4": answer_txt,
    "verdicts of fixtures/quickstart-s4, warm-s4-s1 and cold-s4": verdicts_in_words,
    "figures with intervals of fixtures/quickstart-s4": figures_with_intervals,
    "comparison of fixtures/quickstart-s4 against a copy of itself": against_itself,
    "faults.txt of fixtures/fault-repeats": faults_txt,
}


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("doc-examples")
    return {name: make(tmp / str(i)) for i, (name, make) in enumerate(EXAMPLES.items())}


def stale(text: str, made: dict[str, str]) -> list[str]:
    """The names of the examples in a page's ``text`` that differ from what the code makes."""
    return [m["name"] for m in EXAMPLE.finditer(text) if m["shown"] != made[m["name"]]]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_example_on_the_page_is_what_the_code_makes_from_its_fixture_today(page, made):
    text = page.read_text()
    examples = list(EXAMPLE.finditer(text))
    assert {m["name"] for m in examples} <= set(EXAMPLES), "an example this test cannot make"
    assert all(m["remake"] == REMAKE for m in examples), f"{page.name}: remake with {REMAKE}"
    if os.environ.get("DOCS_REMAKE") == "1":
        for m in reversed(examples):
            text = text[:m.start("shown")] + made[m["name"]] + text[m.end("shown"):]
        page.write_text(text)
    assert stale(page.read_text(), made) == [], f"{page.name}: not today's output: {REMAKE}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_output_block_on_the_page_is_a_marked_example(page):
    text = page.read_text()
    opening = [m for i, m in enumerate(FENCE.finditer(text)) if i % 2 == 0]
    marked = {m.start("shown") for m in EXAMPLE.finditer(text)}
    unmarked = [text[:m.start()].count("\n") + 1 for m in opening
                if m["info"] not in COMMANDS and m.end() + 1 not in marked]
    assert unmarked == [], f"{page.name}: output blocks without an example marker at lines"


def test_a_hand_edited_example_fails(made):
    page = (ROOT / "docs" / "quickstart.md").read_text()
    assert stale(page, made) == []
    edited = page.replace("  2/2\n", "  4/4\n", 1)
    assert edited != page and stale(edited, made) == ["answer.txt of fixtures/quickstart-s4"]


def _said(page: str) -> str:
    return " ".join((ROOT / "docs" / page).read_text().split())


def _property(path: str, key: str) -> str:
    (value,) = re.findall(rf"^{re.escape(key)}=(\S+)$", (ROOT / path).read_text(), re.M)
    return value


def test_the_method_states_the_warm_up_limits_and_the_quickstart_budget_the_code_has():
    method = _said("method.md")
    s4, ci = (_property(f"workloads/s4/{s}.properties", "warmup.maxtime") for s in ("local", "ci"))
    assert f"S4 {s4} s" in method and f"CI {ci} s" in method
    quickstart = (ROOT / "scripts/lib/ycsbpack/runner/quickstart.py").read_text()
    (budget,) = re.findall(r'add_trial_options\(ap, precision="(\d+)%", budget=(\d+)', quickstart)
    assert f"--precision {budget[0]}% --budget {budget[1]}" in method
    assert f"or {budget[1]} minutes are spent" in " ".join((ROOT / "README.md").read_text().split())
