"""Warm trials (run-scenario --trial-servers warm): every trial of a side ran on one server
lifetime, so the spread between them leaves out what differs from one lifetime to the next; the
verdict says so. On a real quickstart run (fixtures/quickstart-s4, fresh servers), as it is and
with its trials' start_state marked warm as the runner marks them (runner/saved_data.py)."""

import csv
import json
import shutil

from conftest import FIXTURES
from ycsb_analysis.cli import build_report_outcome

QUICKSTART = FIXTURES / "quickstart-s4" / "qs-main"
WARM = ", on one server lifetime a side (warm trials)"


def _primary(report) -> str:
    with open(report / "verdicts.csv", newline="") as f:
        (row,) = [r for r in csv.DictReader(f)
                  if r["primary"] == "True" and r["phase"].startswith("update-heavy")]
    return row["verdict"]


def test_fresh_trials_verdict_names_no_server_lifetime(tmp_path):
    build_report_outcome([str(QUICKSTART)], tmp_path / "report")
    verdict = _primary(tmp_path / "report")
    assert "paired trials" in verdict and WARM not in verdict


def test_warm_trials_verdict_says_its_spread_is_within_one_server_lifetime_a_side(tmp_path):
    copy = tmp_path / "qs-main"
    shutil.copytree(QUICKSTART, copy)
    for meta in copy.glob("*-update-heavy-*/metadata.json"):
        m = json.loads(meta.read_text())
        m["start_state"]["servers"] = "warm"
        meta.write_text(json.dumps(m))
    build_report_outcome([str(copy)], tmp_path / "report")
    verdict = _primary(tmp_path / "report")
    assert "paired trials" in verdict and f"{WARM})" in verdict, verdict
