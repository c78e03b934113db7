"""scripts/fleet run: one bin/ycsb command fanned out over N loader nodes of a Ray cluster.

    scripts/fleet run --ray 127.0.0.1:6390 --clients 3 -- \
        load cassandra4 -P my.properties -threads 8
    scripts/fleet run --clients 3 -- run cassandra4 -P my.properties -p operationcount=300000

The N clients split the work as run-scenario's local clients do (phase_runner.client_split:
loads get disjoint key ranges, runs share -target and get their own insert ranges); results
go to <out>/<label>/ in the runner layout (client-<i>.out/.err, hdr/, metadata.json), which
`.venv/bin/ycsb-report <out>` reads.

    scripts/fleet run --warmup --clients 3 -- run cassandra4 -P my.properties \
        -p maxexecutiontime=300

--warmup warms a run phase up in the same clients until steady, then measures its
maxexecutiontime (phases/warmup.py, as run-scenario does; the stop reaches every loader through
Ray).
"""

import argparse
import shlex
import sys
from datetime import datetime, timezone
from pathlib import Path

from ..core.bindings import BINDINGS
from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT
from ..phases.phase_runner import Phase, run_phase, summary
from ..phases.properties import read_property_files
from ..phases.warmup import SCALE_BOUNDS
from ..phases.warmup import bounds as warmup_bounds
from .ray_env import ensure_ray

DATABASES = {"cassandra4": "cassandra", "hbase-salted": "hbase", "basic": "basic"}


def phase_from_args(args: list, clients: int, label: str) -> Phase:
    """A Phase for a plain bin/ycsb command line (load|run <binding> [options])."""
    if len(args) < 2 or args[0] not in ("load", "run"):
        raise ScriptError(
            "after --, give a bin/ycsb command: load|run <binding> [options], "
            f"e.g. -- run cassandra4 -P workload.properties (got: {shlex.join(args)})"
        )
    command, binding, rest = args[0], args[1], args[2:]
    if binding not in BINDINGS:
        raise ScriptError(f"unknown binding '{binding}'; known: {', '.join(BINDINGS)}")
    files, props, extra = [], {}, []
    threads, target, ycsb_label = 1, None, ""
    i = 0
    while i < len(rest):
        a = rest[i]
        value = rest[i + 1] if i + 1 < len(rest) else None
        if a in ("-P", "-p", "-threads", "-target", "-l", "-cp", "-jvm-args") and value is None:
            raise ScriptError(f"option {a} needs a value")
        if a == "-P":
            if not Path(value).is_file():
                raise ScriptError(f"-P {value}: no such workload file")
            files.append(str(Path(value).resolve()))
        elif a == "-p":
            if "=" not in value:
                raise ScriptError(f"-p {value}: expected key=value")
            k, v = value.split("=", 1)
            props[k] = v
        elif a in ("-threads", "-target"):
            try:
                n = int(value)
            except ValueError:
                raise ScriptError(f"{a} {value}: expected a whole number")
            threads, target = (n, target) if a == "-threads" else (threads, n)
        elif a == "-l":
            ycsb_label = value
        elif a in ("-cp", "-jvm-args"):
            extra += [a, value]
        elif a == "-s":
            i += 1
            continue
        else:
            raise ScriptError(
                f"{a}: not a bin/ycsb option the fleet passes on (it takes -P, -p, "
                "-s, -threads, -target, -l, -cp, -jvm-args)"
            )
        i += 2
    return Phase(
        "fleet",
        label,
        DATABASES[binding],
        binding,
        command,
        files,
        props,
        threads=threads,
        target=target,
        label=ycsb_label,
        clients=clients,
        extra_args=extra,
    )


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fleet",
        description=__doc__.splitlines()[0],
        usage="scripts/fleet run [--ray ADDRESS] --clients N [options] "
        "-- load|run <binding> [bin/ycsb options]",
    )
    p.add_argument("command", choices=["run"])
    p.add_argument(
        "--ray",
        default="auto",
        help="Ray cluster address (host:port, ray://host:10001, or auto = $RAY_ADDRESS)",
    )
    p.add_argument(
        "--clients", type=int, required=True, help="client processes, one per loader node"
    )
    p.add_argument(
        "--clients-per-node",
        type=int,
        default=1,
        help="pack this many clients on each loader node (default 1)",
    )
    p.add_argument("--out", type=Path, help="results directory (default results/fleet/<UTC time>)")
    p.add_argument("--label", help="phase directory name (default <database>-<load|run>)")
    p.add_argument(
        "--warmup",
        nargs="?",
        const="cluster",
        choices=list(SCALE_BOUNDS),
        help="warm a run phase up until steady before measuring its maxexecutiontime, with this "
        "scale's bounds (default cluster; -p warmup.maxtime=S / warmup.window=S override them)",
    )
    return p


def phase_warmup(phase: Phase, scale: str):
    """The warm-up of a plain command's phase with `scale`'s bounds (None: warmup.maxtime=0)."""
    if phase.command != "run":
        raise ScriptError(
            "--warmup: a load cannot repeat itself (its keys would exist already); warm up "
            "the run phase that follows it"
        )
    props = read_property_files(phase.files_of(0))
    props.update(phase.properties)
    return warmup_bounds(scale, props)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv and ("-h" in argv or "--help" in argv):
        parser().print_help()
        return 0
    if "--" not in argv:
        raise ScriptError(
            "give the bin/ycsb command after --: scripts/fleet run --clients N -- "
            "run <binding> -P <workload> ..."
        )
    cut = argv.index("--")
    args = parser().parse_args(argv[:cut])
    if args.clients < 1:
        raise ScriptError(f"--clients {args.clients}: give 1 or more")
    ycsb_args = argv[cut + 1 :]
    probe = phase_from_args(ycsb_args, args.clients, "probe")
    phase = phase_from_args(
        ycsb_args, args.clients, args.label or f"{probe.database}-{probe.command}"
    )
    out = (
        args.out
        or REPO_ROOT / "results" / "fleet" / datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    ).resolve()
    warmup = phase_warmup(phase, args.warmup) if args.warmup else None
    ensure_ray()
    from .ray_clients import RayClients

    launcher = RayClients(args.ray, args.clients_per_node)
    print(
        f"{phase.command} {phase.binding}: {args.clients} client(s) on the Ray cluster at "
        f"{args.ray}; results in {out / phase.directory}",
        flush=True,
    )
    phase_dir = run_phase(phase, out, warmup=warmup, launcher=launcher)
    print(summary(phase_dir), flush=True)
    print(f"report: .venv/bin/ycsb-report {out} -o {out / 'report'}")
    return 0


if __name__ == "__main__":
    run_main(main)
