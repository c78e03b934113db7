"""The faults that act on a running node for set windows, twice in one phase: the pause
(fault_pause.py: SIGSTOP, then SIGCONT), the partition (fault_partition.py: the node cut off
from its clients, then from its peers) and the slow disk (fault_slow_disk.py: its log writes
slowed, then stalled). The same phases for all:

  fault-<name>-probe      the fault traffic unthrottled (fault_phase.offered_rate): the phase
                          offers half the rate it achieved
  fault-<name>            the fault traffic (fault_phase.traffic_phase); `pre` s after the
                          client's first operations the first window, `gap` s after it ends the
                          second; the phase ends once every operation succeeded again for
                          RECOVERED_QUIET_S after the second window and the client is back in
                          the pre-fault band (or at a bound)
  fault-<name>-read-back  every key the phase tried to write, read once
The verdict (fault-verdict-<database>-<name>.json): what the database did in each window
(Database.pause_effects: its logs and processes), the measures of each window
(fault_measures.py), every operation ok / failed / indeterminate, and the acknowledged-write
check of the crash. A node the second window left fenced (an HBase region server declared dead)
is restarted before the read-back.
"""
import threading
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional

from ..databases import fault_checks
from ..phases.phase_runner import run_phase
from . import fault_keys, fault_measures, fault_timeline
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


@dataclass(frozen=True)
class Window:
    """One window of a fault: `what` it is ("3 s pause", "30 s cut off from its peers"), its
    `label` in sentences ("pause 3 s" of node3), for `length_s`, and whether the database
    should notice it (longer than its failure detection)."""

    what: str
    label: str
    length_s: int
    detected: bool
    act: Callable[[], AbstractContextManager]   # the fault while its `with` block runs


@dataclass(frozen=True)
class WindowFault:
    name: str            # "pause", "partition": the phases' and the verdict's name
    pre_s: int           # the first window this long after the client's first operations
    gap_s: int           # the second this long after the first ended
    after_s: int         # the phase's bound after the second
    windows: List[Window]
    # in the checks' words: how a window ends ("it resumed") and why the database should not
    # notice a window it is not meant to detect ("below the failure detection")
    ends: str
    unnoticed: str
    # a node the database fences may abort within the window (a cut: its own calls time out),
    # not only once it runs again after it (a pause: the master refuses its next report)
    fenced_within: bool
    # what the fault itself saw in its windows (the records of `done`): {"checks", "lines"}
    own_effects: Optional[Callable[[List[dict]], dict]] = None


def window_step(ctx: Context, name: str, what: str, timings: tuple, run) -> Composite:
    """The step of a fault with windows: `timings` (before the first, the first, between them,
    the second, bound after it; seconds), `what` it does in words, `run(ctx, first_index,
    out_dir)` its phases and verdict."""
    pre, first, gap, second, _ = timings
    db = ctx.database
    return Composite(
        f"fault-{name}", f"{db.node_name(db.server.nodes)} {what}; restarted if it was fenced; "
                         "read-back of every key",
        lambda first_index: run(ctx, first_index, ctx.out_dir),
        phases=3,
        estimate_s=PROBE_S[ctx.scale] + pre + first + gap + second + 20 + db.fault_overhead_s)


def skipped(db, fault: str, why: str, path: Path, repeat: int = 0) -> dict:
    verdict = {"database": db.name, "fault": fault, "repeat": repeat, "skipped": why, "checks": [],
               "lines": [f"{fault}: skipped: {why}"]}
    return write_verdict(verdict, path)


def run_windows(ctx: Context, first_index: int, out_dir: Path, fault: WindowFault,
                ready: List[str], layout, extra: dict) -> dict:
    """The fault's three phases on node `db.server.nodes` (readied: `ready`, `layout`) and its
    verdict, with `extra` keys of the fault's own."""
    db = ctx.database
    node = db.server.nodes
    name = fault.name
    detection = db.failure_detection()
    files = ctx.files(["fault"], [f"{db.name}-fault"])
    batch = int(ctx.merged(files)["batchsize"])
    offered = offered_rate(ctx, files, f"fault-{name}-probe", first_index, out_dir)
    start = offered["first_key"]   # the phase's keys: after the probe's
    stop_file = out_dir / f"fault-{name}-{db.name}.stop"
    stop_file.unlink(missing_ok=True)
    length = sum(w.length_s for w in fault.windows)
    phase = traffic_phase(ctx, files, f"fault-{name}", first_index + 1, start,
                          START_ALLOWANCE_S + fault.pre_s + fault.gap_s + length + fault.after_s,
                          {"ycsbpack.stopfile": str(stop_file)}, target=offered["target"])
    status = out_dir / phase.directory / "client-0.err"
    cancel = threading.Event()
    done: List[dict] = []
    events: dict = {}
    driver = threading.Thread(target=_act_when_running, daemon=True,
                              args=(fault, status, cancel, done, events, stop_file))
    driver.start()
    try:
        phase_dir = run_phase(phase, out_dir)
    finally:
        cancel.set()
        driver.join()  # it ends the window whatever happened
        stop_file.unlink(missing_ok=True)
    effects = db.pause_effects(node, done)
    own = fault.own_effects(done) if fault.own_effects else {"checks": [], "lines": []}
    restore_node(db, node, events)
    if "client_recovered" not in events:
        db.server.wait_all_up()
    counts = phase_return_counts(phase_dir)
    tried = keys_tried(counts, batch)
    keys_used(db, start + tried)
    back = read_back_phase(ctx, files, f"fault-{name}-read-back", first_index + 2, tried, start)
    back_dir = run_phase(back, out_dir)
    back_counts = phase_return_counts(back_dir)

    acked, maybe = db.write_keys(counts, batch)
    found, not_found, complete = fault_checks.read_back(back_counts, tried)
    keys = fault_keys.lost([phase_dir], back_dir)
    lost = max(acked - found, keys.get("lost", 0), 0)
    timeline = fault_timeline.timeline(status)
    measured = fault_measures.measures(
        timeline, [{"start": w["paused"], "resumed": w["resumed"], "length_s": w["length_s"],
                    "what": w["what"], "label": w["label"]} for w in done])
    outcomes = db.fault_outcomes(counts)
    checks = [(f"both windows happened ({', '.join(w.what for w in fault.windows)})",
               len(done) == len(fault.windows)),
              *effects["checks"], *own["checks"],
              ("the read-back read every key tried", complete),
              ("no acknowledged write is missing (found >= acknowledged)", found >= acked),
              ("nothing was found that was never written (found <= acknowledged + "
               "indeterminate)", found <= acked + maybe)]
    lines = [*ready, offered_line(offered), f"failure detection: {detection['how']}",
             *(fault_measures.line(m["label"], f"of {db.node_name(node)}", m, lost,
                                   measured["pre_fault"]) for m in measured["faults"]),
             *effects["lines"], *own["lines"],
             "operations (ok / failed / indeterminate): " + "; ".join(
                 f"{op} {o['ok']} / {o['failed']} / {o['indeterminate']}"
                 for op, o in sorted(outcomes.items())),
             f"keys tried {tried}, acknowledged {acked}, indeterminate {maybe}; read back: found "
             f"{found}, not found {not_found}"]
    verdict = {"database": db.name, "fault": name, "repeat": ctx.repeat, "node": node,
               **extra, "failure_detection": detection, "pauses": done, "events": events,
               "effects": effects["pauses"], "measures": measured, "operations": outcomes,
               "batchsize": batch, "keys_tried": tried, "keys_acknowledged": acked,
               "keys_indeterminate": maybe, "keys_found": found, "keys_not_found": not_found,
               "acknowledged_writes_lost": lost, "client_timeline": timeline,
               "offered": offered, "checks": checks, "lines": lines}
    fault_keys.judge(verdict, keys, not_found, tried - acked)
    if layout is not None:
        verdict["regions_before"] = layout
    return write_verdict(verdict, path=verdict_file(out_dir, db.name, name, ctx.repeat))


def _act_when_running(fault: WindowFault, status: Path, cancel: threading.Event,
                      done: List[dict], events: dict, stop_file: Path) -> None:
    """`pre` s after the client's first operations the first window, `gap` s after it the
    second (each recorded in `done`: its start and end, UTC, as "paused" and "resumed"); then
    ends the phase (`stop_file`) once the client has recovered and its newest second is back in
    the pre-fault band (throughput and p99 of intended latency: the recovery to the band is
    measured, not cut off), or at the phase's bound. A window ends whatever happens."""
    if not fault_timeline.after_first_operations(status, cancel, 0):
        return
    for wait_s, w in zip((fault.pre_s, fault.gap_s), fault.windows):
        if cancel.wait(wait_s):
            return
        print(f"== {fault.name}: {w.what}", flush=True)
        record = {"fault": fault.name, "what": w.what, "label": w.label,
                  "length_s": w.length_s, "long": w.detected, "ends": fault.ends,
                  "unnoticed": fault.unnoticed, "fenced_within": fault.fenced_within,
                  "paused": utc_now()}
        try:
            with w.act():
                cancel.wait(w.length_s)
        finally:
            record["resumed"] = utc_now()
            done.append(record)
            print(f"== {fault.name}: {w.what}: ended", flush=True)
        if cancel.is_set():
            return
    while not cancel.wait(1.0):
        rows = fault_timeline.timeline(status)
        if rows and fault_timeline.recovered_for(rows, done[-1]["resumed"], RECOVERED_QUIET_S,
                                                 failures_needed=False) \
                and fault_measures.back_in_band(rows, done[0]["paused"]):
            events["client_recovered"] = utc_now()
            print(f"== the client has recovered ({RECOVERED_QUIET_S} s without a failure, back "
                  f"in the pre-fault band): ending the {fault.name} phase", flush=True)
            stop_file.touch()
            return
