"""Pure logic of the client fleet (no Ray, no server): what goes to a loader, how a plain
bin/ycsb command is split, what identifies a pack build, which loaders are refused."""

import math
import os
import signal
import sys
import time
import zipfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from ycsbpack.core.errors import ScriptError
from ycsbpack.fleet import agent
from ycsbpack.fleet.cli import phase_from_args, phase_warmup
from ycsbpack.fleet.ray_clients import refusals, remote_command
from ycsbpack.phases.phase_runner import YCSB, client_split, ycsb_command
from ycsbpack.phases.properties import read_property_files
from ycsbpack.phases.warmup import SCALE_BOUNDS


def test_remote_command_ships_property_files_and_moves_results_to_the_work_dir(tmp_path):
    wl = tmp_path / "w.properties"
    wl.write_bytes(b"recordcount=10\nname=caf\xe9\n")  # ISO-8859-1, as YCSB reads it
    phase_dir = tmp_path / "out" / "cassandra-load"
    cmd = [
        str(YCSB),
        "load",
        "basic",
        "-P",
        str(wl),
        "-p",
        f"hdrhistogram.output.path={phase_dir}/hdr/client-1-",
        "-s",
        "-threads",
        "2",
    ]
    args, files = remote_command(cmd, phase_dir)
    assert args[0] == f"{agent.PACK_TOKEN}/bin/ycsb"
    assert args[3:5] == ["-P", f"{agent.WORK_TOKEN}/props/0-w.properties"]
    assert files == {"0-w.properties": wl.read_bytes()}
    assert f"hdrhistogram.output.path={agent.WORK_TOKEN}/hdr/client-1-" in args
    assert str(tmp_path) not in " ".join(args), "no coordinator path reaches a loader"


def test_a_plain_command_becomes_a_phase_split_like_local_clients(tmp_path):
    wl = tmp_path / "w.properties"
    wl.write_text("recordcount=1000\n")
    phase = phase_from_args(
        [
            "load",
            "cassandra4",
            "-P",
            str(wl),
            "-p",
            "hosts=10.0.0.1",
            "-threads",
            "8",
            "-target",
            "900",
            "-s",
            "-jvm-args",
            "-Xmx1g",
        ],
        3,
        "mine",
    )
    assert (phase.database, phase.command, phase.threads, phase.target) == (
        "cassandra",
        "load",
        8,
        900,
    )
    ranges = []
    for i in range(3):
        props = read_property_files(phase.files_of(i))
        props.update(phase.properties)
        cmd = ycsb_command(phase, tmp_path / "mine", i, client_split("load", props, 3, i))
        assert cmd[cmd.index("-target") + 1] == "300"
        assert cmd[cmd.index("-jvm-args") + 1] == "-Xmx1g"
        p = dict(a.split("=", 1) for a in cmd if "=" in a and not a.startswith("-"))
        ranges.append(range(int(p["insertstart"]), int(p["insertstart"]) + int(p["insertcount"])))
    keys = [k for r in ranges for k in r]
    assert sorted(keys) == list(range(1000)), "disjoint ranges covering every key"


@pytest.mark.parametrize(
    "args, says",
    [
        (["shell", "basic"], "load|run <binding>"),
        (["run", "mongodb"], "unknown binding 'mongodb'"),
        (["run", "basic", "-x"], "-x: not a bin/ycsb option"),
        (["run", "basic", "-threads", "many"], "-threads many: expected a whole number"),
        (["run", "basic", "-P", "/nonexistent.properties"], "no such workload file"),
    ],
)
def test_bad_commands_are_refused_with_one_sentence(args, says):
    with pytest.raises(ScriptError, match=says.replace("|", r"\|")):
        phase_from_args(args, 2, "x")


def test_fleet_run_warms_up_a_run_phase_with_its_scales_bounds_and_refuses_a_load():
    run = phase_from_args(["run", "basic", "-p", "warmup.maxtime=30"], 3, "x")
    w = phase_warmup(run, "ci")
    assert (w.max_s, w.window_s, w.interval_s) == (30, SCALE_BOUNDS["ci"][1], 1)
    assert (
        phase_warmup(phase_from_args(["run", "basic", "-p", "warmup.maxtime=0"], 3, "x"), "ci")
        is None
    )
    with pytest.raises(ScriptError, match="a load cannot repeat itself"):
        phase_warmup(phase_from_args(["load", "basic"], 3, "x"), "cluster")


def _jar(path: Path, entries: dict, when) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        for name, data in entries.items():
            z.writestr(zipfile.ZipInfo(name, date_time=when), data)


def test_the_build_checksum_follows_jar_contents_not_build_times(tmp_path):
    lib = agent.JAR_GLOBS[0]
    one, two, other = tmp_path / "one", tmp_path / "two", tmp_path / "other"
    _jar(one / lib / "core.jar", {"A.class": b"x", "B.class": b"y"}, (2020, 1, 1, 0, 0, 0))
    _jar(two / lib / "core.jar", {"B.class": b"y", "A.class": b"x"}, (2026, 5, 5, 5, 5, 4))
    _jar(other / lib / "core.jar", {"A.class": b"x", "B.class": b"z"}, (2020, 1, 1, 0, 0, 0))
    assert agent.jars_checksum(str(one)) == agent.jars_checksum(str(two)) != ""
    assert agent.jars_checksum(str(other)) != agent.jars_checksum(str(one))
    assert agent.jars_checksum(str(tmp_path / "unbuilt")) == ""


def test_loaders_that_cannot_run_the_client_are_refused_naming_the_node():
    ok = {
        "ray_node_id": "a" * 56,
        "host": "l1",
        "ip": "10.0.0.5",
        "pack_home": "/opt/pack",
        "jars_sha256": "j" * 64,
        "pack_commit": "c1",
        "java_version": "17.0.9",
    }
    assert refusals([ok], "c1", "j" * 64) == []
    other_build = dict(ok, ray_node_id="b" * 56, jars_sha256="k" * 64, pack_commit="c2")
    java11 = dict(ok, ray_node_id="c" * 56, java_version="11.0.2")
    nojava = dict(ok, ray_node_id="d" * 56, java_problem="no JDK 17 found", java_version=None)
    problems = refusals([ok, other_build, java11, nojava], "c1", "j" * 64)
    assert len(problems) == 3
    assert problems[0].startswith(
        "client 1: Ray node bbbbbbbbbbbb (host l1, 10.0.0.5, pack /opt/pack) "
        "runs a different pack build (commit c2"
    )
    assert "client 2: Ray node cccccccccccc" in problems[1] and "no Java 17 (11.0.2)" in problems[1]
    assert "no Java 17 (no JDK 17 found)" in problems[2]


@pytest.mark.parametrize(
    "address, loopback",
    [
        ("127.0.0.1:6666", True),
        ("127.0.0.3:80", True),
        ("0.0.0.0:8080", False),
        ("192.0.2.2:6486", False),
        ("[::]:8080", False),
        ("[::1]:80", True),
        ("[::ffff:127.0.0.1]:6508", True),
        ("[::ffff:192.0.2.2]:6508", False),
        ("", True),  # not bound (psutil gives no address)
    ],
)
def test_what_counts_as_a_loopback_socket_address(address, loopback):
    from ycsbpack.core import procs

    assert procs.on_loopback(address) is loopback


def test_ray_keeps_a_loopback_node_address_and_resolves_others_as_it_does():
    services = pytest.importorskip("ray._private.services")
    from ycsbpack.fleet.ray_env import keep_loopback_addresses

    resolve = services.resolve_ip_for_localhost
    try:
        # Ray's own rule: 127.0.0.1 becomes this host's network address (on a host with one)
        keep_loopback_addresses()
        keep_loopback_addresses()  # twice: still one wrapper
        assert services.resolve_ip_for_localhost("127.0.0.1") == "127.0.0.1"
        assert services.resolve_ip_for_localhost("10.0.0.14") == "10.0.0.14"
        assert services.resolve_ip_for_localhost("localhost") == resolve("localhost")
        assert services.canonicalize_bootstrap_address("127.0.0.1:6390") == "127.0.0.1:6390"
    finally:
        services.resolve_ip_for_localhost = resolve


def _busy_client_until_stopped() -> list:
    """A stand-in for bin/ycsb: burns CPU until the stop file its -p ycsbpack.stopfile names
    exists, as StopFileWatcher ends a client."""
    loop = (
        "import os, sys\n"
        "stop = sys.argv[2].split('=', 1)[1]\n"
        "while not os.path.exists(stop):\n"
        "    sum(range(10000))\n"
        "print('stopped')\n"
    )
    return [sys.executable, "-c", loop, "-p", f"ycsbpack.stopfile={agent.WORK_TOKEN}/stop-here"]


def _agent(monkeypatch, tmp_path):
    monkeypatch.setenv("YCSBPACK_HOME", str(tmp_path))
    monkeypatch.setattr(agent.tempfile, "gettempdir", lambda: str(tmp_path))
    return agent.ClientAgent("run-1", 0)


def _poll_to_the_end(a, timeout=30.0) -> dict:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        answer = a.poll()
        if answer["exit"] is not None:
            return answer
        time.sleep(0.1)
    raise AssertionError("the client did not end")


@pytest.mark.serial  # its client must get 0.4 s of CPU in 0.8 s
def test_an_agent_stops_its_client_through_the_stop_file_and_measures_its_cpu(
    monkeypatch, tmp_path
):
    a = _agent(monkeypatch, tmp_path)
    started = a.start(_busy_client_until_stopped(), {})
    time.sleep(0.8)
    assert a.poll()["exit"] is None, "still running: nothing stopped it yet"
    assert a.stop_measuring() is True
    answer = _poll_to_the_end(a)
    assert answer["exit"] == 0 and answer["cpu_s"] >= 0.4, answer
    assert 0.8 <= answer["end"] - started["start"] < 10
    assert a.stop_file == os.path.join(a.work, "stop-here"), "resolved on the loader"
    a.cleanup()


def test_an_agent_without_a_stop_file_says_so_and_stop_ends_its_client(monkeypatch, tmp_path):
    a = _agent(monkeypatch, tmp_path)
    a.start([sys.executable, "-c", "import time; time.sleep(60)"], {})
    assert a.stop_measuring() is False
    t0 = time.monotonic()
    assert a.stop(grace=5) == -signal.SIGTERM and time.monotonic() - t0 < 5
    answer = a.poll()
    assert answer["exit"] == -signal.SIGTERM and answer["cpu_s"] is not None
    a.cleanup()


def _phase(cpu: dict, wall_s: float = 10.0) -> "object":
    model = pytest.importorskip("ycsb_analysis.model")
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    meta = {
        "start_time": start.isoformat(),
        "end_time": (start + timedelta(seconds=wall_s)).isoformat(),
        "cpu": cpu,
    }
    return model.Run("phase", meta, [])


def _fleet_cpu(client_cpu_s, loaders, cores=2, wall_s=10.0) -> dict:
    return {
        "cores": 2,
        "client_cpu_s": client_cpu_s,
        "client_wall_s": [wall_s if s is not None else None for s in client_cpu_s],
        "client_cores": [cores] * len(client_cpu_s),
        "client_loader": loaders,
        "server_cpu_s": {},
        "shared_machine": False,
    }


@pytest.mark.parametrize(
    "cpu, share, bound",
    [
        # one machine: the clients' CPU over the phase's run time x its cores
        ({"cores": 2, "client_cpu_s": [17.0], "server_cpu_s": {}}, 0.85, True),
        ({"cores": 2, "client_cpu_s": [4.0, 2.0], "server_cpu_s": {}}, 0.3, False),
        # a fleet: per loader, over that client's run time x that loader's cores; the busiest
        # loader decides, however idle the others
        (_fleet_cpu([18.0, 3.0, 3.0], ["n1", "n2", "n3"]), 0.9, True),
        (_fleet_cpu([6.0, 6.0, 6.0], ["n1", "n2", "n3"]), 0.3, False),
        # two clients packed on one loader share its cores; spread over two they do not
        (_fleet_cpu([9.0, 9.0], ["n1", "n1"]), 0.9, True),
        (_fleet_cpu([9.0, 9.0], ["n1", "n2"]), 0.45, False),
        # a loader with more cores is not saturated by the same CPU time
        (_fleet_cpu([18.0], ["n1"], cores=8), 0.225, False),
        # a lost client has no figure; the others still count
        (_fleet_cpu([None, 17.0], ["n1", "n2"]), 0.85, True),
    ],
)
def test_a_phase_whose_clients_kept_most_of_their_cores_busy_is_flagged_client_bound(
    cpu, share, bound
):
    bottleneck = pytest.importorskip("ycsb_analysis.bottleneck")
    row = bottleneck.cpu_figures(_phase(cpu), 100_000)
    assert row["client_core_share"] == pytest.approx(share)
    assert row["client_bound"] is bound


def test_a_fleet_share_uses_each_clients_run_time_not_the_phases_with_its_ray_start_up():
    bottleneck = pytest.importorskip("ycsb_analysis.bottleneck")
    # the phase took 30 s (placement group, actors, checks); the client ran 10 of them
    row = bottleneck.cpu_figures(_phase(_fleet_cpu([18.0], ["n1"]), wall_s=30.0), 100_000)
    assert row["client_core_share"] == pytest.approx(0.9) and row["client_bound"]
    assert row["client_cpu_us_per_op"] == pytest.approx(180.0)


def test_fleet_results_from_before_the_loaders_measured_cpu_get_no_client_figure():
    bottleneck = pytest.importorskip("ycsb_analysis.bottleneck")
    row = bottleneck.cpu_figures(
        _phase({"cores": 2, "client_cpu_s": None, "server_cpu_s": {"s": 5.0}}), 100_000
    )
    assert row["client_bound"] is None and math.isnan(row["client_cpu_us_per_op"])
    assert row["server_cpu_us_per_op"] == pytest.approx(50.0)
