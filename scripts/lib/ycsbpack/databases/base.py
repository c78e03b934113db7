"""The Database interface: what the runner, the scenarios and the bench scripts ask of one
database, answered once per database (cassandra.py, hbase.py, mysql.py).

A Database is the database's facts (its name, YCSB binding, the client property your own
servers are given in) and its behaviour on the local server a run starts, if any: `server` is
that server (servers/local_servers.py), None when the run uses your own cluster (--hosts,
--hbase-hosts, --mysql-url). Code outside this package never tells databases apart by name; it
asks the Database.
"""
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ClassVar, Dict, FrozenSet, List, Optional, Tuple

from ..core.errors import ScriptError
from ..servers import byteman, node_partition
from .fault_checks import WRITE, WRITE_RECORDS

# What an acknowledged write survives (metadata.json "durability", phases/durability.py): one
# scale for every database, so the analysis can hold the two sides of a comparison against
# each other
MACHINE = "a machine crash"   # on disk (fsync) before the acknowledgement
PROCESS = "a server process crash"   # in the OS's or the DataNodes' memory, not yet on disk
NOTHING = "nothing beyond the server process"   # in the server's own memory only


def window_words(window: dict) -> Tuple[str, str, str]:
    """How the checks of a fault window (its record: fault_windows.run_windows) name it, its
    end, and why the database should not notice it when it is short or one-sided:
    ("30 s pause", "it resumed", "below the failure detection")."""
    return window["what"], window["ends"], window["unnoticed"]


def started_here(start: Callable[[], None], stop: Callable[[], None]) -> Callable[[], None]:
    """Runs `start` and returns `stop`; stops what began to start when `start` fails or is
    interrupted (nothing a script started outlives it)."""
    try:
        start()
    except BaseException:
        stop()
        raise
    return stop


@dataclass
class Database(ABC):
    """One database of the pack, with the local server this run runs (None: your own)."""
    server: Optional[object] = None

    name: ClassVar[str]            # --db, the results' directory prefix, workloads/db/<name>
    title: ClassVar[str]           # in sentences
    binding: ClassVar[str]         # the YCSB binding (core/bindings.py) the pack runs it with
    hosts_property: ClassVar[str]  # the client property your own servers are given in
    # --hosts names its servers (Cassandra's contact points, HBase's ZooKeeper quorum); else
    # they come in an option of their own (MySQL: --mysql-url)
    takes_hosts: ClassVar[bool] = True
    # seconds to start the local server, by its number of nodes (the progress lines' estimate)
    start_s: ClassVar[Dict[int, int]]
    scenarios: ClassVar[Optional[Tuple[str, ...]]] = None  # the scenarios it runs; None: all
    # its tables carry compaction and caching options, which S1 varies (workloads/s1/
    # <name>-table-<variant>.properties: the table is dropped and recreated per variant)
    table_options: ClassVar[bool] = False

    @property
    def local(self) -> bool:
        """The run starts and drives this database's servers itself."""
        return self.server is not None

    def connection(self, hosts: Optional[str] = None) -> Dict[str, str]:
        """The client properties that reach it: your own servers `hosts`, else the local
        server."""
        return {self.hosts_property: hosts} if hosts else self.server.connection()

    @abstractmethod
    def local_server(self, run_dir: Path, nodes: int, settings,
                     cpus: Optional[FrozenSet[int]] = None):
        """The runner's local server of this database in `run_dir` (not started), from
        run-scenario's Settings (addresses and ports); `cpus`: the CPU set its processes run on."""

    def _not_here(self, what: str):
        """What a database does not do (MySQL: no compaction, no fault phase, no bench
        server), said in one sentence where a caller asks it anyway."""
        raise ScriptError(f"{self.title} has no {what} in this pack (it runs "
                          f"{', '.join(self.scenarios or ('every scenario',))}): choose "
                          "Cassandra or HBase for it")

    def start_estimate_s(self) -> int:
        """Seconds the local server takes to start (the progress lines' estimate)."""
        return self.start_s.get(getattr(self.server, "nodes", 1), 75)

    def saved_data_refusal(self) -> Optional[str]:
        """Why the local server's trials cannot start from saved data (runner/saved_data.py),
        None when they can."""
        return None

    # -- flush and major compaction (scenarios/scenario_actions.py) ---------------------------
    def compaction(self, keyspace: str, table: str) -> Optional[str]:
        """What a flush and major compaction of `table` is here, in words; None when the runner
        drives none on this database."""
        return None

    def compact(self, keyspace: str, table: str) -> None:
        """Flushes and major-compacts `table` on the local server, waiting until done."""
        self._not_here("flush and major compaction")

    # -- what an acknowledged write survives (phases/durability.py) ---------------------------
    def durability(self, settings: Dict[str, str], schema: str,
                   properties: Dict[str, str]) -> Optional[dict]:
        """metadata.json "durability" from the servers' `settings` and `schema` (bin/ycsb
        servers) and the clients' `properties`: {"survives": MACHINE | PROCESS | NOTHING, ...};
        None when the pack does not describe it."""
        return None

    # -- S2's fault phase (scenarios/fault_phase.py): node i of the local cluster --------------
    fault_traffic: ClassVar[str]  # the traffic of the node-down phase, in words
    fault_overhead_s: ClassVar[int]  # the fault step's estimate beyond its timed phases
    # the node-down phase ends once the client has recovered (the dead node's share served by
    # the others), at most fault_down_s; else after a fixed time
    recovers_while_down: ClassVar[bool] = False
    # the read-back's own properties (what makes every replica answer)
    fault_read_back: ClassVar[Dict[str, str]] = {}

    def node_name(self, node: int) -> str:
        """What node `node` is, in sentences."""
        self._not_here("fault phase")

    def fault_down_s(self, scale: str, fixed_s: int) -> int:
        """The node-down phase's time limit: `fixed_s`, the scale's, unless it lasts until the
        client recovered."""
        return fixed_s

    def judge_fault(self, down: dict, up: dict, back: dict, batch: int, tried: int,
                    node_failure: str, unavailability: dict) -> dict:
        """The fault phase's verdict from the Return= counts of its three phases (node down,
        restarted, read-back; databases/fault_checks.py): the figures and the (check, ok)
        list."""
        self._not_here("fault phase")

    # -- what a failed write means (every fault) -------------------------------------------------
    # Return= statuses of a batch write that was refused before anything was written (failed,
    # not indeterminate); any other failure may have landed
    refused_writes: ClassVar[FrozenSet[str]] = frozenset()
    # each row of a batch write succeeds or fails on its own (<WRITE>-RECORDS counts rows)
    acknowledges_rows: ClassVar[bool] = False

    def fault_outcomes(self, counts: dict) -> Dict[str, Dict[str, int]]:
        """{operation: {"ok", "failed", "indeterminate"}} of a phase's Return= counts: a read
        that failed changed nothing; a write that failed may have landed (indeterminate) unless
        its status says it was refused first."""
        out = {}
        for op, by_status in counts.items():
            if op.endswith("-RECORDS"):
                continue
            ok = by_status.get("OK", 0)
            bad = {s: n for s, n in by_status.items() if s != "OK"}
            maybe = (sum(n for s, n in bad.items() if s not in self.refused_writes)
                     if op == WRITE else 0)
            out[op] = {"ok": ok, "failed": sum(bad.values()) - maybe, "indeterminate": maybe}
        return out

    def write_keys(self, counts: dict, batch: int) -> Tuple[int, int]:
        """(acknowledged keys, keys of failed writes that may have landed) of a phase."""
        if self.acknowledges_rows:
            rows = counts.get(WRITE_RECORDS, {})
            return rows.get("OK", 0), sum(rows.values()) - rows.get("OK", 0)
        writes = self.fault_outcomes({WRITE: counts.get(WRITE, {})})[WRITE]
        return writes["ok"] * batch, writes["indeterminate"] * batch

    # -- S2's pause fault (scenarios/fault_pause.py): SIGSTOP, later SIGCONT, of node i ---------
    def pause_refusal(self, node: int) -> Optional[str]:
        """What is missing to pause node `node` and resume it (in words); None when nothing."""
        if not self.local:
            return ("the cluster is not local (your own servers): the runner cannot signal its "
                    "processes")
        if not hasattr(self.server, "pause_refusal"):
            return f"{self.title}'s local server has no processes per node to signal"
        return self.server.pause_refusal(node)

    def pause_node(self, node: int) -> Dict[str, int]:
        """SIGSTOP to node `node`'s processes; returns them for resume_node."""
        return self.server.pause_node(node)

    def resume_node(self, paused: Dict[str, int]) -> None:
        self.server.resume_node(paused)

    # -- S2's partition fault (scenarios/fault_partition.py): node i cut off ---------------------
    def partition_refusal(self, node: int) -> Optional[str]:
        """What is missing to cut node `node` off and heal it (in words); None when nothing:
        what a pause needs (its processes known, this runner's) and node_partition.missing."""
        return self.pause_refusal(node) or node_partition.missing()

    def cut_off(self, node: int, side: str) -> node_partition.Partition:
        """Node `node` cut off from its "peers" or its "clients" while the `with` block runs;
        every other server process of the cluster counts as a peer."""
        own = self.server.node_pids(node)
        peers = {name: pid for name, pid in self.server.pids().items()
                 if pid not in own.values()}
        return node_partition.Partition(own, peers, side)

    # -- S2's slow-disk fault (scenarios/fault_slow_disk.py): node i's log writes slowed -------
    slow_disk_point: ClassVar[Optional[byteman.Point]] = None   # None: not built for it

    def slow_disk_refusal(self, node: int) -> Optional[str]:
        """What is missing to slow node `node`'s log writes (in words); None when nothing."""
        if self.slow_disk_point is None:
            return f"the slow disk is not built for {self.title}"
        return self.pause_refusal(node) or byteman.missing()

    def slow_disk(self, node: int, delay_ms: str, trace: Path) -> byteman.Rules:
        """Node `node`'s log writes slowed by `delay_ms` (a Java long expression) each while
        the `with` block runs, every slowed call a line of `trace` (its directory holds the
        rule files and the agent's port: slow_disk_agent's `state`)."""
        point = self.slow_disk_point
        text = byteman.rule_text(f"ycsbpack slow disk of {point.process.format(node=node)}",
                                 point.klass, point.method, delay_ms, trace)
        return byteman.Rules(self._slowed_pid(node), text, trace.with_suffix(".btm"))

    def slow_disk_agent(self, node: int, state: Path) -> None:
        """The agent loaded into node `node`'s slowed process before the fault's traffic."""
        byteman.install(self._slowed_pid(node), state)

    def _slowed_pid(self, node: int) -> int:
        process = self.slow_disk_point.process.format(node=node)
        pid = self.server.node_pids(node).get(process)
        if not pid:
            raise ScriptError(f"{process} does not run: no disk of it to slow")
        return pid

    def failure_detection(self) -> dict:
        """How long a node that answers nothing goes unnoticed on the local cluster, from its
        settings: {"seconds": float, "how": in words}."""
        self._not_here("fault phase")

    def pause_effects(self, node: int, pauses: List[dict]) -> dict:
        """What the database did about each window of a fault of node `node` (their records,
        fault_windows.run_windows: "what", "label", "length_s", "long", "ends", "unnoticed",
        "fenced_within", "paused" and "resumed" in UTC ISO), from its logs and processes:
        {"pauses": [...], "checks": [(what, ok)], "lines": [...]}."""
        return {"pauses": [], "checks": [], "lines": []}

    def ready_for_fault(self, node: int) -> Tuple[List[str], Optional[dict]]:
        """Makes node `node` one whose fault the client would feel (HBase: a region server
        restarted after an earlier fault holds no region until the balancer moves some back);
        returns lines that say what was done (none: nothing needed) and the layout then
        (`layout`, read once)."""
        return [], self.layout()

    def layout(self) -> Optional[dict]:
        """Where the data lives on the local cluster, recorded before and after the fault
        (HBase: regions per region server); None when it is not read."""
        return None

    def fault_recovery(self, node: int, node_down: str) -> Optional[dict]:
        """From the servers' own logs: how the others took over from node `node`, down since
        `node_down` (UTC, ISO); None when it is not read."""
        return None

    # -- the bench scripts (bench/): the server of scripts/<name>-local's defaults --------------
    def start_script_server(self) -> Tuple[Dict[str, str], Callable[[], None]]:
        """Starts the server of scripts/<name>-local's default run directory unless it runs:
        (the client properties that reach it beyond the defaults', a function that stops it
        again if it was started here)."""
        self._not_here("server for the bench scripts")
