"""S2's fault phase on the local 3-node clusters: Cassandra (RF 3, CL ALL writes, CL ONE reads)
and HBase (HDFS replication 3, 3 region servers). One node goes down mid-run, is restarted, and
every key tried is read back.

Four phases, each with its own results directory:
  fault-probe       the fault traffic unthrottled for PROBE_S seconds after its first
                    operations: the rate this cluster and client achieve now; the fault phases
                    offer OFFERED_SHARE of it (offered_rate), so the client keeps to its
                    schedule before the fault and intended latency measures the fault, not a
                    backlog (a fixed 40 batches/s was more than a busy 2-core machine achieved)
  fault-node-down   batched writes (BATCH_INSERT of new keys) and batched reads of loaded keys
                    at the offered rate; `stop_after` seconds after the client's status line first
                    shows operations (its start-up can take 5-15 s on a busy machine), the runner
                    takes the last node down and leaves it down until the phase ends (Cassandra:
                    after a fixed time; HBase: once its client has recovered, every operation OK
                    again for a few seconds, the dead server's regions reopened elsewhere, or at
                    a bound; the checks need that recovery before the restart). How it goes
                    down is the fault (--faults): `crash` (SIGKILL, a dead machine; the default)
                    or `drain` (SIGTERM: Cassandra drains, an HBase region server closes its
                    regions); a drain's phases are named fault-drain-*.
                    On HBase node N is region server N and its DataNode.
  fault-restarted   the node is restarted (Cassandra: until every node sees every node Up; HBase:
                    until a client sees every region server live); the same traffic.
  fault-read-back   every key the two phases tried to write is read once (Cassandra at CL ALL).

The acknowledged-write check. One YCSB client inserts the keys recordcount, recordcount+1, ...
from one counter, batchsize per BATCH_INSERT, whatever the outcome; so phase 1 tried exactly
batches x batchsize keys from recordcount on, and phase 2 (recordcount moved past them) the
keys after those: one contiguous range [R, R + N), R after the keys the probe inserted, and
after every key an earlier fault wrote on these servers (free_key: in this run or an earlier
one; the read-back would call those "never written"). The read-back reads each key of [R, R + N)
exactly once (sequential key chooser). Per database (Database.judge_fault in databases/): no
acknowledged write may be missing (found >= acknowledged), and nothing may appear that cannot
have been written.
The verdict (fault-verdict-<database>.json next to the phases; -drain.json for a drain) lists
every figure and check, the client's timeline (fault_timeline.py), its measures
(fault_measures.py) and, on HBase, how long the dead server's regions were unavailable.
The pause fault is fault_pause.py; it shares this module's traffic, read-back and verdict.
"""
import json
import statistics
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from ..core.errors import ScriptError
from ..databases import fault_checks
from ..phases.phase_runner import run_phase
from . import fault_keys, fault_measures, fault_timeline
from .report_counts import phase_return_counts
from .scenario_plan import Composite, Context

# seconds: (node-down phase, stop the node this long after the first operations, restarted phase)
# (CI: a crashed Cassandra node stalled the client for 20 s, then reads ran at the offered rate
# again from 25 s: 35 s gives 10 s of that; HBase's phase lasts until its client recovered)
TIMINGS = {"cluster": (60, 15, 20), "local": (50, 10, 20), "ci": (35, 5, 12)}
# A node-down phase that lasts until its client has recovered (Database.recovers_while_down:
# HBase) ends once every operation is OK again for RECOVERED_QUIET_S after its last failure
RECOVERED_QUIET_S = 5
FREE_KEY_FILE = "fault-next-key"  # in the local servers' run directory: free_key
# The fault phases offer this share of the batches/s the unthrottled probe achieved, for
# PROBE_S seconds after its first operations
OFFERED_SHARE = 0.5
PROBE_S = {"cluster": 20, "local": 15, "ci": 6}
THREADS = 4
# The read-back is a check, not a measurement: 4 threads read 16,620 keys at CL ALL in 26 s in CI
READ_BACK_THREADS = 16
NODE_FAILURES = {"crash": "SIGKILL", "drain": "SIGTERM"}
# A phase timed from its client's first operations gets this much more for the client's start-up
# (a 12-s restarted phase once ended before its client, 13 s in start-up, sent anything)
START_ALLOWANCE_S = 60


def _down_seconds(ctx: Context) -> int:
    """The node-down phase's time limit (HBase: a bound; it ends once its client recovered)."""
    return ctx.database.fault_down_s(ctx.scale, TIMINGS[ctx.scale][0])


def fault_step(ctx: Context, how: str = "crash") -> Composite:
    """The node-down fault `how` (crash or drain): its three phases and its verdict."""
    down_s, stop_after, up_s = TIMINGS[ctx.scale]
    db = ctx.database
    node = db.server.nodes
    if db.recovers_while_down:
        what = (f"a run of {db.fault_traffic} that ends {RECOVERED_QUIET_S} s after they all "
                f"succeed again (at most {_down_seconds(ctx)} s)")
    else:
        what = f"a {down_s} s run of {db.fault_traffic}"
    return Composite(
        step_name(how), f"{db.node_name(node)} {how}ed "
                        f"({NODE_FAILURES[how]}) {stop_after} s after the first operations "
                        f"of {what} at {OFFERED_SHARE:.0%} of the rate a probe of it just "
                        f"achieved, restarted, {up_s} s more, read-back of every key",
        lambda first_index: run_fault(ctx, first_index, out_dir=ctx.out_dir, how=how),
        phases=4, estimate_s=PROBE_S[ctx.scale] + down_s + up_s + db.fault_overhead_s)


def step_name(fault: str) -> str:
    """The fault's step and the prefix of its phases: `fault` for the crash (the name it had
    when it was S2's only fault), `fault-<name>` for the others."""
    return "fault" if fault == "crash" else f"fault-{fault}"


def verdict_file(out_dir: Path, db_name: str, fault: str, repeat: int = 0) -> Path:
    """fault-verdict-<database>.json for the crash (as before the other faults), else
    fault-verdict-<database>-<fault>.json; in trial `repeat` of several (--repeat N), with
    -repeat-<N> before .json, as the trial's phase directories."""
    suffix = ("" if fault == "crash" else f"-{fault}") + (f"-repeat-{repeat}" if repeat else "")
    return out_dir / f"fault-verdict-{db_name}{suffix}.json"


def traffic_phase(ctx: Context, files: list, name: str, index: int, start_key: int,
                  seconds: int, extra: dict = None, target: int = None):
    """The fault traffic: batch reads of the loaded keys [0, recordcount) and batch inserts of
    new keys from `start_key`, `target` batches/s (None: as fast as it goes), status every
    second with service and intended latency, for `seconds`."""
    loaded = int(ctx.merged(files)["recordcount"])
    p = ctx.phase(name, "run", files, THREADS, target=target, group="fault",
                  properties={"insertstart": "0", "insertcount": str(loaded),
                              "recordcount": str(start_key), "maxexecutiontime": str(seconds),
                              # time-bound, whatever a scale file says about counts
                              "operationcount": "2000000000",
                              "status.interval": "1",
                              # intended latency too (from the -target schedule): a batch that
                              # waited behind a stalled one counts its wait (fault_measures.py)
                              "measurement.interval": "both", **(extra or {})})
    p.index = index
    return fault_keys.with_key_log(p, ctx.out_dir)


def keys_tried(counts: dict, batch: int) -> int:
    """The keys a traffic phase tried to insert: its BATCH_INSERTs, whatever their outcome, of
    `batch` keys each (its Return= counts: report_counts.phase_return_counts)."""
    return sum(counts.get(fault_checks.WRITE, {}).values()) * batch


def free_key(db, loaded: int) -> int:
    """The first key no fault has written on these local servers (FREE_KEY_FILE in their run
    directory), at least `loaded` (the load's keys are [0, loaded))."""
    try:
        return max(loaded, int((db.server.run_dir / FREE_KEY_FILE).read_text()))
    except (FileNotFoundError, ValueError):
        return loaded


def keys_used(db, end: int) -> None:
    """Keys below `end` are written by a fault: the next fault starts after them."""
    (db.server.run_dir / FREE_KEY_FILE).write_text(f"{end}\n")


def offered_rate(ctx: Context, files: list, name: str, index: int, out_dir: Path) -> dict:
    """Runs the probe (phase `name`: the fault traffic unthrottled, inserting from the first
    free key on) for PROBE_S seconds after its first operations; returns {"probe_batches_per_s":
    the median of its seconds (the first, partial, left out), "share", "target": the batches/s
    the fault phases offer, "probe_keys": the keys it inserted, "first_key": the fault phases'
    first key, after the probe's}."""
    props = ctx.merged(files)
    seconds = PROBE_S[ctx.scale]
    stop = out_dir / f"{name}-{ctx.database.name}.stop"
    start = free_key(ctx.database, int(props["recordcount"]))
    probe = traffic_phase(ctx, files, name, index, start,
                          START_ALLOWANCE_S + seconds, {"ycsbpack.stopfile": str(stop)})
    probe_dir = run_for(probe, out_dir, seconds, stop)
    series = fault_measures.per_second(fault_timeline.timeline(probe_dir / "client-0.err"))
    rates = [s["ok"] for s in series[1:]]
    if not rates or statistics.median(rates) < 1:
        raise ScriptError(f"{name}: the fault traffic achieved no successful batch in "
                          f"{seconds} s unthrottled ({probe_dir}): no rate to offer")
    rate = statistics.median(rates)
    offered = {"probe_batches_per_s": rate, "probe_seconds": len(rates),
               "share": OFFERED_SHARE, "target": max(1, round(OFFERED_SHARE * rate)),
               "probe_keys": keys_tried(phase_return_counts(probe_dir),
                                        int(props["batchsize"]))}
    offered["first_key"] = start + offered["probe_keys"]
    keys_used(ctx.database, offered["first_key"])
    print(f"   {name}: {rate:g} batches/s unthrottled: the fault phases offer "
          f"{offered['target']} batches/s ({OFFERED_SHARE:.0%})", flush=True)
    return offered


def offered_line(offered: dict) -> str:
    return (f"offered {offered['target']} batches/s: {offered['share']:.0%} of the "
            f"{offered['probe_batches_per_s']:g}/s the traffic achieved unthrottled just before "
            f"(median of {offered['probe_seconds']} s)")


def read_back_phase(ctx: Context, files: list, name: str, index: int, tried: int, start: int):
    """Reads each of the `tried` keys from `start` on exactly once (the sequential key chooser,
    shared by the client's threads), in batch reads of the traffic's batch size: `tried` is a
    whole number of its batches (keys_tried). The keys not found go to its key log."""
    batch = int(ctx.merged(files)["batchsize"])
    read_back = {"workload": "org.ycsbpack.common.batch.BatchedWorkload",
                 "batchreadproportion": "1", "batchinsertproportion": "0",
                 "batchupdateproportion": "0", "readproportion": "0", "updateproportion": "0",
                 "insertproportion": "0", "scanproportion": "0",
                 "requestdistribution": "sequential", "batchsize": str(batch),
                 "insertstart": str(start), "insertcount": str(tried),
                 "recordcount": str(start + tried), "operationcount": str(tried // batch),
                 "maxexecutiontime": "600", **ctx.database.fault_read_back}
    back = ctx.phase(name, "run", files, READ_BACK_THREADS, group="fault",
                     properties=read_back)
    back.index = index
    return fault_keys.with_key_log(back, ctx.out_dir)


def run_for(phase, out_dir: Path, seconds: float, stop_file: Path) -> Path:
    """Runs the phase until `seconds` after its client's first operations (its stop file; the
    phase's own time bound allows for the start-up); returns its directory."""
    stop_file.unlink(missing_ok=True)
    status = out_dir / phase.directory / "client-0.err"
    cancel = threading.Event()

    def stop_when_done():
        if fault_timeline.after_first_operations(status, cancel, seconds):
            stop_file.touch()

    timer = threading.Thread(target=stop_when_done, daemon=True)
    timer.start()
    try:
        return run_phase(phase, out_dir)
    finally:
        cancel.set()
        timer.join()
        stop_file.unlink(missing_ok=True)


def restore_node(db, node: int, events: dict) -> None:
    """Starts node `node` again when it does not run (all of it), and waits until the cluster
    is whole (every node sees every node)."""
    if db.server.running_nodes_count() < db.server.nodes:
        print(f"== restarting {db.node_name(node)}", flush=True)
        events["restart_begin"] = utc_now()
        db.server.start_node(node)
        db.server.wait_all_up()
        events["restart_done"] = utc_now()


def run_fault(ctx: Context, first_index: int, out_dir: Path, how: str = "crash") -> dict:
    _, stop_after, up_s = TIMINGS[ctx.scale]
    db = ctx.database
    server = db.server
    files = ctx.files(["fault"], [f"{db.name}-fault"])
    props = ctx.merged(files)
    batch = int(props["batchsize"])
    node = server.nodes
    prefix = step_name(how)

    ready, before = db.ready_for_fault(node)
    offered = offered_rate(ctx, files, f"{prefix}-probe", first_index, out_dir)
    start = offered["first_key"]   # the fault phases' keys: after the probe's
    stop_file = out_dir / f"{prefix}-node-down-{db.name}.stop"
    stop_file.unlink(missing_ok=True)
    down = traffic_phase(ctx, files, f"{prefix}-node-down", first_index + 1, start,
                         _down_seconds(ctx),
                         {"ycsbpack.stopfile": str(stop_file)} if db.recovers_while_down
                         else None, target=offered["target"])
    cancel = threading.Event()
    events = {}
    stopper = threading.Thread(target=_stop_node_when_running, daemon=True,
                               args=(ctx, how, node, out_dir / down.directory / "client-0.err",
                                     stop_after, cancel, events, stop_file))
    stopper.start()
    try:
        down_dir = run_phase(down, out_dir)
    finally:
        cancel.set()
        stopper.join()
        stop_file.unlink(missing_ok=True)
        if server.running_nodes_count() < node:
            restore_node(db, node, events)
    down_counts = phase_return_counts(down_dir)
    tried_1 = keys_tried(down_counts, batch)
    keys_used(db, start + tried_1)

    up_stop = out_dir / f"{prefix}-restarted-{db.name}.stop"
    up = traffic_phase(ctx, files, f"{prefix}-restarted", first_index + 2, start + tried_1,
                       START_ALLOWANCE_S + up_s, {"ycsbpack.stopfile": str(up_stop)},
                       target=offered["target"])
    up_dir = run_for(up, out_dir, up_s, up_stop)
    up_counts = phase_return_counts(up_dir)
    tried = tried_1 + keys_tried(up_counts, batch)
    keys_used(db, start + tried)

    back = read_back_phase(ctx, files, f"{prefix}-read-back", first_index + 3, tried, start)
    back_dir = run_phase(back, out_dir)
    back_counts = phase_return_counts(back_dir)

    timeline = fault_timeline.timeline(down_dir / "client-0.err")
    unavailable = fault_timeline.unavailability(timeline, events.get("node_down"))
    verdict = db.judge_fault(down_counts, up_counts, back_counts, batch, tried,
                             node_failure=how, unavailability=unavailable)
    verdict.update(database=db.name, fault=how, node=node, node_failure=how,
                   signal=NODE_FAILURES[how], events=events, repeat=ctx.repeat,
                   acknowledged_writes_lost=max(0, verdict["keys_acknowledged"]
                                                - verdict["keys_found"]))
    fault_keys.judge(verdict, fault_keys.lost([down_dir, up_dir], back_dir),
                     verdict["keys_not_found"], tried - verdict["keys_acknowledged"])
    verdict["client_unavailability"] = unavailable
    verdict["client_timeline"] = timeline
    verdict["offered"] = offered
    verdict["lines"][:0] = ready + [offered_line(offered)]
    if before is not None:
        verdict["regions_before"] = before
        verdict["regions_after"] = db.layout()
    recovery = db.fault_recovery(node, events["node_down"]) if events.get("node_down") else None
    if recovery is not None:
        verdict["regions"] = recovery
    verdict["lines"] += fault_timeline.describe(verdict)
    if events.get("node_down"):
        verdict["measures"] = fault_measures.measures(
            timeline, [{"start": events["node_down"], "what": f"{db.node_name(node)} down"}])
        verdict["lines"].append(fault_measures.line(
            how, f"of {db.node_name(node)} (down until the phase ended)",
            verdict["measures"]["faults"][0], verdict["acknowledged_writes_lost"],
            verdict["measures"]["pre_fault"]))
    return write_verdict(verdict, verdict_file(out_dir, db.name, how, ctx.repeat))


def write_verdict(verdict: dict, path: Path) -> dict:
    """Finishes the checks, writes the verdict, prints its lines; a failed check fails the
    step."""
    verdict = fault_checks.finish(verdict)
    path.write_text(json.dumps(verdict, indent=2) + "\n")
    for line in verdict["lines"]:
        print(f"   {line}", flush=True)
    if verdict["failed"]:
        raise ScriptError(f"fault phase ({verdict.get('fault', '?')}): "
                          + "; ".join(verdict["failed"]) + f" (details: {path})")
    return verdict


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _stop_node_when_running(ctx: Context, how: str, node: int, status_file: Path, after: float,
                            cancel: threading.Event, events: dict, stop_file: Path) -> None:
    """Takes `node` down `after` seconds after the client's status stream first counts
    operations; records when (events["node_down"], UTC). HBase: then creates `stop_file` (the
    client's ycsbpack.stopfile) once the client has recovered (fault_timeline.recovered_for)."""
    if not fault_timeline.after_first_operations(status_file, cancel, after):
        return
    print(f"== taking {ctx.database.node_name(node)} down mid-run ({how}: "
          f"{NODE_FAILURES[how]})", flush=True)
    events["node_down"] = utc_now()
    t0 = time.monotonic()
    ctx.database.server.stop_node(node, kill=how == "crash")
    events["node_down_seconds"] = round(time.monotonic() - t0, 1)
    if not ctx.database.recovers_while_down:
        return
    while not cancel.wait(1.0):
        rows = fault_timeline.timeline(status_file)
        if rows and fault_timeline.recovered_for(rows, events["node_down"], RECOVERED_QUIET_S,
                                                 failures_needed=how == "crash"):
            events["client_recovered"] = utc_now()
            print(f"== the client has recovered ({RECOVERED_QUIET_S} s without a failure): "
                  "ending the node-down phase", flush=True)
            stop_file.touch()
            return
