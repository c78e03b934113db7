"""The checks of S2's fault phase (fault_phase.py), from the three phases' Return= counts.

Cassandra (RF 3, logged batches at CL ALL): a batch that returned OK is acknowledged, all its
keys. UNAVAILABLE means the coordinator refused it before any replica wrote anything (Cassandra
checks live replicas first, for logged batches before writing the batch log); any other failure
may be applied on the live replicas: WRITE_TIMEOUT (a crashed node the peers have not yet marked
down, ~19 s), or ERROR for a batch whose coordinator was killed while it ran (seen: 2 such
batches, both stored). So with A acknowledged keys and M keys of batches that failed otherwise
than UNAVAILABLE: found >= A (no acknowledged write is missing) and found <= A + M (nothing
appears that was never written); with M = 0, found == A exactly.

HBase (table.batch of Puts): each row succeeds or fails on its own, so the acknowledged keys are
the OK records of BATCH_INSERT-RECORDS. A row that failed (a timeout, retries exhausted while its
region was unassigned) may still have been written, so the bound from above is the keys tried:
found >= A must hold; found - A is reported as "failed but stored".
"""
from typing import Dict, List, Tuple

WRITE, READ, READ_BACK = "BATCH_INSERT", "BATCH_READ", "READ"
WRITE_RECORDS = WRITE + "-RECORDS"
UNAVAILABLE, TIMEOUTS = "UNAVAILABLE", ("WRITE_TIMEOUT", "CLIENT_TIMEOUT")
# A node that is stopping (SIGTERM) answers the requests it coordinates with "Server is shutting
# down" (OVERLOADED), seen once in ~500 reads here; the driver does not retry non-idempotent
# statements on another node. Tolerated for at most 1% of the reads while the node goes down.
SHUTDOWN_ANSWER, SHUTDOWN_SHARE = "OVERLOADED", 0.01
# A crashed node (SIGKILL) fails the requests it was coordinating at that moment (the driver
# does not retry non-idempotent statements): at most one per client thread, plus reads its
# peers still sent it before they marked it down. Tolerated for at most 5% of the reads.
CRASH_READ_SHARE = 0.05


def _share_ok(counts: Dict[str, int], allowed_failures: float) -> bool:
    total = sum(counts.values())
    return counts.get("OK", 0) > 0 and counts.get("OK", 0) >= (1 - allowed_failures) * total


def _read_back(back: dict, tried: int) -> Tuple[int, int, bool]:
    found = back.get(READ_BACK, {}).get("OK", 0)
    missing = back.get(READ_BACK, {}).get("NOT_FOUND", 0)
    complete = found + missing == tried and set(back.get(READ_BACK, {})) <= {"OK", "NOT_FOUND"}
    return found, missing, complete


def judge_cassandra(down: dict, up: dict, back: dict, batch: int, tried: int,
                    node_failure: str = "drain", **_) -> dict:
    w1, r1, w2, r2 = (down.get(WRITE, {}), down.get(READ, {}), up.get(WRITE, {}), up.get(READ, {}))
    acked = (w1.get("OK", 0) + w2.get("OK", 0)) * batch
    timed_out = sum(w1.get(t, 0) + w2.get(t, 0) for t in TIMEOUTS) * batch
    maybe = sum(n for w in (w1, w2) for s, n in w.items() if s not in ("OK", UNAVAILABLE)) * batch
    found, missing, complete = _read_back(back, tried)
    if node_failure == "crash":
        reads = ("reads at CL ONE kept succeeding while the node was down (at most 5% failed: "
                 "requests the crashed node was coordinating)", _share_ok(r1, CRASH_READ_SHARE))
    else:
        reads = ("reads at CL ONE kept succeeding while the node was down (at most 1% OVERLOADED "
                 "answers of the stopping node)",
                 r1.get("OK", 0) > 0 and set(r1) <= {"OK", SHUTDOWN_ANSWER}
                 and r1.get(SHUTDOWN_ANSWER, 0) <= SHUTDOWN_SHARE * sum(r1.values()))
    checks = [
        ("writes at CL ALL failed while the node was down (UNAVAILABLE or a timeout)",
         w1.get(UNAVAILABLE, 0) + sum(w1.get(t, 0) for t in TIMEOUTS) > 0),
        ("writes at CL ALL succeeded before the node went down", w1.get("OK", 0) > 0),
        reads,
        ("writes all succeeded after the restart", w2.get("OK", 0) > 0 and set(w2) == {"OK"}),
        ("reads all succeeded after the restart", set(r2) <= {"OK"}),
        ("the read-back read every key tried", complete),
        ("no acknowledged write is missing (found >= acknowledged)", found >= acked),
        ("nothing was found that was never written (found <= acknowledged + failed otherwise "
         "than UNAVAILABLE)", found <= acked + maybe),
    ]
    lines = [f"writes while node down: {w1}; reads: {r1}",
             f"writes after restart: {w2}; reads: {r2}",
             f"keys tried {tried}, acknowledged {acked}, timed out {timed_out}, failed otherwise "
             f"than UNAVAILABLE {maybe}; read back: found {found}, not found {missing}"]
    return {"batchsize": batch, "keys_tried": tried, "keys_acknowledged": acked,
            "keys_timed_out": timed_out, "keys_maybe_applied": maybe, "keys_found": found,
            "keys_not_found": missing, "exact": maybe == 0 and found == acked,
            "node_down": {"writes": w1, "reads": r1}, "restarted": {"writes": w2, "reads": r2},
            "read_back": back.get(READ_BACK, {}), "checks": checks, "lines": lines}


def judge_hbase(down: dict, up: dict, back: dict, batch: int, tried: int,
                unavailability: dict = None, node_failure: str = "crash", **_) -> dict:
    w1, r1, w2, r2 = (down.get(WRITE, {}), down.get(READ, {}), up.get(WRITE, {}), up.get(READ, {}))
    rec1, rec2 = down.get(WRITE_RECORDS, {}), up.get(WRITE_RECORDS, {})
    acked = rec1.get("OK", 0) + rec2.get("OK", 0)
    failed_records = sum(rec1.values()) + sum(rec2.values()) - acked
    found, missing, complete = _read_back(back, tried)
    recovered = (unavailability or {}).get("recovered_while_down", False)
    failed_ops = sum(n for s, n in w1.items() if s != "OK") + sum(n for s, n in r1.items()
                                                                  if s != "OK")
    checks = [("writes succeeded before the node went down", w1.get("OK", 0) > 0)]
    if node_failure == "crash":
        # a drained region server closes its regions first and the master moves them within
        # the client's retries: failures are possible then, not required
        checks.append(("operations failed while the dead server's regions were unassigned",
                       failed_ops > 0))
    checks += [
        ("writes and reads succeeded again while the node was still down (its regions "
         "reassigned to the live region servers)", recovered),
        ("writes all succeeded after the restart", w2.get("OK", 0) > 0 and set(w2) == {"OK"}),
        ("reads all succeeded after the restart", set(r2) <= {"OK"}),
        ("the read-back read every key tried", complete),
        ("no acknowledged write is missing (found >= acknowledged)", found >= acked),
        ("nothing was found that was never tried (found <= keys tried)", found <= tried),
    ]
    lines = [f"writes while node down: {w1} (rows {rec1}); reads: {r1}",
             f"writes after restart: {w2} (rows {rec2}); reads: {r2}",
             f"keys tried {tried}, acknowledged {acked}, failed {failed_records}; read back: "
             f"found {found} ({found - acked} of them failed but stored), not found {missing}"]
    return {"batchsize": batch, "keys_tried": tried, "keys_acknowledged": acked,
            "keys_failed": failed_records, "keys_failed_but_stored": found - acked,
            "keys_found": found, "keys_not_found": missing, "exact": found == acked,
            "node_down": {"writes": w1, "write_rows": rec1, "reads": r1},
            "restarted": {"writes": w2, "write_rows": rec2, "reads": r2},
            "read_back": back.get(READ_BACK, {}), "checks": checks, "lines": lines}


def finish(verdict: dict) -> dict:
    """Turns the (what, ok) check list into {what: ok}, the failed ones and the printed lines."""
    checks: List[Tuple[str, bool]] = verdict["checks"]
    verdict["lines"] += [("OK   " if ok else "FAIL ") + what for what, ok in checks]
    verdict["checks"] = {what: bool(ok) for what, ok in checks}
    verdict["failed"] = [what for what, ok in checks if not ok]
    return verdict
