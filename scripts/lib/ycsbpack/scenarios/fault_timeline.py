"""What the fault phase's client saw over time (when the dead server's regions came back, on
HBase: HBase.fault_recovery in databases/hbase.py).

The client's status lines (status.interval=1) carry per-interval counts: `[BATCH_INSERT:
Count=n, ...]` for the batches that succeeded and `[BATCH_INSERT-FAILED: Count=n, ...]` for the
ones that did not (binding-common measures failed batches under <OP>-FAILED, as YCSB's DBWrapper
does for single operations); with measurement.interval=both, `[Intended-BATCH_INSERT: ...,
99=v, ...]` the intended latency of the batches that succeeded (from the -target schedule: a
batch that waited behind a stalled one counts its wait). Times are the status lines' own
wall-clock stamps, in seconds after the node went down. The lines are read with the analysis's
line formats (standard library only, as this module is); the analysis package draws the same
data as charts.
"""
from datetime import datetime, timezone
from pathlib import Path
from typing import List, Optional

from ycsb_analysis.readers.line_formats import hdr_measurements, status_line

OPERATIONS = ("BATCH_INSERT", "BATCH_READ")
INTENDED = "Intended-"  # YCSB's prefix of intended latency (measurement.interval=both)


def first_operations_seen(status_file: Path) -> bool:
    text = status_file.read_text(errors="replace") if status_file.exists() else ""
    return any(s.operations > 0 for s in map(status_line, text.splitlines()) if s)


def after_first_operations(status_file: Path, cancel, seconds: float) -> bool:
    """Waits until the client's status stream first counts operations, then `seconds` more;
    False when `cancel` (a threading.Event) is set first."""
    while not cancel.wait(0.5):
        if first_operations_seen(status_file):
            return not cancel.wait(seconds)
    return False


def timeline(status_file: Path) -> List[dict]:
    """[{"time": UTC ISO, "ok": {op: n}, "failed": {op: n}, "intended_p99_us": {op: µs}}] per
    status line of the client (an operation without an intended p99 in that second is left
    out of it); "cleanup": n on the lines where its threads ended (YCSB's CLEANUP)."""
    rows = []
    for line in status_file.read_text(errors="replace").splitlines():
        status = status_line(line)
        if not status:
            continue
        measured = {m.metric: m for m in hdr_measurements(status.rest)}
        counts = {metric: m.count for metric, m in measured.items()}
        utc = status.time.astimezone(timezone.utc)  # the client's local time zone: this machine's
        row = {"time": utc.isoformat(timespec="milliseconds"),
               "ok": {op: counts.get(op, 0) for op in OPERATIONS},
               "failed": {op: counts.get(op + "-FAILED", 0) for op in OPERATIONS},
               "intended_p99_us": {op: p99 for op in OPERATIONS
                                   if (p99 := _p99(measured.get(INTENDED + op))) is not None}}
        if counts.get("CLEANUP"):  # the client's threads ending: the phase is over
            row["cleanup"] = counts["CLEANUP"]
        rows.append(row)
    return rows


def _p99(m) -> Optional[int]:
    """The 99th percentile a status line printed for one metric (None: no operation, or none
    printed)."""
    if m is None or not m.count:
        return None
    return next((v for q, v in m.percentiles if q == 99.0), None)


def _seconds_after(iso: str, t0: datetime) -> float:
    return round((datetime.fromisoformat(iso) - t0).total_seconds(), 1)


def unavailability(rows: List[dict], node_down: Optional[str]) -> dict:
    """Per operation: first and last failed interval after the node went down (seconds after it,
    at the status interval's resolution), and whether operations succeeded again after the last
    failure while the node was still down."""
    if not node_down:
        return {"node_down": None}
    t0 = datetime.fromisoformat(node_down)
    after = [r for r in rows if datetime.fromisoformat(r["time"]) > t0]
    result = {"node_down": node_down, "resolution_s": 1}
    recovered = bool(after)
    for op in OPERATIONS:
        failed = [r for r in after if r["failed"][op]]
        first = _seconds_after(failed[0]["time"], t0) if failed else None
        last = _seconds_after(failed[-1]["time"], t0) if failed else None
        later = [r for r in after if failed and r["time"] > failed[-1]["time"]] if failed else after
        ok_later = sum(r["ok"][op] for r in later)
        quiet = [r for r in after if not r["ok"][op] and not r["failed"][op]]
        result[op] = {"first_failure_s": first, "last_failure_s": last,
                      "failed": sum(r["failed"][op] for r in after),
                      "ok_after_last_failure": ok_later,
                      "intervals_without_answers": len(quiet)}
        recovered = recovered and ok_later > 0
    result["recovered_while_down"] = recovered
    return result


def recovered_for(rows: List[dict], node_down: str, quiet_s: float, failures_needed: bool) -> bool:
    """True once every operation has succeeded again after its last failure since `node_down`,
    and no operation has failed for `quiet_s` seconds (the client's newest status line counts);
    with `failures_needed` (a crash: the dead server's regions must have been unavailable), not
    before some operation failed."""
    u = unavailability(rows, node_down)
    lasts = [u[op]["last_failure_s"] for op in OPERATIONS if u[op]["last_failure_s"] is not None]
    if not u["recovered_while_down"] or (failures_needed and not lasts):
        return False
    newest = _seconds_after(rows[-1]["time"], datetime.fromisoformat(node_down))
    return newest - max(lasts, default=0.0) >= quiet_s


def describe(verdict: dict) -> List[str]:
    u = verdict.get("client_unavailability") or {}
    if not u.get("node_down"):
        return ["the node was never taken down (the client did not start in time?)"]
    lines = []
    for op in OPERATIONS:
        o = u[op]
        if o["first_failure_s"] is None:
            lines.append(f"{op}: no failure after the node went down")
        else:
            lines.append(
                f"{op}: failures from +{o['first_failure_s']} s to +{o['last_failure_s']} s "
                f"after the node went down ({o['failed']} failed), "
                f"{o['ok_after_last_failure']} OK after the last failure"
            )
    regions = verdict.get("regions")
    if regions and regions.get("regions"):
        lines.append(
            f"HBase: {len(regions['regions'])} regions of the dead server reopened "
            f"{regions['min_s']}-{regions['max_s']} s after it went down (median "
            f"{regions['median_s']} s); crash noticed after {regions['crash_noticed_s']} s"
        )
    return lines

