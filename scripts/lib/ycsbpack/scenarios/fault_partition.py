"""S2's partition fault: node N cut off from the network under the fault traffic, twice: first
from its clients (the YCSB clients cannot reach it; its peers can), then from its peers (it
hears none of them and they none of it; the clients still reach every node), each for a set
time, then healed (servers/node_partition.py: packets dropped, not refused).

Cut off from the clients, the node stays a member of its cluster: Cassandra's coordinators
still write to it and read from it, and a request the client sends to it as coordinator waits
for the driver's timeout; an HBase region server still holds its regions, whose operations
wait and fail until the cut heals. Cut off from its peers for longer than the failure detection,
Cassandra's peers mark it DOWN and UP once healed; HBase's master declares the region server
dead (its ZooKeeper session expires), reassigns its regions, and the region server aborts,
within the cut (its ZooKeeper calls or WAL syncs time out) or once it hears the others again;
it is restarted before the read-back.

Phases and verdict as every fault with windows (fault_windows.py): fault-partition-probe,
fault-partition, fault-partition-read-back; fault-verdict-<database>-partition.json.
"""
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

from .fault_phase import verdict_file
from .fault_windows import Window, WindowFault, run_windows, skipped, window_step
from .scenario_plan import Composite, Context

# seconds: (before the first cut, cut off from the clients, between the cuts, cut off from the
# peers, bound after the second). The cut from the peers lasts longer than either database's
# failure detection (HBase 6 s, Cassandra ~18 s), as the pause fault's long pause.
PARTITIONS = {"cluster": (15, 20, 20, 40, 120), "local": (10, 15, 15, 30, 120),
              "ci": (5, 8, 8, 25, 60)}


def partition_step(ctx: Context) -> Composite:
    pre, clients, gap, peers, _ = PARTITIONS[ctx.scale]
    return window_step(ctx, "partition",
                       f"cut off from its clients for {clients} s, {pre} s after the first "
                       f"operations of {ctx.database.fault_traffic} (at half the rate a probe "
                       f"of it just achieved), and {gap} s later from its peers for {peers} s "
                       "(packets dropped)", PARTITIONS[ctx.scale], run_partition)


def missing(db, node: int, scale: str) -> Optional[str]:
    """What the partition needs and does not have here (None: nothing): a local cluster whose
    processes are known, root, nft and net_cls (node_partition.missing), and a cut from the
    peers longer than the database's failure detection."""
    why = db.partition_refusal(node)
    if why:
        return why
    peers = PARTITIONS[scale][3]
    detection = db.failure_detection()
    if not detection["seconds"] < peers:
        return (f"the cut from the peers ({peers} s) is not longer than {db.title}'s failure "
                f"detection here ({detection['how']})")
    return None


def run_partition(ctx: Context, first_index: int, out_dir: Path) -> dict:
    db = ctx.database
    node = db.server.nodes if db.server is not None else 0
    why = missing(db, node, ctx.scale)
    if why:
        return skipped(db, "partition", why,
                       verdict_file(out_dir, db.name, "partition", ctx.repeat), ctx.repeat)
    pre, clients, gap, peers, after = PARTITIONS[ctx.scale]
    ready, layout = db.ready_for_fault(node)
    rules: dict = {}   # each cut's drop rules, for the verdict: what was dropped

    @contextmanager
    def cut(side: str):
        with db.cut_off(node, side) as partition:
            rules[side] = partition.rules
            yield

    windows = [Window(f"{clients} s cut off from the clients",
                      f"partition {clients} s (cut off from the clients)", clients, False,
                      lambda: cut("clients")),
               Window(f"{peers} s cut off from its peers",
                      f"partition {peers} s (cut off from its peers)", peers, True,
                      lambda: cut("peers"))]
    return run_windows(ctx, first_index, out_dir,
                       WindowFault("partition", pre, gap, after, windows,
                                   ends="the cut healed", unnoticed="its peers still reach it",
                                   fenced_within=True), ready, layout,
                       {"mechanism": "nftables drop rules on the output hook, by the sender's "
                                     "net_cls cgroup (servers/node_partition.py)",
                        "rules": rules})
