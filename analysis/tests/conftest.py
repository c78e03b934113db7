"""Shared fixture paths and readers. Every file under fixtures/ is real YCSB 0.17.0 output
(remade by fixtures/make_fixtures.sh; list-append/ by fixtures/make_list_append_fixtures.sh,
which needs a local Cassandra) or a verbatim quote of seed 001; only metadata.json is
hand-made."""

from __future__ import annotations

import math
import re
from pathlib import Path

import polars as pl
import pytest
from hypothesis.configuration import set_hypothesis_home_dir

# Keep Hypothesis' working files inside analysis/ (git-ignored there), not in the repo root.
set_hypothesis_home_dir(str(Path(__file__).parent / ".hypothesis"))

FIXTURES = Path(__file__).parent / "fixtures"
OUTPUTS = FIXTURES / "outputs"
SEED = FIXTURES / "seed001"
RESULTS = FIXTURES / "results"
LIST_APPEND = FIXTURES / "list-append"     # cassandra4 output, made by make_list_append_fixtures.sh
REPORT_CASES = (
    FIXTURES / "report-cases"
)  # crash, intended, timeseries, raw, clock step: make_report_case_fixtures.sh


def phase_dir(phase: str) -> Path:
    """The fixture results directory of one phase (the timestamp differs per regeneration)."""
    (found,) = RESULTS.glob(f"fixture-sweep/*/{phase}")
    return found


def report_figures(path):
    """``{(metric, measurement): value}`` of a client's final report, read from the text."""
    found = re.findall(r"^\[([^\]]+)\], ([^,]+), (\S+)$", path.read_text(), re.M)
    return {(metric, measurement): float(value) for metric, measurement, value in found}


def client_reports(phase_or_dir):
    """Every client's final report of a phase (a fixture phase name or a phase directory)."""
    d = phase_dir(phase_or_dir) if isinstance(phase_or_dir, str) else phase_or_dir
    return [report_figures(p) for p in sorted(d.glob("client-*.out"))]


def by(frame, *keys) -> dict:
    """The rows of a polars frame by the value of ``keys`` (one column, or a tuple of several),
    each a dict whose missing values read NaN."""
    out = {}
    for r in frame.iter_rows(named=True):
        key = r[keys[0]] if len(keys) == 1 else tuple(r[k] for k in keys)
        out.setdefault(key, {c: math.nan if v is None else v for c, v in r.items()})
    return out


def read_csv(path) -> pl.DataFrame:
    """A data file of the report, its column types read from all its rows (True/False as
    flags, an empty field null)."""
    return pl.read_csv(path, infer_schema_length=None)


def record_statuses(report, op):
    """``{status: count}`` of ``[<op>-RECORDS], Return=<status>, n``."""
    return {m[len("Return="):]: n for (metric, m), n in report.items()
            if metric == op + "-RECORDS" and m.startswith("Return=")}


@pytest.fixture(scope="session")
def built_report(tmp_path_factory):
    """The full report of the fixture results plus the seed's two quotes, built once."""
    from ycsb_analysis.cli import main

    out = tmp_path_factory.mktemp("report")
    status = main(
        [
            str(RESULTS),
            f"cassandra={SEED / 'cassandra-insert-1-client.txt'}",
            f"hbase={SEED / 'hbase-insert-4-clients.txt'}",
            "--batchsize",
            "hbase=100",
            "-o",
            str(out),
        ]
    )
    assert status == 0
    return out
