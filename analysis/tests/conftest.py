"""Shared fixture paths. Every file under fixtures/ is real YCSB 0.17.0 output (remade by
fixtures/make_fixtures.sh) or a verbatim quote of seed 001; only metadata.json is hand-made."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis.configuration import set_hypothesis_home_dir

# Keep Hypothesis' working files inside analysis/ (git-ignored there), not in the repo root.
set_hypothesis_home_dir(str(Path(__file__).parent / ".hypothesis"))

FIXTURES = Path(__file__).parent / "fixtures"
OUTPUTS = FIXTURES / "outputs"
SEED = FIXTURES / "seed001"
RESULTS = FIXTURES / "results"


def phase_dir(phase: str) -> Path:
    """The fixture results directory of one phase (the timestamp differs per regeneration)."""
    (found,) = RESULTS.glob(f"fixture-sweep/*/{phase}")
    return found


@pytest.fixture(scope="session")
def built_report(tmp_path_factory):
    """The full report of the fixture results plus the seed's two quotes, built once."""
    from ycsb_analysis.cli import main

    out = tmp_path_factory.mktemp("report")
    status = main([str(RESULTS), f"cassandra={SEED / 'cassandra-insert-1-client.txt'}",
                   f"hbase={SEED / 'hbase-insert-4-clients.txt'}", "--batchsize", "hbase=100", "-o", str(out)])
    assert status == 0
    return out
