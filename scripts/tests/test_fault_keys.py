"""The lost keys of a fault from its key logs (scenarios/fault_keys.py), no server: logs in the
format binding-common's KeyLog writes (KeyLogTest checks that side)."""
from pathlib import Path

import pytest
from ycsbpack.core.errors import ScriptError
from ycsbpack.scenarios import fault_keys


def log(d: Path, *lines: str) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    (d / fault_keys.KEY_LOG).write_text("".join(line + "\n" for line in lines))
    return d


def test_a_lost_key_is_one_not_found_that_every_write_phase_acknowledged(tmp_path):
    # keys user0-user9 tried in batches of 2; the batch user2 user3 timed out but landed (found);
    # user4 user5 were refused and are not there; user8 was acknowledged and is not there
    # (the traffic's reads of loaded keys fail too: not writes; seen on Cassandra's pause)
    down = log(tmp_path / "down", "BATCH_INSERT\tfailed\tWRITE_TIMEOUT\tuser2 user3",
               "BATCH_READ\tfailed\tCLIENT_TIMEOUT\tuser8 user0",
               "BATCH_INSERT\tfailed\tUNAVAILABLE\tuser4 user5")
    up = log(tmp_path / "up")
    back = log(tmp_path / "back", "BATCH_READ\tmissing\tNOT_FOUND\tuser4 user5",
               "BATCH_READ\tmissing\tNOT_FOUND\tuser8")
    keys = fault_keys.lost([down, up], back)
    assert keys == {"judged": True, "lost": 1, "lost_keys": ["user8"], "not_acknowledged": 4,
                    "in_unnamed_batches": 0, "not_found": 3, "read_back_failed": 0}
    # what a count says of the same keys: 6 acknowledged, 8 found (the 2 timed out landed):
    # "found >= acknowledged", nothing lost
    acknowledged, found = 10 - 4, 10 - 3
    assert found >= acknowledged


def test_the_judgement_names_the_keys_and_checks_the_logs_against_the_counts(tmp_path):
    down = log(tmp_path / "down", "BATCH_INSERT\tunknown\tERROR\tuser10 user9")
    back = log(tmp_path / "back", "BATCH_READ\tmissing\tNOT_FOUND\tuser12 user100 user9")
    verdict = {"acknowledged_writes_lost": 0, "lines": [], "checks": []}
    fault_keys.judge(verdict, fault_keys.lost([down], back), not_found=3, not_acknowledged=4)
    assert verdict["acknowledged_writes_lost"] == 2
    assert verdict["keys"]["lost_keys"] == ["user12", "user100"], "in key order"
    assert verdict["keys"]["in_unnamed_batches"] == 2
    assert verdict["lines"] == ["key by key (key logs): 2 keys not acknowledged, 3 not found by "
                                "the read-back, 2 of these acknowledged (lost): user12 user100"]
    assert dict(verdict["checks"]) == {
        "the key logs name every key the read-back did not find (3 of 3)": True,
        "the key logs name every write not acknowledged (2 of 4)": False,
        "no acknowledged key is missing, key by key": False}


def test_a_missing_log_is_not_judged_and_fails_its_check(tmp_path):
    back = log(tmp_path / "back")
    keys = fault_keys.lost([tmp_path / "down"], back)
    assert not keys["judged"] and str(tmp_path / "down" / fault_keys.KEY_LOG) in keys["why"]
    verdict = {"acknowledged_writes_lost": 0, "lines": [], "checks": []}
    fault_keys.judge(verdict, keys, not_found=0, not_acknowledged=0)
    assert verdict["checks"] == [("the key logs were written (ycsbpack.keylog)", False)]


def test_a_line_that_is_not_a_key_log_line_is_named(tmp_path):
    bad = log(tmp_path / "bad", "BATCH_READ\tmissing\tNOT_FOUND\tuser1", "[OVERALL], RunTime")
    with pytest.raises(ScriptError, match=r"keys-not-done.tsv, line 2: not a key log line"):
        fault_keys.read(bad / fault_keys.KEY_LOG, reads=True)
