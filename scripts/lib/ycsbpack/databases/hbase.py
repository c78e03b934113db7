"""Apache HBase through the hbase-salted binding: its connection, local server
(scripts/hbase-local: standalone, or N region servers and DataNodes on HDFS), compaction,
durability and the judgement of S2's fault phase.

Durability: a write is acknowledged once its WAL edit is synced as its durability asks: the
binding's `hbase.durability` per mutation, else the table's DURABILITY, else SYNC_WAL
(ASYNC_WAL syncs after the acknowledgement, SKIP_WAL never writes one). A sync is an hflush (an
hsync with FSYNC_WAL or `hbase.wal.hsync`), which HDFS does (into the DataNodes' memory) and the
local filesystem of a standalone server cannot (`hbase.unsafe.stream.capability.enforce` false
lets it run): there the edit is still in the region server's buffers.

The fault phase (table.batch of Puts): each row succeeds or fails on its own, so the
acknowledged keys are the OK records of BATCH_INSERT-RECORDS. A row that failed (a timeout,
retries exhausted while its region was unassigned) may still have been written, so the bound
from above is the keys tried: found >= A must hold; found - A is reported as "failed but
stored". Node N is region server N and DataNode N.
"""
import re
import time
from typing import Dict, List, Optional, Tuple

from ..servers import byteman, hbase_local, hbase_logs
from ..servers.local_servers import LocalHBase
from .base import MACHINE, NOTHING, PROCESS, Database, started_here, window_words
from .fault_checks import READ, READ_BACK, WRITE, WRITE_RECORDS, read_back

# The node-down phase lasts until the client has recovered (the dead server's regions reopened
# elsewhere) and at most this long. A fixed length was a race: on 2 loaded cores HBase reopened
# the regions 11-31 s after the crash in one CI run and 27-39 s in another, after a 45-s phase
# had ended.
DOWN_BOUND_S = {"cluster": 180, "local": 120, "ci": 120}
# zookeeper.session.timeout when hbase-site.xml does not set it (HBase's default)
ZK_SESSION_DEFAULT_MS = 90000
# seconds a fenced region server gets to exit after it ran again
FENCE_WAIT_S = 60
_TABLE_DURABILITY = re.compile(r"DURABILITY\s*=>\s*'(\w+)'")


def _reopened(recovery: dict, what: str) -> str:
    """The reopening of a dead region server's regions (hbase_logs.region_recovery) in words."""
    if recovery.get("error"):
        return f"when its regions reopened is not known ({recovery['error']})"
    n, missing = len(recovery.get("regions") or {}), recovery.get("not_reopened") or 0
    if recovery.get("min_s") is None:
        return f"none of its {n} regions reopened elsewhere"
    return (f"its {n} regions reopened elsewhere {recovery['min_s']}-{recovery['max_s']} s after "
            f"its {what} began (median {recovery['median_s']} s"
            + (f"; {missing} not reopened" if missing else "") + ")")


class HBase(Database):
    """HBase: a local standalone server or cluster, or your ZooKeeper quorum (--hosts with
    --db hbase, --hbase-hosts with --db both)."""
    name = "hbase"
    title = "HBase"
    binding = "hbase-salted"
    hosts_property = "hbase.zookeeper.quorum"
    start_s = {1: 25, 3: 75}
    fault_traffic = "batch writes + batch reads"
    recovers_while_down = True
    fault_overhead_s = 90
    acknowledges_rows = True
    slow_disk_point = byteman.Point(
        "datanode-{node}", "org.apache.hadoop.hdfs.server.datanode.fsdataset.ReplicaOutputStreams",
        "writeDataToDisk", "each packet the node's DataNode writes to its disk, "
        "ReplicaOutputStreams.writeDataToDisk: of every write-ahead log whose pipeline holds it "
        "(with as many replicas as DataNodes, all of them) and of any HFile")

    def local_server(self, run_dir, nodes, settings, cpus=None) -> LocalHBase:
        zk, master, rs = settings.hbase_ports
        return LocalHBase(run_dir, zk, master, rs, nodes=nodes, cpus=cpus)

    def saved_data_refusal(self) -> Optional[str]:
        # saved data is a copy of a standalone server's data/ directory (LocalHBase.data_dirs)
        return "an N-node HBase on HDFS loads in every trial" if self.server.nodes != 1 else None

    def compaction(self, keyspace: str, table: str) -> str:
        return f"flush + major compaction of {table}"

    def compact(self, keyspace: str, table: str) -> None:
        self.server.compact(table)

    def durability(self, settings: Dict[str, str], schema: str,
                   properties: Dict[str, str]) -> dict:
        client = properties.get("hbase.durability", "USE_DEFAULT")
        tables = _TABLE_DURABILITY.findall(schema or "")
        table = tables[0] if tables else "USE_DEFAULT"
        used = (client if client != "USE_DEFAULT" else table if table != "USE_DEFAULT"
                else "SYNC_WAL")
        hsync = settings.get("hbase.wal.hsync", "false").lower() == "true"
        wal_dir = settings.get("hbase.wal.dir") or settings.get("hbase.rootdir", "")
        scheme = wal_dir.split(":", 1)[0] if ":" in wal_dir else ""
        if not scheme:
            return {"unknown": "the WAL's filesystem: neither hbase.wal.dir nor hbase.rootdir "
                    "was read"}
        where = (f"{scheme}: the local filesystem, which cannot hflush" if scheme == "file" else
                 f"{scheme}: HDFS, which hflushes to the DataNodes" if scheme == "hdfs" else
                 scheme)
        if used == "SKIP_WAL":
            survives, words = NOTHING, "in the memstore only: no WAL edit (SKIP_WAL)"
        elif used == "ASYNC_WAL":
            survives, words = NOTHING, "in the memstore; its WAL edit is synced later (ASYNC_WAL)"
        elif scheme == "file":
            survives, words = NOTHING, (f"in the WAL ({used}) on the local filesystem, which "
                                        "cannot hflush: the edit is in the region server's "
                                        "buffers")
        elif used == "FSYNC_WAL" or hsync:
            survives, words = MACHINE, f"in the WAL ({used}), hsynced before the acknowledgement"
        else:
            survives, words = PROCESS, (f"in the WAL ({used}), hflushed to the DataNodes' memory "
                                        "before the acknowledgement")
        return {"survives": survives, "acknowledged_write": words, "wal": where,
                "settings": {"hbase.durability": client, "table DURABILITY": table,
                             "hbase.wal.hsync": str(hsync).lower(), "WAL directory": wal_dir},
                "default": client == "USE_DEFAULT" and table == "USE_DEFAULT" and not hsync}

    def node_name(self, node: int) -> str:
        return f"region server {node} and DataNode {node}"

    def fault_down_s(self, scale: str, fixed_s: int) -> int:
        return DOWN_BOUND_S[scale]

    def judge_fault(self, down: dict, up: dict, back: dict, batch: int, tried: int,
                    node_failure: str = "crash", unavailability: dict = None) -> dict:
        w1, r1 = down.get(WRITE, {}), down.get(READ, {})
        w2, r2 = up.get(WRITE, {}), up.get(READ, {})
        rec1, rec2 = down.get(WRITE_RECORDS, {}), up.get(WRITE_RECORDS, {})
        acked = rec1.get("OK", 0) + rec2.get("OK", 0)
        failed_records = sum(rec1.values()) + sum(rec2.values()) - acked
        found, missing, complete = read_back(back, tried)
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

    def layout(self) -> Dict[str, Dict[str, int]]:
        return self.server.region_layout()

    def ready_for_fault(self, node: int) -> Tuple[List[str], Dict[str, Dict[str, int]]]:
        address = f"127.0.0.1:{self.server.regionserver_port + node - 1}"
        layout = self.layout()
        if layout.get(address):
            return [], layout
        self.server.balance()  # fails the step if it still holds none: no fault of an idle node
        layout = self.layout()
        regions = sum(layout.get(address, {}).values())
        return [f"region server {node} held no user region (restarted after an earlier fault, "
                f"and the balancer runs every 5 minutes): the balancer moved {regions} back to "
                f"it before this fault"], layout

    def fault_recovery(self, node: int, node_down: str) -> dict:
        """From the master's log: when it noticed the dead region server, and when each of its
        regions was open again elsewhere (seconds after the node went down)."""
        return hbase_logs.region_recovery(self.server.run_dir, node, node_down)

    def failure_detection(self) -> dict:
        ms = int(self.server.site_setting("zookeeper.session.timeout") or ZK_SESSION_DEFAULT_MS)
        return {"seconds": ms / 1000,
                "how": f"zookeeper.session.timeout {ms} ms: the master declares a silent region "
                       "server dead when its ZooKeeper session expires"}

    def pause_effects(self, node: int, pauses: List[dict]) -> dict:
        """From the master's log: whether it declared region server `node` dead during each
        pause; after a long one, from the region server's log and process: whether it was
        fenced (aborted when it ran again, and exited)."""
        port = self.server.regionserver_port + node - 1
        master = self.server.process_log("master")
        rs = f"regionserver-{node}"
        out, checks, lines = [], [], []
        for k, p in enumerate(pauses):
            until = pauses[k + 1]["paused"] if k + 1 < len(pauses) else None
            what, ended, quiet = window_words(p)
            dead = hbase_logs.declared_dead(master, port, p["paused"], until)
            facts = {"length_s": p["length_s"], "declared_dead_s": dead}
            said = (f"the master declared region server {node} dead after {dead} s"
                    if dead is not None else f"the master did not declare region server {node} "
                                             "dead")
            if p["long"]:
                deadline = time.monotonic() + FENCE_WAIT_S
                while self.server.node_pids(node).get(rs) and time.monotonic() < deadline:
                    time.sleep(1)
                # A paused server is told YouAreDeadException by the master once it runs
                # again; one cut off from its peers may abort within the cut already (its
                # ZooKeeper calls or WAL syncs time out): its log is read from the cut's start
                after = not p["fenced_within"]
                since, when = ((p["resumed"], f"after {ended}") if after
                               else (p["paused"], f"from the start of its {what}"))
                fenced = hbase_logs.fencing(self.server.process_log(rs), since)
                exited = not self.server.node_pids(node).get(rs)
                facts.update(fenced, process_exited=exited)
                told_dead = ("no YouAreDeadException" if fenced["you_are_dead_s"] is None
                             else f"YouAreDeadException after {fenced['you_are_dead_s']} s")
                said += (f"; {when} it logged {told_dead}, aborted after "
                         f"{fenced['aborting_s']} s "
                         f"({fenced['abort_reason'] or 'no ABORTING line'}), process "
                         + ("exited" if exited else f"still running after {FENCE_WAIT_S} s"))
                checks += [(f"the master declared region server {node} dead during its "
                            f"{what} (ZooKeeper session expired)", dead is not None),
                           (f"region server {node} was fenced after {ended} "
                            "(YouAreDeadException in its log, its process exited)" if after
                            else f"region server {node} aborted, declared dead by the master "
                                 f"(ABORTING in its log since its {what} began, its process "
                                 "exited)",
                            (fenced["you_are_dead_s"] if after else fenced["aborting_s"])
                            is not None and exited)]
                # where the client's outage went: when the master's crash procedure reopened
                # the server's regions elsewhere (the crash's reading of the master's log)
                facts["regions"] = self.fault_recovery(node, p["paused"])
                said += "; " + _reopened(facts["regions"], what)
            else:
                checks.append((f"the master did not declare region server {node} dead during "
                               f"its {what} ({quiet})", dead is None))
            out.append(facts)
            lines.append(f"{p['label']} of region server "
                         f"{node} and DataNode {node}: {said}")
        return {"pauses": out, "checks": checks, "lines": lines}

    def start_script_server(self):
        # the ports of run/hbase's last start (hbase.json), else hbase-local's defaults
        defaults = hbase_local.parser().parse_args(["status"])
        server = hbase_local.Server.load_or_create(defaults.run_dir, defaults)
        connection = {"hbase.zookeeper.property.clientPort": str(server.zk_port)}
        if server.pid():
            return connection, lambda: None
        return connection, started_here(lambda: hbase_local.start(server),
                                        lambda: hbase_local.stop(server))
