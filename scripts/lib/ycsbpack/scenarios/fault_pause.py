"""S2's pause fault: node N stopped (SIGSTOP) and resumed (SIGCONT) twice under the fault
traffic, first for less than the database's failure detection, then for more.

A paused JVM keeps its sockets open and answers nothing: a long GC pause, a frozen VM. On
Cassandra the node is one JVM; the peers' phi accrual detector convicts it after about
phi_convict_threshold x ln 10 heartbeat intervals (8: ~18 s) and marks it up when its gossip
resumes. On HBase node N is region server N and DataNode N; the master declares the region
server dead when its ZooKeeper session expires (6 s on the local cluster), reassigns its regions,
and the region server, once it runs again, is told so (YouAreDeadException) and aborts: it is
fenced and must be restarted. The runner restarts what the fault left down before the read-back.

Its phases (fault-pause-probe, fault-pause, fault-pause-read-back) and its verdict
(fault-verdict-<database>-pause.json) are those of every fault with windows (fault_windows.py).
"""
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

from .fault_phase import verdict_file
from .fault_windows import Window, WindowFault, run_windows, skipped, window_step
from .scenario_plan import Composite, Context

# seconds: (before the short pause, short pause, between the pauses, long pause, bound after
# the long pause). The same for both databases: the short one below either's failure detection
# (HBase 6 s, Cassandra ~18 s), the long one above both.
PAUSES = {"cluster": (15, 4, 20, 40, 120), "local": (10, 3, 15, 30, 120),
          "ci": (5, 3, 8, 25, 60)}


def pause_step(ctx: Context) -> Composite:
    pre, short, gap, long_, _ = PAUSES[ctx.scale]
    return window_step(ctx, "pause",
                       f"paused (SIGSTOP, then SIGCONT) for {short} s, {pre} s after the first "
                       f"operations of {ctx.database.fault_traffic} (at half the rate a probe "
                       f"of it just achieved), and {gap} s later for {long_} s", PAUSES[ctx.scale],
                       run_pause)


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


@contextmanager
def _paused(db, node: int):
    print(f"== pausing {db.node_name(node)} (SIGSTOP)", flush=True)
    paused = db.pause_node(node)
    try:
        yield
    finally:
        db.resume_node(paused)
        print(f"== resumed {db.node_name(node)} (SIGCONT)", flush=True)


def run_pause(ctx: Context, first_index: int, out_dir: Path) -> dict:
    db = ctx.database
    node = db.server.nodes if db.server is not None else 0
    why = missing(db, node, ctx.scale)
    if why:
        return skipped(db, "pause", why, verdict_file(out_dir, db.name, "pause", ctx.repeat),
                       ctx.repeat)
    pre, short, gap, long_, after = PAUSES[ctx.scale]
    ready, layout = db.ready_for_fault(node)
    windows = [Window(f"{n} s pause", f"pause {n} s", n, n == long_, lambda: _paused(db, node))
               for n in (short, long_)]
    fault = WindowFault("pause", pre, gap, after, windows, ends="it resumed",
                        unnoticed="below the failure detection", fenced_within=False)
    return run_windows(ctx, first_index, out_dir, fault, ready, layout,
                       {"signal": "SIGSTOP, SIGCONT"})
