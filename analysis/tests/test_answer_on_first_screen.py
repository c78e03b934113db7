"""Acceptance of issue 46 in a real browser: the quickstart's report (the kept fixture
fixtures/quickstart-s4/qs-main) shows the answer row of every compared phase on its first screen
at 1366x768, without scrolling (headless Chromium, as test_html_in_browser.py drives it)."""

from __future__ import annotations

import polars as pl
import pytest
from conftest import FIXTURES
from test_html_in_browser import headless_browser
from ycsb_analysis.cli import main

QUICKSTART = FIXTURES / "quickstart-s4" / "qs-main"
SCREEN = (1366, 768)


@pytest.fixture(scope="module")
def laptop():
    driver = headless_browser(*SCREEN)
    yield driver
    driver.quit()


def test_every_compared_phase_has_its_answer_row_on_the_first_screen(laptop, tmp_path):
    assert main([str(QUICKSTART), "-o", str(tmp_path)]) in (0, 1)
    laptop.get((tmp_path / "report.html").resolve().as_uri())
    width, height, scrolled = laptop.execute_script(
        "return [window.innerWidth, window.innerHeight, window.scrollY];")
    assert (width, height, scrolled) == SCREEN + (0,)
    rows = laptop.execute_script("""
        return Array.from(document.querySelectorAll('#answer-table tbody tr')).map(r => {
          const box = r.getBoundingClientRect();
          return [r.cells[0].innerText, box.top, box.bottom];});""")
    verdicts = pl.read_csv(tmp_path / "verdicts.csv", infer_schema_length=None)
    primary = verdicts.filter(pl.col("primary"))
    phases = {f"{s} {p}" for s, p in zip(primary["scenario"], primary["phase"])}
    assert {phase for phase, _, _ in rows} == phases and len(rows) == len(primary) >= 1
    for phase, top, bottom in rows:
        assert 0 <= top < bottom <= SCREEN[1], f"{phase}: its answer row ends at {bottom} px"
