"""What the checks of S2's fault phase (scenarios/fault_phase.py) share across databases: the
operations they count, the read-back's figures and the verdict's final form. Each database
judges its own result (Database.judge_fault: what it promises for an acknowledged write).
"""
from typing import List, Tuple

WRITE, READ = "BATCH_INSERT", "BATCH_READ"
# the read-back's batch reads count each key read under <BATCH_READ>-RECORDS: OK when found,
# NOT_FOUND when not (scenarios/fault_phase.read_back_phase)
READ_BACK = READ + "-RECORDS"
WRITE_RECORDS = WRITE + "-RECORDS"


def read_back(back: dict, tried: int) -> Tuple[int, int, bool]:
    """(found, not found, whether every key tried was read exactly once) of the read-back."""
    found = back.get(READ_BACK, {}).get("OK", 0)
    missing = back.get(READ_BACK, {}).get("NOT_FOUND", 0)
    complete = found + missing == tried and set(back.get(READ_BACK, {})) <= {"OK", "NOT_FOUND"}
    return found, missing, complete


def finish(verdict: dict) -> dict:
    """Turns the (what, ok) check list into {what: ok}, the failed ones and the printed lines."""
    checks: List[Tuple[str, bool]] = verdict["checks"]
    verdict["lines"] += [("OK   " if ok else "FAIL ") + what for what, ok in checks]
    verdict["checks"] = {what: bool(ok) for what, ok in checks}
    verdict["failed"] = [what for what, ok in checks if not ok]
    return verdict
