"""scripts/run-scenario: one documented scenario, every phase in order, on local servers or yours.

    scripts/run-scenario S2 --db both --scale local
    scripts/run-scenario S4 --db cassandra --scale cluster --hosts 10.0.0.1,10.0.0.2 --clients 4

Creates the schema (the bindings' createschema/createtable), loads, runs the phases (thread
sweeps, batch sizes, table variants, major compactions, S2's fault phase), printing progress.
Every measured run phase is warmed up first (warmup.py); `--repeat N` runs the whole sequence
N times, alternating the databases A,B, B,A, B,A, A,B, ... so that a drift of the machine cancels.
Results: results/<scenario>/<timestamp>/<database>-<phase>/ (raw YCSB output, .hdr logs,
metadata.json), read by `.venv/bin/ycsb-report`. Without --hosts it starts the local servers it
needs (scripts/cassandra-local, scripts/hbase-local) and always stops what it started.
Documentation: docs/scenarios.md.
"""
import json
import signal
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, List, Optional

from ..core import cpu_sets
from ..core.arg_checks import validate_run_scenario
from ..core.build import ensure_built
from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT, run_dir
from ..databases import database
from ..fleet.ray_clients import RayClients
from ..fleet.ray_env import ensure_ray
from ..phases.phase_runner import Phase, run_phase, summary
from ..scenarios.catalogue import SCENARIOS, scenario_id
from ..scenarios.scenario_plan import Composite, Context, estimate_seconds
from ..servers.local_servers import ServerSet
from . import reruns, saved_data
from .aa import aa_sides, as_side, phases_of
from .capacity import CapacitySearch, searches
from .dry_run import phase_warmup, print_plan, step_line
from .progress import Progress, _clock
from .saved_data import SavedData
from .scenario_args import ALL_DATABASES, DATABASES, Settings, parser, settings_from
from .trials import (
    MIN_TRIALS,
    measure,
    planned_pairs,
    progress_lines,
    stop_reason,
)


def local_server(db: str, nodes: int, settings: Settings, cpus=None):
    """The runner's local server of `db` in run/scenarios/<db> (or --run-dir's); `cpus`: the CPU
    set its processes run on."""
    root = settings.run_root or run_dir("scenarios")
    return database(db).local_server(root / db, nodes, settings, cpus)


def alternating(databases: List[str], repeat: int) -> List[tuple]:
    """(database, trial number) in the order of block_order: A,B, B,A, B,A, A,B, ..."""
    order = []
    for r in range(repeat):
        order += [(db, r + 1) for db in block_order(databases, r + 1)]
    return order


def block_order(databases: List[str], trial: int) -> List[str]:
    """The databases of trial `trial` (1, 2, ...), the pairs in the Thue-Morse order: A,B, B,A,
    B,A, A,B, B,A, A,B, A,B, B,A, ... (B first when trial - 1 has an odd number of 1 bits).
    Every 2 pairs cancel a linear drift of the machine, every 4 a quadratic one too: a rise and
    fall across the trials, or a peak inside every block, which A,B,B,A repeated turns into a
    false difference (scripts/tests/test_trial_order.py)."""
    return list(databases) if bin(trial - 1).count("1") % 2 == 0 else list(databases)[::-1]


def _plan(db: str, trial: int, scenarios: List[str], settings: Settings, server, out: Path,
          quick: bool) -> list:
    """(context, step) of every step of `scenarios` on `db` in trial `trial`."""
    steps = []
    numbered = settings.trials.numbered
    for s in scenarios:
        target = database(db, server)  # the database these steps run on
        ctx = Context(s, target, settings.scale, settings.clients,
                      target.connection(settings.hosts.get(db)),
                      settings.user_files, settings.user_properties,
                      faults=settings.faults, quick=quick, out_dir=out,
                      repeat=trial if numbered else 0,
                      repeats=settings.trials.planned if numbered else 1,
                      client_cp=settings.client_cp)
        steps += [(ctx, step) for step in SCENARIOS[s].plan(ctx)]
    if settings.only:
        # loads and actions stay: a trial needs its data; run phases and the steps that run
        # phases of their own (S2's fault phase) go unless named
        def measured(st):
            return (isinstance(st, Phase) and st.command != "load") or isinstance(st, Composite)
        runs = [st.name for _, st in steps if measured(st)]
        steps = [(c, st) for c, st in steps if not measured(st)
                 or any(st.name.startswith(o) for o in settings.only)]
        if not any(measured(st) or any(st.name.startswith(o) for o in settings.only)
                   for _, st in steps):  # (--only load: the loads and the steps after them)
            raise ScriptError(f"--only {','.join(settings.only)}: no run phase of "
                              f"{', '.join(scenarios).upper()} starts so; its run phases on "
                              f"{db}: {', '.join(runs)}")
    steps = searches(steps, settings.slo, settings.scale, settings.slo_check)
    index = 0  # phase_index of metadata.json: the order of the result phases within a trial
    for _, step in steps:
        if isinstance(step, (Phase, Composite, CapacitySearch)):
            step.index = index
            index += getattr(step, "phases", 1)
        if settings.trials.design:  # the report draws the interval the design promises
            for phase in phases_of(step, loads=True):
                phase.notes["trials_design"] = settings.trials.design
    return steps


def run_scenarios(scenarios: List[str], databases: List[str], settings: Settings, out: Path,
                  quick: bool = False) -> int:
    """Runs the phases of `scenarios` on each database in turn (servers of one database at a
    time), trial after trial in pairs A,B, B,A, B,A, A,B, ... (trials.py: a fixed number, or
    until the headline ratios are precise enough); returns the number of failed steps."""
    local = [db for db in databases if db not in settings.hosts]
    # servers and clients on their own cores when they share this host (cpu_sets.py)
    cpus = cpu_sets.choose(settings.cpu_sets) if local and not settings.ray else None
    servers_of = {}
    for db in databases:
        nodes = max(getattr(SCENARIOS[s], f"{db.upper()}_NODES", 1) for s in scenarios)
        servers_of[db] = (None if db in settings.hosts
                          else local_server(db, nodes, settings, cpus.servers if cpus else None))
    saved = SavedData((settings.run_root or run_dir("scenarios")) / "saved-data",
                      warm=settings.trial_servers == "warm")
    loads_each = {db: saved_data.why_not(scenarios, db, settings, servers_of[db])
                  for db in databases}
    rule = settings.trials
    if settings.dry_run:
        plans = [(db, servers_of[db], _plan(db, 1, scenarios, settings, servers_of[db], out, quick))
                 for db in databases]
        return print_plan(plans, out, settings, rule, block_order)
    # the client fleet (scripts/lib/ycsbpack/fleet): connected once; S2's fault phase stays local
    launcher = None
    if settings.ray:
        launcher = RayClients(settings.ray, settings.clients_per_node)
        # refuse now, before any server starts, when the cluster has too few loaders
        launcher.require(max((st.clients for db in databases for _, st in
                              _plan(db, 1, scenarios, settings, servers_of[db], out, quick)
                              if isinstance(st, Phase)), default=1))
    outcomes = []
    out.mkdir(parents=True, exist_ok=True)
    servers = ServerSet()
    # the two sides of the comparison: the databases, or one database twice (--aa)
    db_of = aa_sides(databases[0]) if settings.aa else {db: db for db in databases}
    sides = list(db_of)
    session = Session(servers_of, loads_each, saved, launcher, servers, db_of)
    t0 = time.monotonic()
    why = None
    if local and not settings.ray:
        print(f"CPU sets: {cpus.describe() if cpus else 'servers and clients share every core'}"
              f" (--cpu-sets {settings.cpu_sets})", flush=True)
    if settings.aa:
        print(f"A/A: {databases[0]} as both sides ({' and '.join(sides)}), the same "
              "configuration: a difference called between them is a false call", flush=True)
    for db in databases:
        print(f"{db}: " + (f"each trial loads ({loads_each[db]})" if loads_each[db] else
                           "loaded once; the servers stay up and that data is restored under "
                           "them before each trial (--trial-servers warm)" if saved.warm else
                           "loaded once; every trial starts fresh servers on a copy of that "
                           "data (--load-each-trial: load in each)"), flush=True)
    try:
        trial, planned, rerun = 0, None, 0
        while why is None:
            trial += 1
            block_t0 = time.monotonic()
            for side in block_order(sides, trial):
                with cpu_sets.confined(cpus.clients if cpus else None):
                    outcomes += _trial(side, trial, scenarios, settings, out, quick, session)
                block_t0 += session.prepare_s.pop(side, 0.0)  # a load once: not every block's
            found = None
            if rule.precision and trial >= MIN_TRIALS:
                found = measure(out, rule.precision, rule.first_stage)
                with cpu_sets.confined(cpus.clients if cpus else None):
                    done, again = reruns.run_again(
                        out, found.unsteady_trials, "its measured window was NOT steady ("
                        + "; ".join(found.unsteady) + ")", rerun, trial, rule.max_trials,
                        lambda side: bool(session.loads_each[db_of[side]]),
                        lambda side, number: _trial(side, number, scenarios, settings, out,
                                                    quick, session))
                if done > rerun:
                    rerun, outcomes = done, outcomes + again
                    found = measure(out, rule.precision, rule.first_stage)
                print(progress_lines(found, trial), flush=True)
                if trial == rule.first_stage:
                    planned = planned_pairs(found, trial)
                    print(f"  first stage done: {planned or 'more than 200'} pairs in all for "
                          f"+-{rule.precision:.0%} (two-stage rule)", flush=True)
            why = stop_reason(rule, trial, time.monotonic() - t0,
                              time.monotonic() - block_t0, found, planned)
            if why is None and any(not o["ok"] for o in outcomes) and not settings.keep_going:
                why = "a step failed"
    finally:
        servers.stop_started()
        saved.discard()
        (out / "scenario-run.json").write_text(json.dumps(
            {"scenarios": scenarios, "databases": databases, "scale": settings.scale,
             "trials": trial, "reruns": rerun, "stopped": why,
             "precision_target": rule.precision,
             "trials_design": rule.design, "planned_pairs": planned,
             "trial_servers": settings.trial_servers,
             "cpu_sets": ({"servers": sorted(cpus.servers), "clients": sorted(cpus.clients)}
                          if cpus else None),
             "start_state": {db: (f"loaded in each trial: {w}" if w else "saved data")
                             for db, w in loads_each.items()},
             "steps": outcomes}, indent=2) + "\n")
    failed = [o for o in outcomes if not o["ok"]]
    print(f"== done in {_clock(time.monotonic() - t0)}: {trial} trial(s) "
          f"({why}); {len(outcomes) - len(failed)} of {len(outcomes)} steps succeeded; "
          f"results in {out}", flush=True)
    for o in failed:
        print(f"   FAILED {o['database']} {o['step']}: {o['error'].splitlines()[0]}", flush=True)
    return len(failed)


@dataclass
class Session:
    """What the trials of one run share: each database's servers, whether it loads in every
    trial (and why) or starts from saved data, the client launcher, the servers started."""
    servers_of: Dict[str, object]
    loads_each: Dict[str, Optional[str]]
    saved: SavedData
    launcher: object
    servers: ServerSet
    db_of: Dict[str, str]  # side -> its database (the same for both sides of an A/A run)
    prepare_s: Dict[str, float] = field(default_factory=dict)  # a side's load-once seconds


def _trial(side: str, trial: int, scenarios: List[str], settings: Settings, out: Path,
           quick: bool, session: Session) -> List[dict]:
    """Trial `trial` of one side: its database's steps on fresh servers; from saved data (loaded
    once, the first time) unless the database loads in every trial."""
    db = session.db_of[side]
    server = session.servers_of[db]
    steps = _plan(db, trial, scenarios, settings, server, out, quick)
    if side != db:  # a side of an A/A run
        as_side(steps, side, db, settings.b_properties)

    def run(steps, what="", start=True, stop=True):
        done = _run_trial(db, server, steps, settings, out, session.launcher, session.servers,
                          trial, what, start, stop)
        return [dict(o, database=side) for o in done]
    if session.loads_each[db]:
        return run(steps)
    prepare, measured = saved_data.split(steps)
    outcomes, warm = [], session.saved.warm  # warm: the load's servers stay up for every trial
    if not session.saved.have(db):
        t0 = time.monotonic()
        outcomes += run(prepare, "load once", stop=not warm)
        session.saved.save(db, server)
        session.prepare_s[side] = time.monotonic() - t0
    start_state = session.saved.restore(db, server)
    for _, step in measured:
        for phase in phases_of(step):
            phase.notes["start_state"] = start_state
    return outcomes + run(measured, start=not warm, stop=not warm)


def _run_trial(db: str, server, steps: list, settings: Settings, out: Path, launcher,
               servers: ServerSet, trial: int, what: str = "", start: bool = True,
               stop: bool = True) -> List[dict]:
    """One trial of one database (or, `what` = "load once", the load its trials start from):
    start its servers, every step, stop them (not `start`, `stop`: warm trials, the servers
    stay up from one trial to the next)."""
    rule = settings.trials
    server_start, server_stop = (server if start else None), (server if stop else None)
    estimates = [database(db, server).start_estimate_s()] if server_start else []
    estimates += [_estimate(ctx, step, settings) for ctx, step in steps]
    estimates += [10] if server_stop else []
    of = (f"trial {trial} of {rule.planned}" if not rule.precision
          else f"trial {trial} (at most {rule.max_trials}; until +-{rule.precision:.0%})")
    progress = Progress(estimates, f"{db} {what or of}" if rule.numbered or what else db)
    outcomes, n = [], 0
    if server_start:
        progress.begin(n, f"start local {db} servers")
        servers.start(server)
        progress.end(n)
        n += 1
    for ctx, step in steps:
        progress.begin(n, step_line(ctx, step))
        ok, error = _run_step(step, out, phase_warmup(ctx, step, settings),
                              server.pids if server else None, launcher,
                              _watch(settings, server))
        took = progress.end(n)
        outcomes.append({"database": db, "scenario": ctx.scenario, "trial": trial,
                         "step": step.name, "ok": ok, "seconds": round(took, 1),
                         "error": error})
        if getattr(step, "result", None):
            outcomes[-1]["capacity"] = step.result  # the search's own account (capacity.py)
        n += 1
        if not ok and not settings.keep_going:
            raise ScriptError(error)
        if not ok:
            print(f"ERROR {error}\n(continuing: --keep-going)", file=sys.stderr, flush=True)
    if server_stop:
        progress.begin(n, f"stop the local {db} servers this trial started")
        servers.stop_started(discard=what != "load once" and getattr(server, "keep_data", False))
        progress.end(n)
    return outcomes


def _estimate(ctx: Context, step, settings: Settings) -> float:
    if isinstance(step, CapacitySearch):
        return step.phases * _estimate(ctx, step.phase, settings)
    if isinstance(step, Phase):
        w = phase_warmup(ctx, step, settings)
        return (estimate_seconds(ctx, step) + (min(w.max_s, 3 * w.window_s) + 6 if w else 0)
                + (10 if step.then else 0))
    return step.estimate_s


def _watch(settings: Settings, server) -> dict:
    """run_phase's options for sampling the servers (phases/server_watch.py)."""
    return {"watch_servers": settings.watch_servers,
            "probe_properties": getattr(server, "probe_properties", dict)(),
            "node_names": getattr(server, "node_names", dict)()}


def _run_step(step, out: Path, warmup=None, server_pids=None, launcher=None, watch=None):
    """(ok, error message) of one step; ScriptErrors are failures of the step, not the run.
    `watch`: run_phase's watch_servers and probe_properties."""
    watch = watch or {}
    try:
        if isinstance(step, Phase):
            phase_dir = run_phase(step, out, warmup=warmup, server_pids=server_pids,
                                  launcher=launcher, **watch)
            print(summary(phase_dir), flush=True)
        elif isinstance(step, CapacitySearch):
            step.run(lambda p: run_phase(p, out, warmup=warmup, server_pids=server_pids,
                                         launcher=launcher, **watch))
        elif isinstance(step, Composite):
            step.run(step.index)
        else:
            step.run()
        return True, ""
    except ScriptError as e:
        return False, f"{step.name}: {e}"


def timestamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def terminate_on_sigterm() -> None:
    """SIGTERM ends the run like Ctrl-C, so the servers it started are stopped."""
    def handler(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, handler)


def main(argv=None) -> int:
    args = parser(__doc__).parse_args(argv)
    sid = scenario_id(args.scenario)
    validate_run_scenario(args, sid, SCENARIOS[sid].CASSANDRA_NODES)
    settings = settings_from(args)
    if settings.ray and not settings.dry_run:
        ensure_ray()
    databases = {"both": DATABASES, "all": ALL_DATABASES}.get(args.db, [args.db])
    for db in map(database, databases):
        if db.scenarios and sid not in db.scenarios:
            raise ScriptError(f"--db {args.db}: {db.title} runs {', '.join(db.scenarios).upper()} "
                              f"only (the reports that measured it); use --db both for "
                              f"{sid.upper()}")
    out = (args.out or REPO_ROOT / "results" / sid / timestamp()).resolve()
    if not settings.dry_run:
        terminate_on_sigterm()
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
