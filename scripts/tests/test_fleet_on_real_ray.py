"""The client fleet on a real local Ray cluster (scripts/fleet-local) and a real Cassandra.

One 2-node Ray cluster on 127.0.0.1:6492 for the whole module (one loader per core of a 2-core
machine: --pin-cores), started once, stopped at the end also when a test fails, every node by
its PID; the Cassandra is the scenario tests' shared
3-node one (conftest's `run_dir`: shared_servers.py).
The tests run in file order: the last one stops a Ray node for good.
"""

import contextlib
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from scenario_commands import s4_at_ci_scale, script
from server_marks import ON_REAL_SERVERS
from ycsbpack.core import procs
from ycsbpack.core.paths import REPO_ROOT

pytestmark = ON_REAL_SERVERS
pytest.importorskip("ray")
loader = pytest.importorskip("ycsb_analysis.loader")
merge = pytest.importorskip("ycsb_analysis.merge")
model = pytest.importorskip("ycsb_analysis.model")
summary = pytest.importorskip("ycsb_analysis.summary")

PORT = 6492
# loader nodes (head included): a client on each in the phases below; the last test stops one
NODES = 2
CLIENT_MAIN = "org.ycsbpack.common.launch.ClientMain"


def basic(seconds: int = 60, threads: int = 1, target=300) -> list:
    """BasicDB: a client without a database, for the fault tests; a run paced at `target`
    ops/s (None: as fast as it goes, all CPU) that ends after `seconds`."""
    return [
        "run",
        "basic",
        "-P",
        str(REPO_ROOT / "workloads" / "s4" / "update-heavy.properties"),
        "-p",
        "basicdb.verbose=false",
        "-p",
        "basicdb.simulatedelay=0",
        "-p",
        "recordcount=1000",
        "-p",
        "operationcount=100000000",
        "-p",
        f"maxexecutiontime={seconds}",
        "-p",
        "status.interval=1",
        *(["-target", str(target)] if target else []),
        "-threads",
        str(threads),
    ]


def fleet_jvms() -> list:
    """Client JVMs started by fleet agents (their command lines hold the agents' work dirs)."""
    found = []
    for p in psutil.process_iter(["cmdline"]):
        cmd = " ".join(p.info["cmdline"] or ())
        if CLIENT_MAIN in cmd and "ycsbpack-fleet-" in cmd:
            found.append(p.pid)
    return found


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    root = tmp_path_factory.mktemp("fleet")
    opts = ["--run-dir", root, "--port", PORT]
    try:
        t0 = time.monotonic()
        p = subprocess.run(
            # one-core loaders: the client-bound phase saturates its own core, whatever else runs
            script("fleet-local", "start", "--nodes", NODES, "--pin-cores", *opts),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert p.returncode == 0, p.stdout + p.stderr
        print(f"{NODES}-node Ray cluster up in {time.monotonic() - t0:.1f} s")
        address = p.stdout.strip().splitlines()[-1]
        assert address == f"127.0.0.1:{PORT}"
        yield {"address": address, "opts": opts, "root": root}
    finally:
        subprocess.run(script("fleet-local", "stop", *opts))
        state = json.loads((root / "fleet.json").read_text())
        for node in state["nodes"]:
            assert not procs.alive(node["pid"]), node  # ended (or a zombie)


def fleet_command(fleet, out, clients, *ycsb, options=()) -> list:
    """scripts/fleet run of one phase labelled `phase` (results in <out>/phase)."""
    return script(
        "fleet",
        "run",
        *options,
        "--ray",
        fleet["address"],
        "--clients",
        clients,
        "--out",
        out,
        "--label",
        "phase",
        "--",
        *ycsb,
    )


def fleet_run(fleet, out, clients, *ycsb):
    return subprocess.run(
        fleet_command(fleet, out, clients, *ycsb), capture_output=True, text=True, timeout=300
    )


@contextlib.contextmanager
def running_phase(fleet, out, seconds=60):
    """A BasicDB phase of a client per loader node, yielded once every client printed a status
    line; killed on the way out if it still runs (the test has failed then)."""
    proc = subprocess.Popen(
        fleet_command(fleet, out, NODES, *basic(seconds)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_status_lines(out / "phase", NODES)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_s4_with_a_client_on_each_ray_node(fleet, run_dir, tmp_path):
    p = subprocess.run(
        # the scans (the trials test on real servers runs update-heavy)
        s4_at_ci_scale(
            tmp_path, run_dir, "127.0.0.51", 7251, "--ray", fleet["address"], "--clients", NODES,
            "--only", "short-range", "--no-server-watch",
        ),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    phases = sorted(m.parent for m in tmp_path.glob("*/metadata.json"))
    assert [d.name for d in phases] == ["cassandra-load", "cassandra-short-range-threads-4"]
    for d in phases:
        meta = json.loads((d / "metadata.json").read_text())
        clients = meta["fleet"]["clients"]
        assert len({c["ray_node_id"] for c in clients}) == NODES, "distinct Ray nodes"
        for c in clients:
            assert c["exit_status"] == 0 and c["java_version"].startswith("17")
            assert c["jars_sha256"] == meta["fleet"]["coordinator_jars_sha256"]
            assert c["host"] and c["ip"] and abs(c["clock_offset_s"]) < 1  # ip: as Ray records it
        assert meta["fleet"]["start_spread_s"] < 2.0, "clients start within about a second"
        # run phases warm up in their clients as local ones do; every loader measured its
        # client's CPU time (one core each: --pin-cores)
        assert meta["warmup"].get("in_run", False) is (meta["command"][1] == "run"), meta["warmup"]
        cpu = meta["cpu"]
        assert all(s > 0 for s in cpu["client_cpu_s"]) and len(cpu["client_cpu_s"]) == NODES, cpu
        assert cpu["client_cores"] == [1] * NODES and len(set(cpu["client_loader"])) == NODES
        run = loader.load_phase_dir(d)
        assert sorted(c.index for c in run.clients) == list(range(NODES)) and not run.partial
        for i in range(NODES):  # every client's output came back, .hdr logs included
            assert "[OVERALL], RunTime(ms)" in (d / f"client-{i}.out").read_text()
            assert " sec: " in (d / f"client-{i}.err").read_text()
            assert list((d / "hdr").glob(f"client-{i}-*.hdr"))
        def operations(r):
            return dict(merge.merge_clients(r).operations.select("metric", "operations")
                        .iter_rows())

        ops = operations(run)
        per_client = [operations(model.Run(run.path, run.metadata, [c])) for c in run.clients]
        for metric in ops:
            assert ops[metric] == sum(pc.get(metric, 0) for pc in per_client), metric
    # the load: disjoint key ranges covering [0, recordcount)
    meta = json.loads((tmp_path / "cassandra-load" / "metadata.json").read_text())
    props = [dict(meta["properties"], **c) for c in meta["client_properties"]]
    records = int(meta["properties"]["recordcount"])
    keys = sorted(
        k
        for p in props
        for k in range(int(p["insertstart"]), int(p["insertstart"]) + int(p["insertcount"]))
    )
    assert keys == list(range(records))
    # an independent count: read every key once (sequential), all found
    check = subprocess.run(
        [
            str(REPO_ROOT / "bin" / "ycsb"),
            "run",
            "cassandra4",
            "-P",
            str(REPO_ROOT / "workloads" / "db" / "cassandra.properties"),
            "-p",
            "hosts=127.0.0.51,127.0.0.52,127.0.0.53",
            "-p",
            "workload=site.ycsb.workloads.CoreWorkload",
            "-p",
            "readproportion=1",
            "-p",
            "updateproportion=0",
            "-p",
            "requestdistribution=sequential",
            "-p",
            f"recordcount={records}",
            "-p",
            f"operationcount={records}",
            "-s",
            "-threads",
            "4",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert check.returncode == 0, check.stderr[-2000:]
    assert f"[READ], Return=OK, {records}" in check.stdout
    assert "NOT_FOUND" not in check.stdout


def warmed_up_fleet_phase(fleet, out, clients, *ycsb) -> tuple:
    """`scripts/fleet run --warmup ci` of a BasicDB run; its directory, metadata and the
    analysis's summary row."""
    p = subprocess.run(
        fleet_command(fleet, out, clients, *ycsb, options=["--warmup", "ci"]),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    assert "warm-up steady at" in p.stdout or "warm-up NOT steady" in p.stdout, p.stdout
    d = out / "phase"
    meta = json.loads((d / "metadata.json").read_text())
    return d, meta, summary.run_summary(loader.load_phase_dir(d))


def test_a_fleet_phase_is_warmed_up_and_a_client_bound_one_is_flagged(fleet, tmp_path):
    """The same warm-up as local clients (the stop reaches every loader through Ray), client
    CPU measured on each loader, and the analysis's client-bound flag from it: 8 threads of
    BasicDB (no I/O, nothing to wait for) on one loader keep its core busy; a client per
    loader paced at 300 ops/s does not."""
    measured_s = 5
    phases = {
        "paced": (NODES, basic(measured_s, threads=1, target=300)),
        "client-bound": (1, basic(measured_s, threads=8, target=None)),
    }
    rows = {}
    for name, (clients, ycsb) in phases.items():
        d, meta, row = warmed_up_fleet_phase(
            fleet, tmp_path / name, clients, *ycsb, "-p", "warmup.maxtime=30"
        )
        w, cpu = meta["warmup"], meta["cpu"]
        assert w["in_run"] and w["end_s"] and w["measured_s"] == measured_s, w
        # the stop file ended every client: after the warm-up and the measured part, long
        # before its own limit (warm-up maximum + measured + 30 s)
        for i in range(clients):
            seconds = [
                int(ln.split(" sec: ")[0].split()[-1])
                for ln in (d / f"client-{i}.err").read_text().splitlines()
                if " sec: " in ln
            ]
            assert seconds[-1] >= w["end_s"] + measured_s - 1, (name, i, seconds[-1], w)
            assert "[OVERALL], RunTime(ms)" in (d / f"client-{i}.out").read_text()
        assert max(cpu["client_wall_s"]) < w["max_s"] + measured_s + 20, cpu
        assert len(cpu["client_cpu_s"]) == clients and all(s > 0 for s in cpu["client_cpu_s"])
        assert cpu["client_cores"] == [1] * clients, "--pin-cores: one-core loaders"
        assert len(set(cpu["client_loader"])) == clients, "one loader node per client"
        assert cpu["shared_machine"] is False, "no local servers"
        rows[name] = row
        print(
            f"{name}: warm-up end {w['end_s']} s ({'steady' if w['stable'] else 'NOT steady'}), "
            f"client CPU per loader {cpu['client_cpu_s']} s over {cpu['client_wall_s']} s on "
            f"{cpu['client_cores']} core(s), client core share {row['client_core_share']:.2f}"
        )
    assert rows["client-bound"]["client_bound"] is True, rows["client-bound"]["client_core_share"]
    assert rows["paced"]["client_bound"] is False, rows["paced"]["client_core_share"]


def test_a_loader_with_another_pack_build_and_too_few_loaders_are_refused(fleet, tmp_path):
    # another build: the same checkout, but one jar more in YCSB core's lib
    home = tmp_path / "other-pack"
    for d in ("bin", "scripts", "workloads"):
        (home / d).parent.mkdir(parents=True, exist_ok=True)
        (home / d).symlink_to(REPO_ROOT / d)
    lib = home / "ycsb-runtime" / "target" / "lib"
    lib.mkdir(parents=True)
    for jar in (REPO_ROOT / "ycsb-runtime" / "target" / "lib").glob("*.jar"):
        (lib / jar.name).symlink_to(jar)
    import zipfile

    with zipfile.ZipFile(lib / "extra.jar", "w") as z:
        z.writestr("Extra.class", b"not the coordinator's")
    p = subprocess.run(
        script("fleet-local", "add", "--pack-home", home, *fleet["opts"]),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    try:
        r = fleet_run(fleet, tmp_path / "out", NODES + 1, *basic())
        assert r.returncode == 1, r.stdout + r.stderr
        assert f"pack {home}) runs a different pack build" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
        assert not fleet_jvms(), "nothing started on any loader"
        r = fleet_run(fleet, tmp_path / "out", NODES + 2, *basic())
        assert r.returncode == 1
        assert (f"need {NODES + 2} loader nodes, but the Ray cluster at 127.0.0.1:6492 has "
                f"{NODES + 1}") in r.stderr, (
            r.stderr
        )
    finally:
        subprocess.run(script("fleet-local", "stop", "--node", NODES, *fleet["opts"]))


def wait_for_status_lines(phase_dir: Path, clients: int, timeout: float = 120) -> None:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        errs = [phase_dir / f"client-{i}.err" for i in range(clients)]
        if all(e.exists() and " sec: " in e.read_text(errors="replace") for e in errs):
            return
        time.sleep(0.5)
    raise AssertionError(f"no status lines from every client within {timeout} s")


def test_every_process_of_a_local_fleet_running_a_phase_uses_loopback_only(fleet, tmp_path):
    """GCS, raylets (node and object managers), agents, the actors' core workers and the
    coordinator's driver: every TCP/UDP socket they hold, listening or connected, is on
    127.0.0.0/8 while a client per node runs."""
    with running_phase(fleet, tmp_path, seconds=8) as proc:
        nodes = json.loads((fleet["root"] / "fleet.json").read_text())["nodes"]
        sockets = procs.inet_sockets(procs.process_tree([n["pid"] for n in nodes] + [proc.pid]))
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err[-2000:]
    listeners = {}
    for s in sockets:
        if s["listening"]:
            listeners.setdefault(s["name"], set()).add(s["pid"])
    # the inventory saw every kind of Ray server: one GCS, a raylet per node, an actor's core
    # worker per client, and the driver in the coordinator
    assert len(listeners.get("gcs_server", ())) == 1, listeners
    assert len(listeners.get("raylet", ())) == NODES, listeners
    # an actor's name is its comm (15 characters) or, as psutil gives it, its longer proctitle
    agents = set().union(*(p for n, p in listeners.items() if n.startswith("ray::ClientAgen")))
    assert len(agents) == NODES, listeners
    assert proc.pid in set().union(*listeners.values()), listeners
    elsewhere = [
        f"{s['name']} (pid {s['pid']}) {s['proto']} {s['local']} -> {s['remote']}"
        + (" LISTEN" if s["listening"] else "")
        for s in sockets
        if not procs.on_loopback(s["local"])
    ]
    assert not elsewhere, "beyond loopback:\n" + "\n".join(elsewhere)


def test_ctrl_c_on_the_coordinator_stops_every_remote_client(fleet, tmp_path):
    with running_phase(fleet, tmp_path) as proc:
        assert len(fleet_jvms()) == NODES
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err[-2000:]
        assert not fleet_jvms(), "no client JVM left on any loader"


def test_a_loader_node_stopped_mid_phase_fails_the_phase_naming_the_client(fleet, tmp_path):
    with running_phase(fleet, tmp_path, seconds=25) as proc:
        # the last worker dies as a host does: SIGKILL of its raylet, agents and workers
        subprocess.run(
            script("fleet-local", "stop", "--node", NODES - 1, "--kill", *fleet["opts"]), check=True
        )
        out, err = proc.communicate(timeout=180)
    assert proc.returncode == 1, out + err
    meta = json.loads((tmp_path / "phase" / "metadata.json").read_text())
    lost = [c for c in meta["fleet"]["clients"] if c["exit_status"] != 0]
    assert len(lost) == 1 and meta["failed_clients"] == [lost[0]["client"]]
    i = lost[0]["client"]
    assert f"client {i} on Ray node {lost[0]['ray_node_id'][:12]}" in err
    assert "was lost mid-phase" in lost[0]["error"]
    survivors = [c for c in meta["fleet"]["clients"] if c["client"] != i]
    for c in survivors:
        assert (
            "[OVERALL], RunTime(ms)"
            in (tmp_path / "phase" / f"client-{c['client']}.out").read_text()
        )
    run = loader.load_phase_dir(tmp_path / "phase")
    assert run.partial and sorted(c.index for c in run.clients) == sorted(
        c["client"] for c in survivors
    )
    assert any(w.startswith(f"partial phase: client {i} failed") for w in run.warnings)
    report = subprocess.run(
        [sys.executable, "-m", "ycsb_analysis.cli", str(tmp_path), "-o", str(tmp_path / "report")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.returncode == 0, report.stderr[-2000:]
    assert "basic:phase — partial" in (tmp_path / "report" / "report.html").read_text()
    time.sleep(1)
    assert not fleet_jvms(), "no client JVM left on any loader"
