"""The owner watcher of hbase-local and mysql-local (`start --owner-pid P`) stops the server it
was started for when P is gone, and nothing else: trials start servers back to back in one run
directory, and a watcher of the previous trial once stopped the next trial's fresh HBase one
second after it started (it stopped whatever the PID file named).

Real `scripts/<script> watch` processes; the "servers" are sleep processes named by the PID
file, as the real start writes it (no database needed to test whom the watcher stops)."""

import subprocess
import time

import pytest
from scenario_commands import script
from ycsbpack.core import procs

PID_FILES = {"hbase-local": "hbase.pid", "mysql-local": "mysql.pid"}


def _sleep() -> subprocess.Popen:
    return subprocess.Popen(["sleep", "300"])


def _wait_for(predicate, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def _watch(name: str, run_dir, owner: subprocess.Popen):
    log = run_dir / "watch.out"
    with open(log, "wb") as out:
        watcher = subprocess.Popen(script(name, "watch", "--run-dir", run_dir, "--owner-pid",
                                          owner.pid), stdout=out, stderr=out)
    # it names what it watches once it has read the PID file (a watcher of before this fix said
    # nothing: give it the same few seconds to start)
    _wait_for(lambda: "watching" in log.read_text(), 5)
    return watcher, log


@pytest.mark.parametrize("name", sorted(PID_FILES))
def test_the_watcher_of_an_ended_server_leaves_the_next_trials_server_running(name, tmp_path):
    owner, first, second = _sleep(), _sleep(), _sleep()
    pid_file = tmp_path / PID_FILES[name]
    try:
        pid_file.write_text(str(first.pid))
        watcher, log = _watch(name, tmp_path, owner)
        # the trial stops its server; the next trial starts a new one in the same run directory
        first.kill()
        first.wait()
        pid_file.write_text(str(second.pid))
        owner.kill()
        owner.wait()
        watcher.wait(timeout=20)
        assert procs.alive(second.pid), f"the next trial's server was stopped:\n{log.read_text()}"
        assert "nothing left to watch" in log.read_text()
    finally:
        for p in (owner, first, second):
            p.kill()
            p.wait()


@pytest.mark.parametrize("name", sorted(PID_FILES))
def test_the_watcher_stops_its_own_server_when_the_owner_is_gone(name, tmp_path):
    owner, server = _sleep(), _sleep()
    try:
        (tmp_path / PID_FILES[name]).write_text(str(server.pid))
        watcher, log = _watch(name, tmp_path, owner)
        owner.kill()
        owner.wait()
        watcher.wait(timeout=60)
        assert server.poll() is not None, f"the watched server still runs:\n{log.read_text()}"
        assert f"owner process {owner.pid} is gone" in log.read_text()
    finally:
        for p in (owner, server):
            p.kill()
            p.wait()
