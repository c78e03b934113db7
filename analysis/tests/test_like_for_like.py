"""Like for like that means something (issue 46), end to end on a real quickstart run
(fixtures/quickstart-s4): what differs because Cassandra and HBase are compared is listed once in
"What ran" and never marks a verdict; a setting the user controls that differs between the two
sides marks every verdict of the phase, explained once below the verdicts and in
comparability.csv."""

import csv
import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES
from ycsb_analysis.cli import build_report_outcome

QUICKSTART = FIXTURES / "quickstart-s4" / "qs-main"


def _rows(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _changed(tmp_path: Path, database: str, change) -> Path:
    """A copy of the quickstart's results with ``change(metadata)`` applied to every trial of
    ``database``."""
    copy = tmp_path / "qs-main"
    shutil.copytree(QUICKSTART, copy)
    for meta in copy.glob(f"{database}-*/metadata.json"):
        m = json.loads(meta.read_text())
        change(m)
        meta.write_text(json.dumps(m))
    return copy


def test_the_quickstarts_verdicts_carry_no_mark_and_its_client_libraries_are_listed_once(
        tmp_path):
    out = build_report_outcome([str(QUICKSTART)], tmp_path / "report")
    verdicts = _rows(tmp_path / "report" / "verdicts.csv")
    assert verdicts and {v["marks"] for v in verdicts} == {""}
    assert not any("like for like" in v["verdict"].lower() for v in verdicts)
    differences = _rows(tmp_path / "report" / "comparability.csv")
    jackson = [d for d in differences if d["fact"] == "client library jackson-core"]
    assert [(d["value_a"], d["value_b"], d["inherent"], d["mark"]) for d in jackson] == [
        ("2.20.1", "2.12.7", "True", "")]
    assert {d["inherent"] for d in differences} == {"True"}
    what_ran = out.report.read_text().split("<h2>What ran</h2>")[1]
    assert what_ran.count("client library jackson-core") == 1
    assert "footnote" not in out.report.read_text()


@pytest.mark.parametrize("what, change, fact, shown", [
    ("a client heap", lambda m: m["provenance"].update(jvm_flags=["-Xmx2g"]), "JVM flags",
     "JVM flags -Xmx2g (cassandra) vs (none) (hbase)"),
    ("a record count", lambda m: m["properties"].update(recordcount="40000"),
     "workload property recordcount",
     "workload property recordcount 40000 (cassandra) vs 20000 (hbase)"),
])
def test_a_setting_the_user_controls_that_differs_marks_every_verdict_once(
        tmp_path, what, change, fact, shown):
    results = _changed(tmp_path, "cassandra", change)
    out = build_report_outcome([str(results)], tmp_path / "report")
    verdicts = _rows(tmp_path / "report" / "verdicts.csv")
    assert verdicts and {v["marks"] for v in verdicts} == {"1"}, what
    assert all(v["verdict"].endswith("; not like for like [1]") for v in verdicts)
    marked = [d for d in _rows(tmp_path / "report" / "comparability.csv") if d["mark"]]
    assert [(d["fact"], d["mark"], d["inherent"]) for d in marked] == [(fact, "1", "False")]
    html = out.report.read_text()
    assert html.count(f"[1] not like for like: {shown}") == 1


def test_a_difference_the_user_meant_is_named_as_expected_not_marked(tmp_path):
    results = _changed(tmp_path, "cassandra",
                       lambda m: m["provenance"].update(jvm_flags=["-Xmx2g"]))
    build_report_outcome([str(results)], tmp_path / "report", expected=["JVM flags"])
    verdicts = _rows(tmp_path / "report" / "verdicts.csv")
    assert verdicts and {v["marks"] for v in verdicts} == {""}
    flags = [d for d in _rows(tmp_path / "report" / "comparability.csv")
             if d["fact"] == "JVM flags"]
    assert [(d["expected"], d["mark"]) for d in flags] == [("True", "")]
