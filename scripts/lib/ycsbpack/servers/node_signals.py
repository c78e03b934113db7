"""Pausing one node of a local cluster: SIGSTOP to its processes, later SIGCONT (S2's pause
fault, scenarios/fault_pause.py). A stopped JVM keeps its sockets open and the kernel keeps
accepting bytes for it, so its peers see a node that is alive on the network and answers
nothing: a long garbage-collection pause, a frozen VM or a swapped-out process.

Each local server names the processes of node i (`node_pids`); `PausableNodes` gives it
pause_refusal / pause_node / resume_node. The refusal is checked before a pause: every process
is known (its PID file), alive, this user's (signals to another user's process fail) and not
already stopped; what is missing comes back as one sentence.
"""
import os
import signal
import time
from abc import ABC, abstractmethod
from typing import Dict, Optional

import psutil

from ..core import procs
from ..core.errors import ScriptError

STOP_WAIT_S = 5


def process_state(pid: int) -> Optional[str]:
    """The kernel's state of `pid` (psutil's: "running", "sleeping", "stopped", "zombie", ...);
    None when gone."""
    try:
        return psutil.Process(pid).status()
    except psutil.Error:
        return None


def owner(pid: int) -> Optional[int]:
    """The real user id of `pid`, None when it cannot be read."""
    try:
        return psutil.Process(pid).uids().real
    except psutil.Error:
        return None


def refusal(pids: Dict[str, Optional[int]]) -> Optional[str]:
    """Why these processes cannot be paused and resumed by this runner; None when they can."""
    if not pids:
        return "no process of the node is known"
    for name, pid in pids.items():
        if not pid:
            return f"{name} has no PID (no PID file, or the process does not run)"
        if not procs.alive(pid):
            return f"{name} (pid {pid}) does not run"
        uid = owner(pid)
        if uid is None:
            return f"{name} (pid {pid}) cannot be read (gone, or not visible to this runner)"
        if uid != os.getuid():
            return (f"{name} (pid {pid}) belongs to user id {uid}, not to this runner's "
                    f"{os.getuid()}")
        if process_state(pid) == psutil.STATUS_STOPPED:
            return f"{name} (pid {pid}) is already stopped"
    return None


def send(pids: Dict[str, int], sig: int) -> None:
    """`sig` to every process, at once (a node's processes pause and resume together)."""
    for name, pid in pids.items():
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass  # it exited meanwhile (an HBase region server fenced after a resume)


class PausableNodes(ABC):
    """Pause and resume of node i for a local server class that defines node_pids(i)."""

    @abstractmethod
    def node_pids(self, node: int) -> Dict[str, Optional[int]]:
        """{process name: PID or None} of node `node`'s processes."""

    def pause_refusal(self, node: int) -> Optional[str]:
        return refusal(self.node_pids(node))

    def pause_node(self, node: int) -> Dict[str, int]:
        """SIGSTOP to node `node`'s processes; returns them ({name: pid}) for resume_node."""
        pids = self.node_pids(node)
        why = refusal(pids)
        if why:
            raise ScriptError(f"cannot pause node {node}: {why}")
        send(pids, signal.SIGSTOP)
        # signals are delivered asynchronously: the pause begins once the kernel says stopped
        deadline = time.monotonic() + STOP_WAIT_S
        while any(process_state(p) not in (psutil.STATUS_STOPPED, None) for p in pids.values()):
            if time.monotonic() > deadline:
                send(pids, signal.SIGCONT)
                raise ScriptError(f"node {node}'s processes {pids} were not stopped "
                                  f"{STOP_WAIT_S} s after SIGSTOP")
            time.sleep(0.02)
        return dict(pids)

    def resume_node(self, paused: Dict[str, int]) -> None:
        """SIGCONT to the processes pause_node stopped."""
        send(paused, signal.SIGCONT)
