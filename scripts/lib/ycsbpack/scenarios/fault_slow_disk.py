"""S2's slow-disk fault: node N's writes to its commit log or write-ahead log slowed under the
fault traffic, twice: first each write takes SLOW_MS longer (a degraded disk), then every write
waits until the window ends (a stalled disk); then fast again. Byteman rules in the node's
running JVM (servers/byteman.py) at the call that puts the log on the node's disk
(Database.slow_disk_point): Cassandra's commit log sync of the node (CommitLogSegment.flush),
HBase's DataNode N writing a packet of a block to its disk (every write-ahead log's pipeline
passes through it when the three DataNodes hold three replicas).

A degraded or stalled disk is noticed by no failure detector: the node keeps answering its
peers, so neither window should get it marked down. Where the delay lands decides what the
client feels: Cassandra's periodic commit log acknowledges a write before its sync (a slow sync
delays nothing until the sync falls 1.5 periods behind, when the node's writes wait for it);
every HBase write waits for its write-ahead log to reach all the DataNodes of its pipeline.
No burst of write errors is injected (a failed commit log or WAL write stops the Cassandra node
or aborts the region server: a crash, which the crash fault covers).

Phases and verdict as every fault with windows (fault_windows.py): fault-slow-disk-probe,
fault-slow-disk, fault-slow-disk-read-back; fault-verdict-<database>-slow-disk.json.
"""
import time
from datetime import datetime
from pathlib import Path
from typing import List

from ..servers import byteman
from .fault_phase import verdict_file
from .fault_windows import Window, WindowFault, run_windows, skipped, window_step
from .scenario_plan import Composite, Context

# seconds: (before the first window, slow, between the windows, stalled, bound after the
# second). The stall lasts longer than Cassandra's commitlog_sync_period (10 s), so that a sync
# starts within it.
SLOW_DISKS = {"cluster": (15, 20, 15, 40, 120), "local": (10, 15, 10, 30, 120),
              "ci": (5, 6, 4, 12, 60)}
SLOW_MS = 100   # each write of the first window this much longer


def slow_disk_step(ctx: Context) -> Composite:
    pre, slow, gap, stall, _ = SLOW_DISKS[ctx.scale]
    point = ctx.database.slow_disk_point
    at = f" (Byteman at {point.call})" if point else ""
    return window_step(ctx, "slow-disk",
                       f"log writes slowed by {SLOW_MS} ms each for {slow} s{at}, {pre} s after "
                       f"the first operations of {ctx.database.fault_traffic} (at half the "
                       f"rate a probe of it just achieved), and {gap} s later stalled for "
                       f"{stall} s", SLOW_DISKS[ctx.scale], run_slow_disk)


def run_slow_disk(ctx: Context, first_index: int, out_dir: Path) -> dict:
    db = ctx.database
    node = db.server.nodes if db.server is not None else 0
    path = verdict_file(out_dir, db.name, "slow-disk", ctx.repeat)
    why = db.slow_disk_refusal(node)
    if why:
        return skipped(db, "slow-disk", why, path, ctx.repeat)
    pre, slow, gap, stall, after = SLOW_DISKS[ctx.scale]
    ready, layout = db.ready_for_fault(node)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    state = db.server.run_dir / "byteman"
    db.slow_disk_agent(node, state)   # not at the first window: loading it stops the JVM briefly
    traces = {}   # window: its trace file (one line per slowed call)

    def rules(key: str, delay_ms: str):
        traces[key] = str(state / f"slow-disk-{stamp}-{key}.trace")
        return db.slow_disk(node, delay_ms, Path(traces[key]))

    def until_the_end(length_s: int) -> str:
        """The stall's delay: every call waits until the window's end (called at its start)."""
        return (f"Math.max(0L, {int(time.time() * 1000) + length_s * 1000}L - "
                "System.currentTimeMillis())")

    windows = [Window(f"{slow} s of {SLOW_MS}-ms slower log writes",
                      f"slow disk {slow} s (+{SLOW_MS} ms a write)", slow, False,
                      lambda: rules("slow", str(SLOW_MS))),
               Window(f"{stall} s of stalled log writes", f"slow disk {stall} s (stalled)",
                      stall, False, lambda: rules("stall", until_the_end(stall)))]

    def slowed(done: List[dict]) -> dict:
        counts = {w["label"]: byteman.calls_between(Path(trace), _ms(w["paused"]),
                                                    _ms(w["resumed"]))
                  for w, trace in zip(done, traces.values())}
        lines = [f"{label} of {db.node_name(node)}: {n} call(s) slowed" for label, n in
                 counts.items()]
        # Cassandra's periodic commit log syncs every 10 s: a short window may see none; the
        # stall outlasts a period, so a phase that slowed nothing did not work
        return {"checks": [(f"the slowed call ran in the windows ({sum(counts.values())} "
                            "times)", sum(counts.values()) > 0)],
                "lines": lines}

    return run_windows(ctx, first_index, out_dir,
                       WindowFault("slow-disk", pre, gap, after, windows,
                                   ends="its writes were fast again",
                                   unnoticed="it still answers its peers", fenced_within=False,
                                   own_effects=slowed), ready,
                       layout, {"mechanism": "Byteman rules in the node's JVM "
                                             "(servers/byteman.py): "
                                             + db.slow_disk_point.words,
                                "slow_ms": SLOW_MS, "traces": traces})


def _ms(utc_iso: str) -> int:
    return int(datetime.fromisoformat(utc_iso).timestamp() * 1000)
