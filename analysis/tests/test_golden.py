"""The report's data files are what they were before the readers were rewritten (issue 32).

``golden/<case>/`` holds the CSV files ``ycsb-report`` wrote for each case with the readers of
before the rewrite (two C scanners, a numpy CSV writer; main at 2c8c379, whose figures and
verdicts are today's), source paths written relative to the fixtures as ``FIXTURES/``.
Today's files must be the same, byte for byte but for the last digits of a float (REL_TOL:
numpy's sums and dot products round differently on another CPU or numpy build: a degrees of
freedom figure was 5.081675919436548 in the golden file and ...546 on a 2026-12-04 CI machine
with AVX-512): every reader, the merge, the steady-window figures and the writer together.
After a change meant to change the figures, remake them:
``GOLDEN_REMAKE=1 .venv/bin/python -m pytest analysis/tests/test_golden.py`` (and read the diff).
"""

from __future__ import annotations

import csv
import io
import math
import os
from pathlib import Path

import pytest
from conftest import FIXTURES, OUTPUTS, REPORT_CASES, RESULTS, SEED
from ycsb_analysis.cli import EXIT_COMPLETE, EXIT_INCOMPLETE, main

GOLDEN = Path(__file__).parent / "golden"
REL_TOL = 1e-12  # far below any printed figure's precision, far above a rounding difference


def _cell_differs(got: str, want: str) -> bool:
    if got == want:
        return False
    try:
        return not math.isclose(float(got), float(want), rel_tol=REL_TOL)
    except ValueError:
        return True


def differences(got: str, want: str) -> list:
    """(line, column, got, want) of every cell that differs (floats within REL_TOL do not)."""
    a, b = list(csv.reader(io.StringIO(got))), list(csv.reader(io.StringIO(want)))
    if len(a) != len(b):
        return [("rows", len(a), len(b))]
    header = a[0] if a else []
    found = []
    for i, (ra, rb) in enumerate(zip(a, b), 1):
        if len(ra) != len(rb):
            found.append((i, "cells", len(ra), len(rb)))
            continue
        found += [(i, header[k] if k < len(header) else k, x, y)
                  for k, (x, y) in enumerate(zip(ra, rb)) if _cell_differs(x, y)]
    return found

CASES = {
    "built_report": ([RESULTS, f"cassandra={SEED / 'cassandra-insert-1-client.txt'}",
                      f"hbase={SEED / 'hbase-insert-4-clients.txt'}", "--batchsize", "hbase=100"],
                     EXIT_COMPLETE),
    "warm-s4-s1": ([FIXTURES / "warm-s4-s1"], EXIT_COMPLETE),
    "list-append": ([FIXTURES / "list-append"], EXIT_COMPLETE),
    "crashed": ([REPORT_CASES / "crashed"], EXIT_INCOMPLETE),
    "intended": ([REPORT_CASES / "intended"], EXIT_COMPLETE),
    "raw.out": ([OUTPUTS / "raw.out"], EXIT_COMPLETE),
    "timeseries.out": ([OUTPUTS / "timeseries.out"], EXIT_COMPLETE),
    "exporter-json.json": ([OUTPUTS / "exporter-json.json"], EXIT_COMPLETE),
    # (status lines without a final report: named incomplete)
    "locale-de.err": ([OUTPUTS / "locale-de.err"], EXIT_INCOMPLETE),
    "hdrhistogram_histogram.err": ([OUTPUTS / "hdrhistogram+histogram.err"], EXIT_INCOMPLETE),
}


def test_every_golden_case_is_checked():
    assert sorted(p.name for p in GOLDEN.iterdir()) == sorted(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_data_files_are_those_of_the_code_before_the_rewrite(case, tmp_path):
    args, exit_status = CASES[case]
    assert main([str(a) for a in args] + ["-o", str(tmp_path)]) == exit_status
    expected = sorted(p.name for p in (GOLDEN / case).iterdir())
    written = sorted(p.name for p in tmp_path.glob("*.csv") if p.name in {
        "summary.csv", "figures.csv", "verdicts.csv", "returns.csv", "clients.csv",
        "operations.csv", "records.csv", "status.csv", "timeseries.csv", "raw-intervals.csv",
        "raw-datapoints.csv"})
    if os.environ.get("GOLDEN_REMAKE"):
        for old in (GOLDEN / case).iterdir():
            old.unlink()
        expected = written
    assert written == expected
    for name in expected:
        got = (tmp_path / name).read_text().replace(f"{FIXTURES}/", "FIXTURES/")
        if os.environ.get("GOLDEN_REMAKE"):
            (GOLDEN / case / name).write_text(got)
        found = differences(got, (GOLDEN / case / name).read_text())
        assert not found, f"{case}/{name} differs (line, column, got, golden): {found[:5]}"


def test_a_float_differs_only_beyond_its_last_digits_or_it_is_named():
    golden = "run,df\nc,5.081675919436548\n"
    assert differences("run,df\nc,5.081675919436546\n", golden) == []
    assert differences("run,df\nc,5.0816759194\n", golden) == [
        (2, "df", "5.0816759194", "5.081675919436548")]
    assert differences("run,df\nd,5.081675919436548\n", golden) == [(2, "run", "d", "c")]
    assert differences("run,df\n", golden) == [("rows", 1, 2)]
