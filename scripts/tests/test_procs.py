"""What core/procs.py asks psutil about processes, on real processes this test starts (no
database): whether one runs (a zombie does not), its tree, its sockets, and what the owner
watch stops."""
import socket
import subprocess
import sys
import time

import psutil
import pytest
from ycsbpack.core import procs

# a parent that listens on a loopback port and has a child process of its own (it prints both):
# what a server and its helper processes look like to the runner
PARENT = """
import socket, subprocess, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen()
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
print(s.getsockname()[1], child.pid, flush=True)
time.sleep(300)
"""


@pytest.fixture
def parent():
    proc = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    port, child = (int(w) for w in proc.stdout.readline().split())
    try:
        yield proc, port, child
    finally:
        for pid in (child, proc.pid):
            try:
                psutil.Process(pid).kill()
            except psutil.NoSuchProcess:
                pass
        proc.wait()


def test_the_tree_of_a_process_holds_its_child_and_a_dead_root_adds_nothing(parent):
    proc, _, child = parent
    assert procs.process_tree([proc.pid]) == {proc.pid, child}
    assert procs.process_tree([child]) == {child}
    ended = subprocess.Popen(["true"])
    ended.wait()
    assert procs.process_tree([ended.pid]) == set()


def test_the_sockets_of_a_process_tree_show_its_listening_loopback_port(parent):
    proc, port, child = parent
    sockets = procs.inet_sockets(procs.process_tree([proc.pid]))
    assert {"pid": proc.pid, "name": psutil.Process(proc.pid).name(), "proto": "tcp",
            "local": f"127.0.0.1:{port}", "remote": "", "listening": True} in sockets
    assert all(s["pid"] == proc.pid for s in sockets), sockets  # the child holds none
    assert all(procs.on_loopback(s["local"]) for s in sockets), sockets


def test_a_connected_socket_names_both_ends_and_does_not_listen(parent):
    proc, port, _ = parent
    with socket.create_connection(("127.0.0.1", port)) as c:
        here = f"127.0.0.1:{c.getsockname()[1]}"
        mine = [s for s in procs.inet_sockets([psutil.Process().pid]) if s["local"] == here]
    assert mine == [{"pid": psutil.Process().pid, "name": psutil.Process().name(),
                     "proto": "tcp", "local": here, "remote": f"127.0.0.1:{port}",
                     "listening": False}]


def test_a_zombie_and_an_ended_process_are_not_alive():
    proc = subprocess.Popen(["sleep", "300"])
    assert procs.alive(proc.pid)
    proc.kill()
    deadline = time.monotonic() + 10  # killed, not yet reaped: a zombie
    while psutil.Process(proc.pid).status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, "the killed process never became a zombie"
        time.sleep(0.05)
    assert not procs.alive(proc.pid)
    proc.wait()
    assert not procs.alive(proc.pid)
    assert not procs.alive(None) and not procs.alive(0)


def test_the_owner_watch_stops_only_the_processes_that_ran_when_it_started(parent):
    """watch_owner remembers each server process by PID and start time (psutil.Process): when
    the owner is gone it stops those still running, and ends without stopping anything once
    they are gone."""
    proc, _, child = parent
    owner = subprocess.Popen(["sleep", "300"])
    owner.kill()
    owner.wait()
    stopped = []
    procs.watch_owner(owner.pid, lambda: {"server": proc.pid, "helper": child},
                      stopped.append, "test servers")
    assert stopped == [[proc.pid, child]]

    ended = subprocess.Popen(["true"])
    ended.wait()
    procs.watch_owner(owner.pid, lambda: {"server": ended.pid}, stopped.append, "test servers")
    assert stopped == [[proc.pid, child]]


def test_stop_ends_a_process_and_says_how():
    proc = subprocess.Popen(["sleep", "300"])
    try:
        assert procs.stop(proc.pid, 5) == "stopped"  # SIGTERM; a zombie counts as ended
    finally:
        proc.kill()
        proc.wait()
    assert procs.stop(proc.pid, 5) == "not running"
