"""Apache Cassandra through the cassandra4 binding: its connection, local cluster
(scripts/cassandra-local), compaction, durability and the judgement of S2's fault phase.

Durability: `commitlog_sync` decides when a write reaches the disk. "periodic" acknowledges a
write once it is in the commit log segment (memory-mapped: the OS holds it) and fsyncs every
`commitlog_sync_period`, so a machine crash can lose up to that period of acknowledged writes and
a server process crash none; "batch" fsyncs before it acknowledges; "group" fsyncs every
`commitlog_sync_group_window` and acknowledges the window's writes after it. A keyspace with
`durable_writes = false` skips the commit log.

The fault phase (RF 3, logged batches at CL ALL): a batch that returned OK is acknowledged, all
its keys. UNAVAILABLE means the coordinator refused it before any replica wrote anything
(Cassandra checks live replicas first, for logged batches before writing the batch log); any
other failure may be applied on the live replicas: WRITE_TIMEOUT (a crashed node the peers have
not yet marked down, ~19 s), or ERROR for a batch whose coordinator was killed while it ran
(seen: 2 such batches, both stored). So with A acknowledged keys and M keys of batches that
failed otherwise than UNAVAILABLE: found >= A (no acknowledged write is missing) and
found <= A + M (nothing appears that was never written); with M = 0, found == A exactly.
"""
import math
import re
from typing import Dict, List

from ..servers import byteman, cassandra_local, cassandra_logs
from ..servers.local_servers import LocalCassandra
from .base import MACHINE, NOTHING, PROCESS, Database, started_here, window_words
from .fault_checks import READ, READ_BACK, WRITE, read_back

UNAVAILABLE, TIMEOUTS = "UNAVAILABLE", ("WRITE_TIMEOUT", "CLIENT_TIMEOUT")
# A node that is stopping (SIGTERM) answers the requests it coordinates with "Server is shutting
# down" (OVERLOADED), seen once in ~500 reads here; the driver does not retry non-idempotent
# statements on another node. Tolerated for at most 1% of the reads while the node goes down.
SHUTDOWN_ANSWER, SHUTDOWN_SHARE = "OVERLOADED", 0.01
# A crashed node (SIGKILL) fails the requests it was coordinating at that moment (the driver
# does not retry non-idempotent statements): at most one per client thread, plus reads its
# peers still sent it before they marked it down. Tolerated for at most 5% of the reads.
CRASH_READ_SHARE = 0.05
# The phi accrual failure detector (the pause fault): Cassandra's phi_convict_threshold default,
# and the gossiper's round (one heartbeat a second)
PHI_CONVICT_DEFAULT, GOSSIP_INTERVAL_S = 8.0, 1.0
_DURABLE_WRITES = re.compile(r"durable_writes\s*=\s*(\w+)", re.I)


def _share_ok(counts: Dict[str, int], allowed_failures: float) -> bool:
    total = sum(counts.values())
    return counts.get("OK", 0) > 0 and counts.get("OK", 0) >= (1 - allowed_failures) * total


class Cassandra(Database):
    """Cassandra: a local cluster of `server.nodes` nodes, or your contact points (--hosts)."""
    name = "cassandra"
    title = "Cassandra"
    binding = "cassandra4"
    hosts_property = "hosts"
    start_s = {1: 25, 3: 60}
    table_options = True
    fault_traffic = "CL ALL batch writes + CL ONE batch reads"
    fault_overhead_s = 60
    fault_read_back = {"cassandra.readconsistencylevel": "ALL"}
    refused_writes = frozenset({UNAVAILABLE})
    slow_disk_point = byteman.Point(
        "cassandra-node{node}", "^org.apache.cassandra.db.commitlog.CommitLogSegment",
        "flush(int, int)", "each sync of the node's commit log segment to its disk, "
        "CommitLogSegment.flush; in periodic mode every commitlog_sync_period")

    def local_server(self, run_dir, nodes, settings, cpus=None) -> LocalCassandra:
        return LocalCassandra(run_dir, nodes, settings.cassandra_address,
                              settings.cassandra_jmx_port, cpus=cpus)

    def compaction(self, keyspace: str, table: str) -> str:
        return f"nodetool flush + compact {keyspace} {table}"

    def compact(self, keyspace: str, table: str) -> None:
        for node in range(1, self.server.nodes + 1):
            self.server.nodetool(node, ["flush", keyspace, table])
            self.server.nodetool(node, ["compact", keyspace, table])

    def durability(self, settings: Dict[str, str], schema: str,
                   properties: Dict[str, str]) -> dict:
        mode = settings.get("commitlog_sync", "")
        period = settings.get("commitlog_sync_period", "")
        window = settings.get("commitlog_sync_group_window", "")
        durable = _DURABLE_WRITES.findall(schema or "")
        skips = any(d.lower() == "false" for d in durable)
        if skips:
            survives, words = NOTHING, ("not written to the commit log (keyspace durable_writes "
                                        "= false)")
        elif mode == "periodic":
            survives, words = PROCESS, (f"in the commit log, fsynced every {period} (periodic): "
                                        f"a machine crash can lose up to {period} of acknowledged "
                                        "writes")
        elif mode == "batch":
            survives, words = MACHINE, ("in the commit log, fsynced before the acknowledgement "
                                        "(batch)")
        elif mode == "group":
            survives, words = MACHINE, (f"in the commit log, fsynced every {window} and "
                                        "acknowledged after it (group)")
        else:
            return {"unknown": f"commitlog_sync {mode or '(not in the settings read)'}"}
        knobs = {"commitlog_sync": mode, "commitlog_sync_period": period,
                 "durable_writes": ", ".join(sorted(set(durable))) or "(no keyspace read)"}
        if mode == "group":
            knobs["commitlog_sync_group_window"] = window
        return {"survives": survives, "acknowledged_write": words, "settings": knobs,
                "default": mode == "periodic" and period in ("10000ms", "10s") and not skips}

    def node_name(self, node: int) -> str:
        return f"node{node}"

    def judge_fault(self, down: dict, up: dict, back: dict, batch: int, tried: int,
                    node_failure: str = "drain", unavailability: dict = None) -> dict:
        w1, r1 = down.get(WRITE, {}), down.get(READ, {})
        w2, r2 = up.get(WRITE, {}), up.get(READ, {})
        acked = (w1.get("OK", 0) + w2.get("OK", 0)) * batch
        timed_out = sum(w1.get(t, 0) + w2.get(t, 0) for t in TIMEOUTS) * batch
        maybe = sum(n for w in (w1, w2) for s, n in w.items()
                    if s not in ("OK", UNAVAILABLE)) * batch
        found, missing, complete = read_back(back, tried)
        if node_failure == "crash":
            reads = ("reads at CL ONE kept succeeding while the node was down (at most 5% failed: "
                     "requests the crashed node was coordinating)",
                     _share_ok(r1, CRASH_READ_SHARE))
        else:
            reads = ("reads at CL ONE kept succeeding while the node was down (at most 1% "
                     "OVERLOADED answers of the stopping node)",
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
                 f"keys tried {tried}, acknowledged {acked}, timed out {timed_out}, failed "
                 f"otherwise than UNAVAILABLE {maybe}; read back: found {found}, not found "
                 f"{missing}"]
        return {"batchsize": batch, "keys_tried": tried, "keys_acknowledged": acked,
                "keys_timed_out": timed_out, "keys_maybe_applied": maybe, "keys_found": found,
                "keys_not_found": missing, "exact": maybe == 0 and found == acked,
                "node_down": {"writes": w1, "reads": r1},
                "restarted": {"writes": w2, "reads": r2},
                "read_back": back.get(READ_BACK, {}), "checks": checks, "lines": lines}

    def failure_detection(self) -> dict:
        phi = float(self.server.setting("phi_convict_threshold") or PHI_CONVICT_DEFAULT)
        seconds = phi * math.log(10) * GOSSIP_INTERVAL_S
        return {"seconds": round(seconds, 1),
                "how": f"phi_convict_threshold {phi:g} with gossip every {GOSSIP_INTERVAL_S:g} s: "
                       f"the peers convict a silent node after about phi x ln 10 x the mean "
                       f"heartbeat interval = {seconds:.0f} s"}

    def pause_effects(self, node: int, pauses: List[dict]) -> dict:
        """From each peer's system.log: when it marked the paused (or cut off) node DOWN and
        UP again."""
        address = self.server.address(node)
        peers = [i for i in range(1, self.server.nodes + 1) if i != node]
        out, checks, lines = [], [], []
        for k, p in enumerate(pauses):
            until = pauses[k + 1]["paused"] if k + 1 < len(pauses) else None
            what, ended, quiet = window_words(p)
            marks = {f"node{i}": cassandra_logs.liveness_marks(self.server.node_log(i), address,
                                                               p["paused"], until)
                     for i in peers}
            noticed = cassandra_logs.local_pause_noticed(self.server.node_log(node),
                                                         p["paused"], until)
            out.append({"length_s": p["length_s"], "peers": marks,
                        "own_pause_noticed_s": noticed})
            downs = [m["down_s"] for m in marks.values()]
            said = "; ".join(f"{n} marked node{node} " + (
                f"DOWN after {m['down_s']} s, UP after {m['up_s']} s" if m["down_s"] is not None
                else "never DOWN") for n, m in marks.items())
            lines.append(f"{p['label']} of node{node}: {said}"
                         + (f"; node{node} noticed its own pause after {noticed} s and did not "
                            "convict its peers for it" if noticed is not None else ""))
            if p["long"]:
                checks += [(f"the peers marked node{node} down during its {what}",
                            all(d is not None for d in downs)),
                           (f"the peers marked node{node} up again after {ended}",
                            all(m["up_s"] is not None for m in marks.values()))]
            else:
                checks.append((f"no peer marked node{node} down during its {what} ({quiet})",
                               all(d is None for d in downs)))
        return {"pauses": out, "checks": checks, "lines": lines}

    def start_script_server(self):
        # scripts/cassandra-local's defaults (or its run directory's last cluster)
        defaults = cassandra_local.parser().parse_args(["status"])
        cluster = cassandra_local.Cluster.load_or_create(defaults.run_dir, defaults)
        if cluster.running():
            return {}, lambda: None
        return {}, started_here(lambda: cassandra_local.start(cluster),
                                lambda: cassandra_local.stop(cluster))
