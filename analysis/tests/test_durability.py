"""Durability said and compared like for like (issue 46), on the kept real quickstart run
(fixtures/quickstart-s4). Its metadata.json predates the "durability" record: the report names
it as not recorded. The records added here are what the runner writes for those servers'
settings (scripts/lib/ycsbpack/phases/durability.py; scripts/tests/test_durability_record.py
checks the runner against the same settings): metadata.json is the one hand-made file."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

from conftest import FIXTURES
from ycsb_analysis import comparability
from ycsb_analysis.cli import build_report_outcome

QUICKSTART = FIXTURES / "quickstart-s4" / "qs-main"
# the runner's records for the quickstart's servers: Cassandra's periodic commit log (10 s), the
# standalone HBase's WAL on its local filesystem
PERIODIC = {"database": "cassandra", "survives": "a server process crash",
            "acknowledged_write": "in the commit log, fsynced every 10000ms (periodic): a "
            "machine crash can lose up to 10000ms of acknowledged writes",
            "settings": {"commitlog_sync": "periodic", "commitlog_sync_period": "10000ms",
                         "durable_writes": "true"}, "default": True}
BATCH = {"database": "cassandra", "survives": "a machine crash",
         "acknowledged_write": "in the commit log, fsynced before the acknowledgement (batch)",
         "settings": {"commitlog_sync": "batch", "commitlog_sync_period": "",
                      "durable_writes": "true"}, "default": False}
LOCAL_WAL = {"database": "hbase", "survives": "nothing beyond the server process",
             "acknowledged_write": "in the WAL (SYNC_WAL) on the local filesystem, which cannot "
             "hflush: the edit is in the region server's buffers",
             "wal": "file: the local filesystem, which cannot hflush",
             "settings": {"hbase.durability": "USE_DEFAULT", "table DURABILITY": "USE_DEFAULT",
                          "hbase.wal.hsync": "false", "WAL directory": "file:///..."},
             "default": True}


def _rows(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _recorded(tmp_path: Path, name: str, cassandra: dict, hbase: dict) -> Path:
    """A copy of the quickstart's results whose phases record these durabilities."""
    copy = tmp_path / name
    shutil.copytree(QUICKSTART, copy)
    for database, record in (("cassandra", cassandra), ("hbase", hbase)):
        for meta in copy.glob(f"{database}-*/metadata.json"):
            m = json.loads(meta.read_text())
            meta.write_text(json.dumps(m | {"durability": record}))
    return copy


def _what_ran(report: Path) -> str:
    return report.read_text().split("<h2>What ran</h2>")[1]


def test_metadata_from_before_the_record_is_read_and_named_not_recorded(tmp_path):
    out = build_report_outcome([str(QUICKSTART)], tmp_path / "report")
    assert out.complete
    assert _what_ran(out.report).count(comparability.NOT_RECORDED) == 4  # each trial's phase
    assert {v["marks"] for v in _rows(tmp_path / "report" / "verdicts.csv")} == {""}


def test_each_databases_own_default_durability_is_listed_in_what_ran_and_marks_nothing(tmp_path):
    results = _recorded(tmp_path, "defaults", PERIODIC, LOCAL_WAL)
    out = build_report_outcome([str(results)], tmp_path / "report")
    verdicts = _rows(tmp_path / "report" / "verdicts.csv")
    assert verdicts and {v["marks"] for v in verdicts} == {""}
    said = [d for d in _rows(tmp_path / "report" / "comparability.csv")
            if d["fact"].startswith("durability")]
    assert {(d["fact"], d["inherent"], d["mark"]) for d in said} == {
        (comparability.SURVIVES, "True", ""), (comparability.DURABILITY, "True", "")}
    what_ran = _what_ran(out.report)
    assert "fsynced every 10000ms (periodic)" in what_ran
    assert "on the local filesystem, which cannot hflush" in what_ran
    assert comparability.NOT_RECORDED not in what_ran


def test_a_durability_the_user_set_on_one_side_marks_every_verdict_once(tmp_path):
    results = _recorded(tmp_path, "batch", BATCH, LOCAL_WAL)
    out = build_report_outcome([str(results)], tmp_path / "report")
    verdicts = _rows(tmp_path / "report" / "verdicts.csv")
    assert verdicts and {v["marks"] for v in verdicts} == {"1"}
    marked = [d for d in _rows(tmp_path / "report" / "comparability.csv") if d["mark"]]
    assert [(d["fact"], d["value_a"], d["value_b"]) for d in marked] == [
        (comparability.SURVIVES, "a machine crash (set)",
         "nothing beyond the server process (the database's default)")]
    assert out.report.read_text().count(f"[1] not like for like: {comparability.SURVIVES} a "
                                        "machine crash (set) (cassandra)") == 1


def test_commitlog_sync_periodic_against_batch_of_one_database_is_marked(tmp_path):
    """The same database in two sessions (current vs --baseline): any difference in durability
    is the user's."""
    current = _recorded(tmp_path, "current", BATCH, LOCAL_WAL)
    baseline = _recorded(tmp_path, "baseline", PERIODIC, LOCAL_WAL)
    build_report_outcome([str(current)], tmp_path / "report", baseline=[str(baseline)])
    compared = _rows(tmp_path / "report" / "comparison.csv")
    cassandra = [c for c in compared if c["database"] == "cassandra"]
    hbase = [c for c in compared if c["database"] == "hbase"]
    assert cassandra and all(c["marks"] for c in cassandra)
    assert hbase and not any(c["marks"] for c in hbase)
    facts = {d["fact"] for d in _rows(tmp_path / "report" / "comparability.csv")
             if d["comparison"] == "current vs baseline" and d["mark"]}
    assert {comparability.SURVIVES, comparability.DURABILITY} <= facts
