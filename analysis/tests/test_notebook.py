"""The exploration notebook runs top to bottom on the fixture results."""

from pathlib import Path

import nbformat
from conftest import FIXTURES, RESULTS
from nbclient import NotebookClient
from ycsb_analysis import answer
from ycsb_analysis.comparisons import compare_sides
from ycsb_analysis.loader import load

NOTEBOOK = Path(__file__).parents[1] / "notebooks" / "explore_results.ipynb"


def test_notebook_executes_and_shows_charts(monkeypatch):
    monkeypatch.setenv("YCSB_RESULTS", str(RESULTS))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=180, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert len(images) >= 7
    # (a table's plain text wraps long column names: its HTML, what Jupyter shows, does not)
    texts = " ".join(str(o.get("data", {}).get(kind, "")) for c in nb.cells
                     if c.cell_type == "code" for o in c.get("outputs", [])
                     for kind in ("text/plain", "text/html"))
    # the comparison with its trials, interval and verdict (fixtures/trials-s4)
    assert "cassandra_trials" in texts and ("paired trials" in texts or "not judged" in texts)
    errors = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.output_type == "error"
    ]
    assert errors == []
    # it opens with the answer: the table report.html opens with, made by the same code
    first = next(c for c in nb.cells if c.cell_type == "code")
    (shown,) = [o["data"]["text/html"] for o in first.outputs if "text/html" in o.get("data", {})]
    expected = answer.of(compare_sides(load([str(FIXTURES / "trials-s4")])))
    assert 'id="answer-table"' in expected and shown == expected
