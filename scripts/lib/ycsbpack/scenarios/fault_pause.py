"""S2's pause fault: node N stopped (SIGSTOP) and resumed (SIGCONT) twice under the fault
traffic, first for less than the database's failure detection, then for more.

A paused JVM keeps its sockets open and answers nothing: a long GC pause, a frozen VM. On
Cassandra the node is one JVM; the peers' phi accrual detector convicts it after about
phi_convict_threshold x ln 10 heartbeat intervals (8: ~18 s) and marks it up when its gossip
resumes. On HBase node N is region server N and DataNode N; the master declares the region
server dead when its ZooKeeper session expires (6 s on the local cluster), reassigns its regions,
and the region server, once it runs again, is told so (YouAreDeadException) and aborts: it is
fenced and must be restarted. The runner restarts what the fault left down before the read-back.

Three phases, with their own results directories:
  fault-pause-probe      the fault traffic unthrottled (fault_phase.offered_rate): the fault
                         phase offers half the rate it achieved
  fault-pause            the fault traffic (fault_phase.traffic_phase); `pre` s after the
                         client's first operations the short pause, `gap` s later the long one;
                         the phase ends once every operation succeeded again for
                         RECOVERED_QUIET_S after the long pause (or at a bound)
  fault-pause-read-back  every key the phase tried to write, read once
The verdict (fault-verdict-<database>-pause.json): what the database did about each pause
(Database.pause_effects: its logs and processes), the measures of each pause's window
(fault_measures.py), every operation ok / failed / indeterminate, and the acknowledged-write
check of the crash.
"""
import threading
from pathlib import Path
from typing import List, Optional

from ..databases import fault_checks
from ..phases.phase_runner import run_phase
from . import fault_measures, fault_timeline
from .fault_phase import (
    PROBE_S,
    RECOVERED_QUIET_S,
    START_ALLOWANCE_S,
    keys_tried,
    keys_used,
    offered_line,
    offered_rate,
    read_back_phase,
    restore_node,
    traffic_phase,
    utc_now,
    verdict_file,
    write_verdict,
)
from .report_counts import phase_return_counts
from .scenario_plan import Composite, Context

# seconds: (before the short pause, short pause, between the pauses, long pause, bound after
# the long pause). The same for both databases: the short one below either's failure detection
# (HBase 6 s, Cassandra ~18 s), the long one above both.
PAUSES = {"cluster": (15, 4, 20, 40, 120), "local": (10, 3, 15, 30, 120),
          "ci": (5, 3, 8, 25, 60)}


def pause_step(ctx: Context) -> Composite:
    pre, short, gap, long_, after = PAUSES[ctx.scale]
    db = ctx.database
    node = db.node_name(db.server.nodes)
    return Composite(
        "fault-pause", f"{node} paused (SIGSTOP, then SIGCONT) for {short} s, {pre} s after the "
                       f"first operations of {db.fault_traffic} (at half the rate a probe of it "
                       f"just achieved), and {gap} s later for {long_} s; "
                       f"restarted if it was fenced; read-back of every key",
        lambda first_index: run_pause(ctx, first_index, ctx.out_dir),
        phases=3,
        estimate_s=PROBE_S[ctx.scale] + pre + short + gap + long_ + 20 + db.fault_overhead_s)


def missing(db, node: int, scale: str) -> Optional[str]:
    """What the pause fault needs and does not have here (None: nothing): the node's processes
    to signal, and pauses on either side of the database's failure detection."""
    why = db.pause_refusal(node)
    if why:
        return why
    _, short, _, long_, _ = PAUSES[scale]
    detection = db.failure_detection()
    if not short < detection["seconds"] < long_:
        return (f"the pauses ({short} s, {long_} s) do not lie on either side of {db.title}'s "
                f"failure detection here ({detection['how']})")
    return None


def skipped(db, fault: str, why: str, path: Path, repeat: int = 0) -> dict:
    verdict = {"database": db.name, "fault": fault, "repeat": repeat, "skipped": why, "checks": [],
               "lines": [f"{fault}: skipped: {why}"]}
    return write_verdict(verdict, path)


def run_pause(ctx: Context, first_index: int, out_dir: Path) -> dict:
    db = ctx.database
    node = db.server.nodes if db.server is not None else 0
    path = verdict_file(out_dir, db.name, "pause", ctx.repeat)
    why = missing(db, node, ctx.scale)
    if why:
        return skipped(db, "pause", why, path, ctx.repeat)
    pre, short, gap, long_, after = PAUSES[ctx.scale]
    ready, layout = db.ready_for_fault(node)
    detection = db.failure_detection()
    files = ctx.files(["fault"], [f"{db.name}-fault"])
    props = ctx.merged(files)
    batch = int(props["batchsize"])
    offered = offered_rate(ctx, files, "fault-pause-probe", first_index, out_dir)
    start = offered["first_key"]   # the pause phase's keys: after the probe's
    stop_file = out_dir / f"fault-pause-{db.name}.stop"
    stop_file.unlink(missing_ok=True)
    phase = traffic_phase(ctx, files, "fault-pause", first_index + 1, start,
                          START_ALLOWANCE_S + pre + short + gap + long_ + after,
                          {"ycsbpack.stopfile": str(stop_file)}, target=offered["target"])
    status = out_dir / phase.directory / "client-0.err"
    cancel = threading.Event()
    pauses: List[dict] = []
    events: dict = {}
    driver = threading.Thread(target=_pause_when_running, daemon=True,
                              args=(db, node, status, (pre, short, gap, long_), cancel, pauses,
                                    events, stop_file))
    driver.start()
    try:
        phase_dir = run_phase(phase, out_dir)
    finally:
        cancel.set()
        driver.join()  # it resumes the node whatever happened
        stop_file.unlink(missing_ok=True)
    effects = db.pause_effects(node, pauses)
    restore_node(db, node, events)
    if "client_recovered" not in events:
        db.server.wait_all_up()
    counts = phase_return_counts(phase_dir)
    tried = keys_tried(counts, batch)
    keys_used(db, start + tried)
    back = read_back_phase(ctx, files, "fault-pause-read-back", first_index + 2, tried, start)
    back_counts = phase_return_counts(run_phase(back, out_dir))

    acked, maybe = db.write_keys(counts, batch)
    found, not_found, complete = fault_checks.read_back(back_counts, tried)
    lost = max(0, acked - found)
    timeline = fault_timeline.timeline(status)
    measured = fault_measures.measures(
        timeline, [{"start": p["paused"], "resumed": p["resumed"], "length_s": p["length_s"]}
                   for p in pauses])
    outcomes = db.fault_outcomes(counts)
    checks = [(f"both pauses happened ({short} s and {long_} s)", len(pauses) == 2),
              *effects["checks"],
              ("the read-back read every key tried", complete),
              ("no acknowledged write is missing (found >= acknowledged)", found >= acked),
              ("nothing was found that was never written (found <= acknowledged + "
               "indeterminate)", found <= acked + maybe)]
    lines = [*ready, offered_line(offered), f"failure detection: {detection['how']}",
             *(fault_measures.line("pause", f"{m['length_s']} s of {db.node_name(node)}", m,
                                   lost, measured["pre_fault"]) for m in measured["faults"]),
             *effects["lines"],
             "operations (ok / failed / indeterminate): " + "; ".join(
                 f"{op} {o['ok']} / {o['failed']} / {o['indeterminate']}"
                 for op, o in sorted(outcomes.items())),
             f"keys tried {tried}, acknowledged {acked}, indeterminate {maybe}; read back: found "
             f"{found}, not found {not_found}"]
    verdict = {"database": db.name, "fault": "pause", "repeat": ctx.repeat, "node": node,
               "signal": "SIGSTOP, SIGCONT", "failure_detection": detection,
               "pauses": pauses, "events": events, "effects": effects["pauses"],
               "measures": measured, "operations": outcomes, "batchsize": batch,
               "keys_tried": tried, "keys_acknowledged": acked, "keys_indeterminate": maybe,
               "keys_found": found, "keys_not_found": not_found,
               "acknowledged_writes_lost": lost, "client_timeline": timeline,
               "offered": offered, "checks": checks, "lines": lines}
    if layout is not None:
        verdict["regions_before"] = layout
    return write_verdict(verdict, path)


def _pause_when_running(db, node: int, status: Path, timings: tuple,
                        cancel: threading.Event, pauses: List[dict], events: dict,
                        stop_file: Path) -> None:
    """`pre` s after the client's first operations pauses the node for `short` s, `gap` s
    later for `long` s (each recorded in `pauses`, UTC); then ends the phase (`stop_file`) once
    the client has recovered and its newest second is back in the pre-fault band (throughput
    and p99 of intended latency: the recovery to the band is measured, not cut off), or at the
    phase's bound. The node is resumed whatever happens."""
    pre, short, gap, long_ = timings
    if not fault_timeline.after_first_operations(status, cancel, 0):
        return
    for wait_s, length in ((pre, short), (gap, long_)):
        if cancel.wait(wait_s):
            return
        print(f"== pausing {db.node_name(node)} for {length} s (SIGSTOP)", flush=True)
        record = {"length_s": length, "long": length == long_, "paused": utc_now()}
        paused = db.pause_node(node)
        try:
            cancel.wait(length)
        finally:
            db.resume_node(paused)
            record["resumed"] = utc_now()
            pauses.append(record)
            print(f"== resumed {db.node_name(node)} (SIGCONT)", flush=True)
        if cancel.is_set():
            return
    while not cancel.wait(1.0):
        rows = fault_timeline.timeline(status)
        if rows and fault_timeline.recovered_for(rows, pauses[-1]["resumed"], RECOVERED_QUIET_S,
                                                 failures_needed=False) \
                and fault_measures.back_in_band(rows, pauses[0]["paused"]):
            events["client_recovered"] = utc_now()
            print(f"== the client has recovered ({RECOVERED_QUIET_S} s without a failure, back "
                  "in the pre-fault band): ending the pause phase", flush=True)
            stop_file.touch()
            return
