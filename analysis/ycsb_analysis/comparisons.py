"""Everything compared in one set of results, computed once for the report and the notebook
(:func:`compare_sides`). The answer (answer.py) condenses it; report.html, answer.txt and the
notebook show it."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from . import capacity, comparability
from .model import Run
from .sides import known_sides
from .summary import runs_summary
from .tables import frame
from .verdicts import aggregate, between_databases


@dataclass
class Comparisons:
    """What was compared: ``agg`` one row (a dict) per phase, its trials merged
    (verdicts.aggregate); ``verdicts`` one row per phase and figure compared between two sides
    (verdicts.csv), each held against what ran on its two sides; ``differences`` every
    difference found between them (comparability.csv); the capacity searches' ``steps``,
    ``found`` capacities and their ``capacity_verdicts`` (capacity.py)."""

    agg: list[dict]
    verdicts: pl.DataFrame
    differences: pl.DataFrame
    steps: pl.DataFrame
    found: pl.DataFrame
    capacity_verdicts: pl.DataFrame


def compare_sides(runs: list[Run], summary: pl.DataFrame | None = None,
                  expected: list[str] = ()) -> Comparisons:
    """The comparisons of ``runs`` (their ``summary``: summary.runs_summary, made when not
    given); ``expected``: the --expected-difference patterns, named but not marked."""
    summary = runs_summary(runs) if summary is None else summary
    agg = aggregate(summary)
    verdicts = between_databases(agg)
    steps = capacity.steps_table(runs)
    found = capacity.capacities(steps)
    cap_verdicts = capacity.capacity_verdicts(found, known_sides(agg))
    if cap_verdicts.height:  # (in the columns of the other verdicts)
        verdicts = frame(verdicts.to_dicts() + cap_verdicts.to_dicts(), verdicts.columns)
    verdicts, differences = comparability.between_databases(verdicts, runs, list(expected))
    return Comparisons(agg, verdicts, differences, steps, found, cap_verdicts)
