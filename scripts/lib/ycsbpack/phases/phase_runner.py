"""Runs one benchmark phase through bin/ycsb and files its output where the analysis expects it.

A phase runs as one YCSB client process, or as N in parallel (`Phase.clients`), each with
`threads` threads. N clients split the work the way several YCSB machines would:
  load: disjoint key ranges, client i gets insertstart/insertcount of its share of
        [insertstart, insertstart + insertcount) (default [0, recordcount));
  run:  every client reads and updates the loaded range, and its run-phase inserts start at
        recordcount + i * RUN_INSERT_STRIDE (YCSB starts them at recordcount in every process,
        so they would collide); `-target` is shared out between the clients.
Clients can also run different property files side by side (`client_property_files`, e.g. S1's
writer and reader clients).

Layout (read by analysis/ycsb_analysis/loader.py):
    <out>/<phase>/client-<i>.out        YCSB stdout: the final report
    <out>/<phase>/client-<i>.err        stderr: status lines, warnings, errors
    <out>/<phase>/client-<i>.libraries.log  the client libraries' warnings (if they wrote any)
    <out>/<phase>/hdr/client-<i>-<OP>.hdr  HdrHistogram interval logs
    <out>/<phase>/metadata.json         what ran: scenario, phase, database, every property,
                                        CPU seconds of the clients and local servers, ...
                                        and, after a warm-up in the same clients (warmup.py),
                                        "warmup": {"end_s": ...}: where the measured part begins
"""

import json
import os
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

from ycsb_analysis.readers.line_formats import replace_estimate

from ..core import cpu_sets
from ..core.errors import ScriptError
from ..core.paths import REPO_ROOT
from ..core.secrets import mask_command
from . import cpu
from .durability import durability
from .objective_watch import ObjectiveWatch
from .phase_metadata import phase_metadata
from .properties import read_property_files
from .server_watch import ServerWatch
from .warmup import InRunWarmUp, WarmUp

YCSB = REPO_ROOT / "bin" / "ycsb"
# Run-phase inserts of client i start this many keys after client i-1's: room for 1e9 inserts each.
RUN_INSERT_STRIDE = 1_000_000_000
# seconds between a phase's action after its clients (flush, compaction) and the servers'
# last samples: HBase refreshes its metrics every 5 s by default (the local servers every 1 s)
METRICS_LAG_S = 6


@dataclass
class Phase:
    scenario: str
    name: str
    database: str  # cassandra | hbase | basic
    binding: str  # bin/ycsb binding name
    command: str  # load | run
    property_files: List[str]
    properties: Dict[str, str] = field(default_factory=dict)
    threads: int = 1
    target: Optional[int] = None
    label: str = ""
    index: int = 0
    clients: int = 1
    # extra -P files per client (client i: property_files + client_property_files[i])
    client_property_files: List[List[str]] = field(default_factory=list)
    dir_name: str = ""  # directory under the results; default: name
    phase_group: str = ""  # what a sweep varies within (e.g. "select" of S3), for metadata
    # False when the workload cannot run twice on the same data (a load, S3's deletes): no
    # warm-up, the analysis judges it over its steady window instead
    repeatable: bool = True
    repeat: int = 0  # 1..repeats when run-scenario --repeat runs it several times
    repeats: int = 1
    extra_args: List[str] = field(default_factory=list)  # other bin/ycsb options (-jvm-args, -cp)
    capacity: Optional[dict] = None  # a step of a capacity search (capacity.py): its metadata
    # run after the clients, while the servers are still sampled (S4's flush and compaction
    # after its load: the load's own consequences, in the load's servers' time series)
    then: Optional[Callable[[], None]] = None
    then_what: str = ""
    # what the runner adds to metadata.json: "start_state" (saved_data.py: the saved load the
    # servers started from), "aa" (run-scenario --aa: which side of an A/A comparison)
    notes: Dict[str, object] = field(default_factory=dict)

    def __post_init__(self):
        if self.client_property_files and len(self.client_property_files) != self.clients:
            raise ValueError(
                f"phase {self.name}: {len(self.client_property_files)} client "
                f"property file lists for {self.clients} clients"
            )

    @property
    def directory(self) -> str:
        return self.dir_name or self.name

    def files_of(self, client: int) -> List[str]:
        extra = self.client_property_files[client] if self.client_property_files else []
        return list(self.property_files) + list(extra)


def client_split(command: str, props: Dict[str, str], clients: int, client: int) -> Dict[str, str]:
    """The properties that give client `client` of `clients` its own keys (module docstring)."""
    if clients <= 1:
        return {}
    try:
        records = int(props.get("recordcount", "0"))
        start = int(props.get("insertstart", "0"))
        count = int(props.get("insertcount", str(records - start)))
    except ValueError as e:
        raise ScriptError(f"recordcount/insertstart/insertcount must be whole numbers: {e}")
    if command == "load":
        share = count // clients
        if share < 1:
            raise ScriptError(
                f"cannot split {count} records over {clients} clients: load more "
                "records or use fewer clients (--clients)"
            )
        mine = share + (count % clients if client == clients - 1 else 0)
        return {"insertstart": str(start + client * share), "insertcount": str(mine)}
    return {
        "insertstart": str(start),
        "insertcount": str(count),
        "recordcount": str(records + client * RUN_INSERT_STRIDE),
    }


def client_target(phase: Phase) -> int:
    """Each client's -target: the phase's shared out (YCSB spreads it over the threads)."""
    return max(1, phase.target // max(1, phase.clients))


def ycsb_command(
    phase: Phase, phase_dir: Path, client: int = 0, split: Optional[Dict[str, str]] = None
) -> list:
    cmd = [str(YCSB), phase.command, phase.binding]
    for f in phase.files_of(client):
        cmd += ["-P", str(f)]
    props = dict(phase.properties)
    props.update(split or {})
    props.setdefault("hdrhistogram.fileoutput", "true")
    props.setdefault("hdrhistogram.output.path", str(phase_dir / "hdr" / f"client-{client}-"))
    # 2-s intervals: enough samples for a 30-s phase's confidence interval (steady_state.py)
    props.setdefault("status.interval", "2")
    for k, v in props.items():
        cmd += ["-p", f"{k}={v}"]
    cmd += list(phase.extra_args) + ["-s", "-threads", str(phase.threads)]
    if phase.target:
        cmd += ["-target", str(client_target(phase))]
    if phase.label:
        cmd += ["-l", phase.label]
    return cmd


def client_commands(phase: Phase, phase_dir: Path, overrides: Dict[str, str] = None) -> List[list]:
    """The bin/ycsb command of each client; `overrides` beat the phase's own -p values."""
    commands = []
    for i in range(phase.clients):
        merged = read_property_files(phase.files_of(i))
        merged.update(phase.properties)
        split = client_split(phase.command, merged, phase.clients, i)
        split.update(overrides or {})
        commands.append(ycsb_command(phase, phase_dir, i, split))
    return commands


def run_phase(
    phase: Phase,
    out_dir: Path,
    echo_status: bool = True,
    warmup: Optional[WarmUp] = None,
    server_pids: Optional[Callable[[], Dict[str, int]]] = None,
    launcher=None,
    watch_servers: bool = True,
    probe_properties: Optional[Dict[str, str]] = None,
    node_names: Optional[Dict[str, str]] = None,
) -> Path:
    """Runs the phase's client(s) in parallel (warming up first, in the same clients, when
    `warmup` is given: warmup.py); returns its directory. `server_pids` names the local server
    processes whose CPU time the phase records. Raises ScriptError when a client fails (after
    writing metadata.json, so the failure is on file). While it runs, the servers are sampled
    (server_watch.py; `watch_servers=False`: not), `probe_properties` added to the probe's,
    `node_names` naming its nodes as the local processes are named.

    `launcher` runs the clients elsewhere (fleet.ray_clients.RayClients): its `run(commands,
    phase_dir, echo_status, plan)` returns their exit statuses like _run_clients (warming up by
    the same plan, its stop file created on each loader), `metadata()` what it adds to
    metadata.json, `client_cpu(local_servers)` the clients' CPU measured on their loaders, and
    `failure(i)` why client i failed when it was not bin/ycsb's exit."""
    phase_dir = out_dir / phase.directory
    (phase_dir / "hdr").mkdir(parents=True, exist_ok=True)
    plan = warmup_plan(phase, phase_dir, warmup) if warmup else None
    commands = client_commands(phase, phase_dir, plan.overrides if plan else None)
    pids = server_pids() if server_pids else {}
    before = cpu.snapshot(pids)
    watch = (ServerWatch(phase_dir, commands[0], pids, probe_properties=probe_properties,
                         node_names=node_names).start() if watch_servers else None)
    start = datetime.now(timezone.utc)
    try:
        if launcher is None:
            statuses, client_cpu = _run_clients(commands, phase_dir, echo_status, plan)
        else:  # remote clients (fleet): their CPU time is measured on their loaders, below
            statuses, client_cpu = launcher.run(commands, phase_dir, echo_status, plan), None
        end = datetime.now(timezone.utc)
        after = _then(phase) if phase.then and not any(statuses) else None
        if after and watch:  # the watch's last round, as it stops, sees the action's effects
            time.sleep(METRICS_LAG_S)
    finally:
        servers = (watch.stop() if watch else
                   {"skipped": ["the servers were not sampled (run-scenario --no-server-watch)"]})
    metadata = phase_metadata(phase, commands, statuses, start, end, launcher, sorted(pids))
    metadata["servers"] = servers
    metadata["durability"] = durability(servers, metadata["properties"])  # from those settings
    if after:
        metadata["after_clients"] = after
    metadata["warmup"] = (
        plan.record()
        if plan
        else {
            "none": "a load or a phase that consumes its data cannot repeat itself"
            if not phase.repeatable
            else "no warm-up was asked for"
        }
    )
    metadata["cpu"] = {
        "cores": cpu.cores(),
        "client_cpu_s": client_cpu,
        "server_cpu_s": cpu.used(before, cpu.snapshot(pids)),
        # every local run: client and servers share this machine's cores
        "shared_machine": bool(pids),
        # the CPUs each side could use, read from the kernel (cpu_sets.py): the clients are
        # this runner's children and share its set
        "cpu_sets": {"clients": cpu_sets.affinity(os.getpid()),
                     "servers": {name: cpu_sets.affinity(pid) for name, pid in pids.items()}},
    }
    if launcher is not None:  # fleet: per client its CPU, run time, loader and loader's cores
        metadata["cpu"].update(launcher.client_cpu(bool(pids)))
    if phase.repeats > 1:
        metadata["repeat"], metadata["repeats"] = phase.repeat, phase.repeats
    metadata.update(phase.notes)
    (phase_dir / "metadata.json").write_text(json.dumps(metadata, indent=2) + "\n")
    failed = [i for i, st in enumerate(statuses) if st != 0]
    if failed:
        i = failed[0]
        why = launcher.failure(i) if launcher is not None else ""
        if why:
            raise ScriptError(
                f"phase {phase.name} failed: {why}; the other clients' outputs are in {phase_dir}"
            )
        tail = "\n".join((phase_dir / f"client-{i}.err").read_text().splitlines()[-15:])
        raise ScriptError(
            f"phase {phase.name} failed (bin/ycsb exit {statuses[i]} for client "
            f"{i}); last lines of {phase_dir / f'client-{i}.err'}:\n{tail}"
        )
    return phase_dir


def _then(phase: Phase) -> dict:
    """Runs what follows the phase's clients (Phase.then); when, for the servers' chart."""
    t0 = datetime.now(timezone.utc)
    phase.then()
    return {"what": phase.then_what, "start_time": t0.isoformat(),
            "end_time": datetime.now(timezone.utc).isoformat()}


def warmup_plan(phase: Phase, phase_dir: Path, warmup: WarmUp, touch: bool = True) -> InRunWarmUp:
    props = read_property_files(phase.files_of(0))
    props.update(phase.properties)
    try:
        measured = float(props.get("maxexecutiontime", "0") or 0)
    except ValueError:
        raise ScriptError(
            f"phase {phase.name}: maxexecutiontime={props['maxexecutiontime']} is "
            "not a number of seconds"
        )
    watch, longer = None, None
    if phase.capacity and phase.target and measured > 0:  # a paced capacity step
        o = phase.capacity["objective"]
        watch = ObjectiveWatch(o["percentile"], o["bound_us"], o["operation"],
                               [client_target(phase)] * phase.clients,
                               [phase.threads] * phase.clients, measured)
        if phase.capacity.get("longer"):  # an undecided step is measured longer (capacity.py)
            longer = (measured * phase.capacity["longer"]["times"],
                      phase.capacity["longer"]["factor"])
    return InRunWarmUp(warmup, measured, phase_dir / "stop-after-measuring", phase.clients,
                       touch, watch, longer, paced_target(phase, props))


def paced_target(phase: Phase, props: dict) -> Optional[float]:
    """The phase's clients' -target together (ops/s): the phase's (shared out between them), else
    a `target` property (each client gets it whole); None in a closed loop."""
    if phase.target:
        return float(client_target(phase) * phase.clients)
    try:
        each = float(props.get("target") or 0)
    except ValueError:
        raise ScriptError(f"phase {phase.name}: target={props['target']} is not a number of "
                          "operations per second")
    return each * phase.clients if each > 0 else None


def _run_clients(
    commands: Sequence[list], phase_dir: Path, echo_status: bool, plan: Optional[InRunWarmUp] = None
):
    """Starts every client, copies each one's stderr to client-<i>.err (echoing status lines),
    waits for all; kills the ones still running when interrupted. With a warm-up `plan`, its
    judge reads the status lines and ends the run once warm and measured (warmup.py). Returns
    the exit statuses and the CPU seconds of each client."""
    judge = plan.judge if plan else None
    t0 = time.monotonic()
    procs, threads, files = [], [], []
    prefix = len(commands) > 1
    try:
        for i, cmd in enumerate(commands):
            out = open(phase_dir / f"client-{i}.out", "wb")
            err = open(phase_dir / f"client-{i}.err", "w")
            files += [out, err]
            # the client libraries' own log (launcher.client_log) stays with the phase's results
            env = dict(os.environ, YCSBPACK_CLIENT_LOG=str(phase_dir / f"client-{i}.libraries.log"))
            proc = subprocess.Popen(
                cmd,
                stdout=out,
                stderr=subprocess.PIPE,
                text=True,
                cwd=REPO_ROOT,
                stdin=subprocess.DEVNULL,
                env=env,
            )
            procs.append(proc)
            t = threading.Thread(
                target=_copy_stderr,
                daemon=True,
                args=(
                    proc,
                    err,
                    echo_status,
                    t0,
                    f"client {i}: " if prefix else "",
                    (lambda line, i=i: judge.feed(i, line)) if judge else None,
                    plan.part if plan else None,
                ),
            )
            t.start()
            threads.append(t)
        if plan:
            plan.control(threads, t0)
        used = [cpu.reap(p) for p in procs]
        statuses = [p.returncode for p in procs]
        for t in threads:
            t.join()
        return statuses, used
    except BaseException:
        for p in procs:
            if p.returncode is None:
                try:
                    p.kill()
                except OSError:
                    pass
        raise
    finally:
        for f in files:
            f.close()


def with_part(line: str, part: str) -> str:
    """A status line with YCSB's completion estimate (of an operation count that a time-bound
    phase never reaches) replaced by `part`: the part that runs and the time it has left."""
    return replace_estimate(line, f"[{part}]")


def _copy_stderr(proc, err, echo: bool, t0: float, prefix: str, feed=None, part=None) -> None:
    """Copies a client's stderr to its .err file, feeding the warm-up judge and echoing status
    lines; with `part` (the warm-up's), YCSB's completion estimate of an operation count that a
    time-bound phase never reaches is replaced by the part that runs and the time it has left."""
    for line in proc.stderr:
        err.write(line)
        err.flush()  # the status stream is read while the phase runs (S2's fault phase)
        if feed:
            feed(line)
        if echo and (" sec: " in line or line.startswith(("ERROR", "WARN", "ycsbpack:"))):
            shown = with_part(line, part()) if part else line
            sys.stderr.write(f"  [{time.monotonic() - t0:5.0f} s] {prefix}{shown}")
    err.flush()


def summary(phase_dir: Path) -> str:
    """The headline lines of each client's final report: throughput, latency, returns."""
    keep = (
        "Throughput",
        "RunTime",
        "AverageLatency",
        "95thPercentile",
        "99thPercentile",
        "Return=",
        "Operations",
    )
    outs = sorted(phase_dir.glob("client-*.out"))
    text = []
    for out in outs:
        lines = [
            ln
            for ln in out.read_text().splitlines()
            if ln.startswith("[")
            and not ln.startswith(("[TOTAL_G", "[CLEANUP]"))
            and any(k in ln for k in keep)
        ]
        if len(outs) > 1:
            text.append(f"-- {out.stem}")
        text += lines
    return "\n".join(text)


def describe(cmd: list) -> str:
    return " ".join(shlex.quote(a) for a in mask_command(cmd))
