"""scripts/run-scenario: one documented scenario, every phase in order, on local servers or yours.

    scripts/run-scenario S2 --db both --scale local
    scripts/run-scenario S4 --db cassandra --scale cluster --hosts 10.0.0.1,10.0.0.2 --clients 4

Creates the schema (the bindings' createschema/createtable), loads, runs the phases (thread
sweeps, batch sizes, table variants, major compactions, S2's fault phase), printing progress.
Every measured run phase is warmed up first (warmup.py); `--repeat N` runs the whole sequence
N times, alternating the databases A,B,B,A,... so that a drift of the machine cancels.
Results: results/<scenario>/<timestamp>/<database>-<phase>/ (raw YCSB output, .hdr logs,
metadata.json), read by `.venv/bin/ycsb-report`. Without --hosts it starts the local servers it
needs (scripts/cassandra-local, scripts/hbase-local) and always stops what it started.
Documentation: docs/scenarios.md.
"""
import argparse
import json
import signal
import sys
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, List, Optional

from .arg_checks import validate_run_scenario
from .build import ensure_built
from .errors import ArgParser, ScriptError, run_main
from .local_servers import LocalCassandra, LocalHBase, LocalMySQL, ServerSet
from .paths import REPO_ROOT, run_dir
from .phase_runner import Phase, describe, run_phase, summary, ycsb_command
from .progress import Progress
from .scenario_plan import Composite, Context, estimate_seconds
from .scenarios import SCENARIOS, scenario_id
from .warmup import bounds as warmup_bounds

DATABASES = ["cassandra", "hbase"]  # --db both (and the quickstart's databases)
ALL_DATABASES = DATABASES + ["mysql"]  # --db all: S1 only, the report that measured MySQL
MYSQL_SCENARIOS = ["s1"]
START_ESTIMATE = {"cassandra": {1: 25, 3: 60}, "hbase": {1: 25, 3: 75}, "mysql": {1: 20}}


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
    node_failure: str = "crash"   # S2's fault phase: crash (SIGKILL) or drain (SIGTERM)
    mysql_port: int = 13306
    repeat: int = 1            # runs of every phase (--repeat)
    warmup: bool = True        # warm up before measured run phases (--no-warmup: not)
    ray: Optional[str] = None     # --ray: every phase's clients on this Ray cluster's loaders
    clients_per_node: int = 1


def connection(database: str, settings: Settings, server) -> Dict[str, str]:
    if database in settings.hosts:
        if database == "cassandra":
            return {"hosts": settings.hosts[database]}
        if database == "mysql":
            return {"db.url": settings.hosts[database]}
        return {"hbase.zookeeper.quorum": settings.hosts[database]}
    if database == "cassandra":
        return {"hosts": server.hosts()}
    return server.connection()


def local_server(database: str, nodes: int, settings: Settings):
    root = settings.run_root or run_dir("scenarios")
    if database == "cassandra":
        return LocalCassandra(root / "cassandra", nodes, settings.cassandra_address,
                              settings.cassandra_jmx_port)
    if database == "mysql":
        return LocalMySQL(root / "mysql", settings.mysql_port)
    zk, master, rs = settings.hbase_ports
    return LocalHBase(root / "hbase", zk, master, rs, nodes=nodes)


def alternating(databases: List[str], repeat: int) -> List[tuple]:
    """(database, repeat number) in the order A,B,B,A,A,B,...: a linear drift of the machine
    over the session hits both databases alike."""
    order = []
    for r in range(repeat):
        order += [(db, r + 1) for db in (databases if r % 2 == 0 else databases[::-1])]
    return order


def run_scenarios(scenarios: List[str], databases: List[str], settings: Settings, out: Path,
                  quick: bool = False) -> int:
    """Runs the phases of `scenarios` on each database in turn (servers of one database at a
    time), `settings.repeat` times in alternating order; returns the number of failed steps."""
    plans = []  # (database, server or None, steps)
    servers_of = {}
    for db in databases:
        nodes = max(getattr(SCENARIOS[s], f"{db.upper()}_NODES", 1) for s in scenarios)
        servers_of[db] = None if db in settings.hosts else local_server(db, nodes, settings)
    for db, repeat in alternating(databases, settings.repeat):
        server = servers_of[db]
        steps = []
        for s in scenarios:
            ctx = Context(s, db, settings.scale, settings.clients, connection(db, settings, server),
                          settings.user_files, settings.user_properties,
                          cassandra=server if db == "cassandra" and server else None,
                          hbase=server if db == "hbase" and server else None,
                          node_failure=settings.node_failure,
                          quick=quick, out_dir=out,
                          repeat=repeat if settings.repeat > 1 else 0, repeats=settings.repeat)
            steps += [(ctx, step) for step in SCENARIOS[s].plan(ctx)]
        plans.append((db, server, steps))
    index = 0  # phase_index of metadata.json: the order of the result phases
    for _, step in (st for _, _, steps in plans for st in steps):
        if isinstance(step, (Phase, Composite)):
            step.index = index
            index += step.phases if isinstance(step, Composite) else 1
    if settings.dry_run:
        return _print_plan(plans, out)

    estimates = []
    for db, server, steps in plans:
        if server:
            estimates.append(START_ESTIMATE[db].get(getattr(server, "nodes", 1), 75))
        estimates += [_estimate(ctx, step, settings) for ctx, step in steps]
        if server:
            estimates.append(10)
    # the client fleet (scripts/lib/ycsbpack/fleet): connected once; S2's fault phase stays local
    launcher = None
    if settings.ray:
        from .fleet.launcher import RayClients
        launcher = RayClients(settings.ray, settings.clients_per_node)
        # refuse now, before any server starts, when the cluster has too few loaders
        launcher.require(max((st.clients for _, _, steps in plans for _, st in steps
                              if isinstance(st, Phase)), default=1))
    progress = Progress(estimates)
    outcomes, n = [], 0
    out.mkdir(parents=True, exist_ok=True)
    servers = ServerSet()
    try:
        for db, server, steps in plans:
            if server:
                progress.begin(n, f"start local {db} servers")
                servers.start(server)
                progress.end(n)
                n += 1
            for ctx, step in steps:
                progress.begin(n, _what(ctx, step))
                ok, error = _run_step(step, out, _warmup(ctx, step, settings),
                                      server.pids if server else None, launcher)
                took = progress.end(n)
                outcomes.append({"database": db, "scenario": ctx.scenario, "step": step.name,
                                 "ok": ok, "seconds": round(took, 1), "error": error})
                n += 1
                if not ok and not settings.keep_going:
                    raise ScriptError(error)
                if not ok:
                    print(f"ERROR {error}\n(continuing: --keep-going)", file=sys.stderr, flush=True)
            if server:
                progress.begin(n, f"stop the local {db} servers this run started")
                servers.stop_started()
                progress.end(n)
                n += 1
    finally:
        servers.stop_started()
        (out / "scenario-run.json").write_text(json.dumps(
            {"scenarios": scenarios, "databases": databases, "scale": settings.scale,
             "steps": outcomes}, indent=2) + "\n")
    failed = [o for o in outcomes if not o["ok"]]
    print(f"== done in {progress.elapsed()}: {len(outcomes) - len(failed)} of {len(outcomes)} "
          f"steps succeeded; results in {out}", flush=True)
    for o in failed:
        print(f"   FAILED {o['database']} {o['step']}: {o['error'].splitlines()[0]}", flush=True)
    return len(failed)


def _warmup(ctx: Context, step, settings: Settings):
    """The warm-up of a measured phase (warmup.py); None for a load, a phase that consumes its
    data, steps that are not one phase, or --no-warmup."""
    if not isinstance(step, Phase) or not settings.warmup or not step.repeatable:
        return None
    return warmup_bounds(ctx.scale, ctx.merged(step.files_of(0), step.properties))


def _estimate(ctx: Context, step, settings: Settings) -> float:
    if isinstance(step, Phase):
        w = _warmup(ctx, step, settings)
        return estimate_seconds(ctx, step) + (min(w.max_s, 3 * w.window_s) + 6 if w else 0)
    return step.estimate_s


def _what(ctx: Context, step) -> str:
    if isinstance(step, Phase):
        files = ", ".join(Path(f).stem for f in step.files_of(0)
                          if Path(f).parent.name == ctx.scenario)
        clients = f" x {step.clients} clients" if step.clients > 1 else ""
        return (f"{ctx.database} {step.name} ({step.command} {files}; {step.threads} "
                f"thread{'s' if step.threads > 1 else ''}{clients})")
    return f"{ctx.database} {step.name}: {step.describe}"


def _run_step(step, out: Path, warmup=None, server_pids=None, launcher=None):
    """(ok, error message) of one step; ScriptErrors are failures of the step, not the run."""
    try:
        if isinstance(step, Phase):
            phase_dir = run_phase(step, out, warmup=warmup, server_pids=server_pids,
                                  launcher=launcher)
            print(summary(phase_dir), flush=True)
        elif isinstance(step, Composite):
            step.run(step.index)
        else:
            step.run()
        return True, ""
    except ScriptError as e:
        return False, f"{step.name}: {e}"


def _print_plan(plans, out: Path) -> int:
    for db, server, steps in plans:
        where = f"local servers in {server.run_dir}" if server else "your servers"
        print(f"# {db} on {where}")
        for ctx, step in steps:
            print(f"- {_what(ctx, step)}")
            if isinstance(step, Phase):
                for i in range(step.clients):
                    print(f"    {describe(ycsb_command(step, out / step.directory, i))}")
    return 0


def parser() -> argparse.ArgumentParser:
    p = ArgParser(prog="run-scenario", description=__doc__.splitlines()[0],
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
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="run every phase N times (fresh servers each time; with --db both in "
                        "the order A,B,B,A,...); the report gives medians and 95%% intervals")
    p.add_argument("--no-warmup", action="store_true",
                   help="measure run phases cold, without the warm-up before each (for comparing "
                        "with older results; the analysis then judges the steady window itself)")
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
    local.add_argument("--node-failure", choices=["crash", "drain"], default="crash",
                       help="how S2's fault phase takes a node down: crash = SIGKILL, a dead "
                            "machine (default); drain = SIGTERM, a graceful stop")
    return p


def settings_from(args) -> Settings:
    hosts = {}
    if args.hosts:
        hosts["hbase" if args.db == "hbase" else "cassandra"] = args.hosts
    if args.hbase_hosts:
        hosts["hbase"] = args.hbase_hosts
    if args.mysql_url:
        hosts["mysql"] = args.mysql_url
    if args.db == "both" and len(hosts) == 1:
        raise ScriptError("--db both with your own servers needs --hosts (Cassandra) and "
                          "--hbase-hosts (HBase ZooKeeper quorum)")
    if args.clients < 1:
        raise ScriptError(f"--clients {args.clients}: give 1 or more")
    if args.repeat < 1:
        raise ScriptError(f"--repeat {args.repeat}: give 1 or more")
    props = {}
    for kv in args.properties:
        if "=" not in kv:
            raise ScriptError(f"-p {kv}: expected KEY=VALUE")
        k, v = kv.split("=", 1)
        props[k] = v
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
                    args.dry_run, args.node_failure, args.mysql_port, args.repeat,
                    not args.no_warmup, args.ray, args.clients_per_node)


def timestamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _terminate_on_sigterm() -> None:
    """SIGTERM ends the run like Ctrl-C, so the servers it started are stopped."""
    def handler(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, handler)


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    sid = scenario_id(args.scenario)
    validate_run_scenario(args, sid, SCENARIOS[sid].CASSANDRA_NODES)
    settings = settings_from(args)
    if settings.ray and not settings.dry_run:
        from .fleet.ray_env import ensure_ray
        ensure_ray()
    databases = {"both": DATABASES, "all": ALL_DATABASES}.get(args.db, [args.db])
    if "mysql" in databases and sid not in MYSQL_SCENARIOS:
        raise ScriptError(f"--db {args.db}: MySQL runs {', '.join(MYSQL_SCENARIOS).upper()} only "
                          "(the anti-fraud report's comparison); use --db both for "
                          f"{sid.upper()}")
    out = (args.out or REPO_ROOT / "results" / sid / timestamp()).resolve()
    if not settings.dry_run:
        _terminate_on_sigterm()
        if not args.no_build:
            ensure_built()
    print(f"{SCENARIOS[sid].TITLE} on {', '.join(databases)}, {settings.scale} scale; "
          f"results in {out}", flush=True)
    failed = run_scenarios([sid], databases, settings, out)
    if not settings.dry_run:
        print(f"report: .venv/bin/ycsb-report {out} -o {out / 'report'}")
    return 1 if failed else 0


if __name__ == "__main__":
    run_main(main)
