"""The command line of scripts/run-scenario: its options and the Settings they make."""
import argparse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

from ..core import cpu_sets
from ..core.errors import ArgParser, ScriptError
from ..databases import NAMES, database
from ..scenarios import fault_list
from .capacity import Objective, add_capacity_option, parse_objective
from .trials import TrialRule, add_trial_options, trial_rule

DATABASES = ["cassandra", "hbase"]  # --db both (and the quickstart's databases)
ALL_DATABASES = list(NAMES)  # --db all: S1 only, the report that measured MySQL


TRIAL_SERVERS = ["fresh", "warm"]


@dataclass
class Settings:
    """How and where to run: what the command line says."""
    scale: str = "local"
    clients: int = 1
    hosts: Dict[str, str] = field(default_factory=dict)      # database -> --hosts value
    user_files: List[str] = field(default_factory=list)
    user_properties: Dict[str, str] = field(default_factory=dict)
    run_root: Path = None
    cassandra_address: str = "127.0.0.1"
    cassandra_jmx_port: int = 7199
    hbase_ports: tuple = (2181, 16000, 16020)
    keep_going: bool = False
    dry_run: bool = False
    # S2's faults, one fault phase each, in this order (scenarios/fault_list.py)
    faults: List[str] = field(default_factory=lambda: list(fault_list.DEFAULT))
    mysql_port: int = 13306
    trials: TrialRule = field(default_factory=TrialRule)  # --repeat, --precision, budgets
    warmup: bool = True        # warm up before measured run phases (--no-warmup: not)
    ray: Optional[str] = None     # --ray: every phase's clients on this Ray cluster's loaders
    clients_per_node: int = 1
    only: List[str] = field(default_factory=list)  # --only: run phases whose names start so
    slo: Optional[Objective] = None  # --slo: a capacity search of each run phase (capacity.py)
    slo_check: bool = False  # --slo-check: runs at 0.9 and 1.25 x each capacity found
    watch_servers: bool = True  # sample the servers during each phase (--no-server-watch: not)
    client_cp: List[str] = field(default_factory=list)  # --client-cp: jars before the binding's
    # local servers: trials of an opted-in scenario start from the data loaded once
    # (saved_data.py; --load-each-trial: not); servers and clients on disjoint CPU sets or not
    # (--cpu-sets auto, split or shared: core/cpu_sets.py)
    saved_data: bool = True
    cpu_sets: str = "auto"
    aa: bool = False  # --aa: one database as both sides of the comparison (run_scenario.aa_sides)
    # --b-property (with --aa): side B's measured phases also get these YCSB properties
    b_properties: Dict[str, str] = field(default_factory=dict)
    # --trial-servers: fresh servers for each trial (on a copy of the saved data), or warm: the
    # servers of the load stay up and the saved data is restored under them (servers/live_state)
    trial_servers: str = "fresh"


def parser(doc: str) -> argparse.ArgumentParser:
    """run-scenario's options; `doc`: its module docstring (the first line describes it)."""
    p = ArgParser(prog="run-scenario", description=doc.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="Scales: cluster = the reports' counts and threads; "
                                       "local = 2 cores, minutes; ci = seconds per phase (tests). "
                                       "See docs/scenarios.md.")
    p.add_argument("scenario", help="S1, S2, S3, S4 (or a name: list-append, cassandra-vs-hbase, "
                                    "tps-ceiling, update-heavy)")
    p.add_argument("--db", choices=ALL_DATABASES + ["both", "all"], default="cassandra",
                   help="database(s) to run on: cassandra (default), hbase, mysql (S1 only), "
                        "both (cassandra and hbase) or all (the three, S1 only)")
    p.add_argument("--scale", choices=["local", "cluster", "ci"], default="local",
                   help="record counts, threads and times (default local)")
    p.add_argument("--hosts", help="your Cassandra contact points (or, with --db hbase, your "
                                   "ZooKeeper quorum): no local servers are started")
    p.add_argument("--hbase-hosts", help="your HBase ZooKeeper quorum (with --db both)")
    p.add_argument("--mysql-url",
                   help="your MySQL/MariaDB as a db.url (jdbc:mysql://host:3306/db "
                        "or jdbc:mariadb://...); give db.user/db.passwd in a -P file")
    p.add_argument("--clients", type=int, default=1,
                   help="YCSB client processes per phase (loads split the keys; S2-S4)")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="run every phase's clients on the loader nodes of this Ray cluster "
                        "(host:port, ray://host:10001, auto = $RAY_ADDRESS); README: Client fleet")
    p.add_argument("--clients-per-node", type=int, default=1,
                   help="with --ray: clients packed on one loader node (default 1)")
    p.add_argument("--out", type=Path, help="results directory (default "
                                            "results/<scenario>/<UTC timestamp>)")
    p.add_argument("-p", dest="properties", action="append", default=[], metavar="KEY=VALUE",
                   help="a property for every phase (beats the workload files)")
    p.add_argument("-P", dest="files", action="append", default=[], metavar="FILE",
                   help="a property file for every phase, read last (e.g. your credentials)")
    add_trial_options(p)
    add_capacity_option(p)
    p.add_argument("--no-warmup", action="store_true",
                   help="measure run phases cold, without the warm-up before each (for comparing "
                        "with older results; the analysis then judges the steady window itself)")
    p.add_argument("--no-server-watch", action="store_true",
                   help="do not sample the servers during each phase (bin/ycsb servers -watch "
                        "and /proc; docs/provenance.md): for measuring what sampling costs")
    p.add_argument("--client-cp", action="append", default=[], metavar="PATH",
                   help="a jar or directory put before the binding's on every client's classpath "
                        "(e.g. another driver or Netty version to compare; metadata.json records "
                        "the versions that ran)")
    p.add_argument("--only", metavar="NAMES",
                   help="run only the run phases whose names start with one of these "
                        "(comma-separated, e.g. update-heavy); loads and the steps between "
                        "phases stay")
    p.add_argument("--keep-going", action="store_true",
                   help="run the remaining phases after a failed one")
    p.add_argument("--dry-run", action="store_true",
                   help="print the phases and YCSB commands without running anything")
    p.add_argument("--no-build", action="store_true",
                   help="use the bindings as built (default: mvn package what is missing or "
                        "older than its sources)")
    local = p.add_argument_group("local servers (without --hosts)")
    local.add_argument("--run-dir", type=Path,
                       help="run directory of the local servers (default run/scenarios)")
    local.add_argument("--cassandra-address", default="127.0.0.1",
                       help="loopback address of Cassandra node1 (default 127.0.0.1)")
    local.add_argument("--cassandra-jmx-port", type=int, default=7199)
    local.add_argument("--mysql-port", type=int, default=13306,
                       help="port of the local MariaDB on 127.0.0.1 (default 13306)")
    local.add_argument("--hbase-ports", default="2181,16000,16020",
                       help="ZooKeeper, master and region server ports (default 2181,16000,16020; "
                            "a cluster also uses master+1, master+2 for HDFS and region server "
                            "port + i - 1 for region server i)")
    p.add_argument("--aa", action="store_true",
                   help="A/A: run the one --db as both sides (A,B, B,A, ...) and report the "
                        "smallest difference this environment resolves (docs/method.md)")
    p.add_argument("--b-property", action="append", default=[], metavar="KEY=VALUE",
                   help="with --aa: side B's measured phases also get this YCSB property: one "
                        "database, one change (e.g. target=9000, a known difference: the A/A "
                        "method's power check)")
    local.add_argument("--load-each-trial", action="store_true",
                       help="load in every trial instead of starting each trial's fresh servers "
                            "on a copy of the data loaded once (S4; docs/method.md)")
    local.add_argument("--trial-servers", choices=TRIAL_SERVERS, default="fresh",
                       help="fresh (default): each trial starts fresh servers on a copy of the "
                            "data loaded once; warm: the servers of the load stay up and that "
                            "data is restored under them before each trial (the databases' own "
                            "snapshots: cheaper trials, one server lifetime per side; "
                            "docs/method.md)")
    local.add_argument("--cpu-sets", choices=cpu_sets.MODES, default="auto",
                       help="split: local servers on the first half of the cores, clients on the "
                            "other half; shared: both on every core; auto (default): split from "
                            f"{cpu_sets.AUTO_MIN_CORES} cores on (docs/method.md)")
    local.add_argument("--faults", type=fault_list.parse_faults, metavar="FAULTS",
                       help="S2's faults, one fault phase each, in this order (comma list; "
                            "default crash): crash = node 3 killed (SIGKILL), a dead machine; "
                            "drain = stopped (SIGTERM); pause = stopped (SIGSTOP) and resumed "
                            "(SIGCONT), shorter and longer than the failure detection; "
                            "partition = cut off from its clients, then from its peers "
                            "(packets dropped; needs root, nft, net_cls); slow-disk = its "
                            "commit log / WAL writes 100 ms slower, then stalled (Byteman) "
                            "(docs/faults/)")
    local.add_argument("--node-failure", choices=["crash", "drain"],
                       help="the older spelling of --faults crash or --faults drain")
    return p


def settings_from(args) -> Settings:
    hosts = {}
    if args.hosts:  # the one --db's servers when --hosts names them, else Cassandra's
        one = args.db if args.db in NAMES and database(args.db).takes_hosts else "cassandra"
        hosts[one] = args.hosts
    if args.hbase_hosts:
        hosts["hbase"] = args.hbase_hosts
    if args.mysql_url:
        hosts["mysql"] = args.mysql_url
    if args.db == "both" and len(hosts) == 1:
        raise ScriptError("--db both with your own servers needs --hosts (Cassandra) and "
                          "--hbase-hosts (HBase ZooKeeper quorum)")
    if args.slo_check and not args.slo:
        raise ScriptError("--slo-check checks the capacity a search found: give --slo too")
    if args.faults and args.node_failure:
        raise ScriptError("--node-failure is the older spelling of --faults: give one of them "
                          f"(--faults {args.node_failure} for --node-failure {args.node_failure})")
    faults = args.faults or ([args.node_failure] if args.node_failure
                             else list(fault_list.DEFAULT))
    if args.clients < 1:
        raise ScriptError(f"--clients {args.clients}: give 1 or more")
    props = key_values(args.properties, "-p")
    b_props = b_properties(getattr(args, "b_property", []))
    if b_props and not getattr(args, "aa", False):
        raise ScriptError("--b-property changes side B of an --aa run: give --aa (and one --db)")
    for f in args.files:
        if not Path(f).is_file():
            raise ScriptError(f"-P {f}: no such property file")
    try:
        ports = tuple(int(x) for x in args.hbase_ports.split(","))
        assert len(ports) == 3
    except (ValueError, AssertionError):
        raise ScriptError(
            f"--hbase-ports {args.hbase_ports}: give three ports, e.g. 2181,16000,16020"
        )
    return Settings(args.scale, args.clients, hosts, [str(Path(f).resolve()) for f in args.files],
                    props, args.run_dir.resolve() if args.run_dir else None,
                    args.cassandra_address, args.cassandra_jmx_port, ports, args.keep_going,
                    args.dry_run, faults, args.mysql_port, trial_rule(args),
                    not args.no_warmup, args.ray, args.clients_per_node,
                    [o.strip() for o in (args.only or "").split(",") if o.strip()],
                    parse_objective(args.slo) if args.slo else None, args.slo_check,
                    not args.no_server_watch, [_client_cp(c) for c in args.client_cp],
                    not args.load_each_trial, args.cpu_sets, aa(args), b_props,
                    args.trial_servers)


def b_properties(given: List[str]) -> Dict[str, str]:
    """--b-property KEY=VALUE ...; a target must be a rate (ops/s above 0)."""
    out = key_values(given, "--b-property")
    if "target" in out:
        try:
            ok = float(out["target"]) >= 1
        except ValueError:
            ok = False
        if not ok:
            raise ScriptError(f"--b-property target={out['target']}: give a rate in ops/s, 1 or "
                              "more (side B's clients are held to it)")
    return out


def key_values(given: List[str], option: str) -> Dict[str, str]:
    """KEY=VALUE options as a dict; a clear error for anything else."""
    out = {}
    for kv in given:
        if "=" not in kv or not kv.split("=", 1)[0]:
            raise ScriptError(f"{option} {kv}: expected KEY=VALUE")
        k, v = kv.split("=", 1)
        out[k] = v
    return out


def aa(args) -> bool:
    """--aa: valid with one database only."""
    if not getattr(args, "aa", False):
        return False
    if args.db in ("both", "all"):
        raise ScriptError(f"--aa with --db {args.db}: an A/A run compares one database with "
                          "itself; give --db cassandra or --db hbase")
    return True


def _client_cp(path: str) -> str:
    p = Path(path)
    if not p.exists():
        raise ScriptError(f"--client-cp {path}: no such jar or directory; give the path of a jar "
                          "(or a directory of classes) to put before the binding's")
    return str(p.resolve())
