"""The throughput chart shades each run's warm-up in that run's colour, only in the panels
where the run has a line, from 0 to that run's own end (fixtures/warm-s4-s1: a real quickstart
run: S4 update-heavy warmed up until steady, Cassandra 46 s and HBase 42 s; S1's single-thread
appends, which the runner did not warm up). One grey band to the longest warm-up across every
panel said the S1 phases were all warm-up and both S4 phases warmed up as long as the slower."""

import json
from pathlib import Path

import pytest
from matplotlib.colors import to_rgb
from ycsb_analysis.charts import over_time
from ycsb_analysis.loader import load
from ycsb_analysis.model import run_label

FIXTURE = Path(__file__).parent / "fixtures" / "warm-s4-s1"


def _warmup_ends() -> dict[str, float]:
    """Each phase's warm-up end as the runner wrote it, by run label."""
    ends = {}
    for meta in FIXTURE.glob("*/*/metadata.json"):
        warmup = json.loads(meta.read_text())["warmup"]
        if warmup.get("end_s"):
            db, _, phase = meta.parent.name.partition("-")
            ends[f"{db}:{phase}"] = float(warmup["end_s"])
    return ends


@pytest.fixture
def drawn(monkeypatch, tmp_path):
    """The throughput chart's panels as drawn: title -> (spans, line colours by label)."""
    panels = {}
    real_save = over_time.save

    def capture(fig, out_dir, name, title):
        for ax in fig.axes:
            spans = sorted(
                (round(p.get_x(), 6), round(p.get_x() + p.get_width(), 6),
                 tuple(round(c, 3) for c in to_rgb(p.get_facecolor())))
                for p in ax.patches
            )
            colours = {ln.get_label(): tuple(round(c, 3) for c in to_rgb(ln.get_color()))
                       for ln in ax.get_lines()}
            panels[ax.get_title()] = (spans, colours)
        panels["figure title"] = title
        return real_save(fig, out_dir, name, title)

    monkeypatch.setattr(over_time, "save", capture)
    runs = load([str(FIXTURE)])
    charts = over_time.throughput_over_time(runs, tmp_path)
    return runs, panels, charts


def test_each_runs_warm_up_is_shaded_in_its_colour_where_it_has_a_line(drawn):
    runs, panels, _ = drawn
    ends = _warmup_ends()
    assert len(ends) == 2 and len(set(ends.values())) == 2   # two runs, two warm-up lengths
    assert {run_label(r) for r in runs} >= set(ends)
    for op in ("READ", "UPDATE"):
        spans, colours = panels[op]
        assert spans == sorted((0.0, end, colours[label]) for label, end in ends.items())


def test_phases_the_runner_did_not_warm_up_are_not_shaded(drawn):
    _, panels, _ = drawn
    spans, colours = panels["APPEND"]
    assert sorted(colours) == ["cassandra:default-write-1-thread", "hbase:default-write-1-thread"]
    assert spans == []


def test_the_title_says_what_the_shading_is(drawn):
    _, panels, charts = drawn
    assert "shaded in a run's colour: its warm-up" in panels["figure title"]
    assert "\n" not in charts[0].title   # (the report's caption on one line)
