"""Servers and clients on their own cores when they share a host.

On one machine a client and the servers it measures fight for the same cores: the scheduler
moves them about, a GC pause of one steals from the other, and the throughput of a trial
depends on how they happened to share (measurement.md: a 2-core machine's 2-s ticks swing
+-15%, trials 6% apart). A separate loader host avoids this; on one host the nearest thing is
two disjoint CPU sets: the local servers on the first half of the cores this process may use,
the clients (and the runner, which reads their status lines) on the other half. The sets are
inherited by every process a server script or a client starts (the JVMs, nodetool, the probe).
metadata.json records the sets each phase's processes really had (phase_runner, read back from
the kernel, not from this plan), and the like-for-like check compares them between sides.
"""
import os
from contextlib import contextmanager
from dataclasses import dataclass
from typing import FrozenSet, Iterator, Optional


@dataclass(frozen=True)
class CpuSets:
    servers: FrozenSet[int]
    clients: FrozenSet[int]

    def describe(self) -> str:
        return (f"servers on CPU {_cpus(self.servers)}, clients on CPU {_cpus(self.clients)}")


def _cpus(cpus) -> str:
    return ",".join(str(c) for c in sorted(cpus))


# "auto" splits from this many usable cores on (two or more for each side). Below, a split
# leaves the servers one core, and a fresh server JVM then warms up twice as long (S4
# update-heavy on a fresh Cassandra on one core of two: docs/benchmarks/trials.md): a trial twice
# as long for the same verdict.
AUTO_MIN_CORES = 4
MODES = ("auto", "split", "shared")


def split(available: Optional[FrozenSet[int]] = None) -> Optional[CpuSets]:
    """Half the usable cores for the servers, the other half for the clients; None with one core
    (nothing to split)."""
    cpus = sorted(available if available is not None else os.sched_getaffinity(0))
    if len(cpus) < 2:
        return None
    half = len(cpus) // 2
    return CpuSets(frozenset(cpus[:half]), frozenset(cpus[half:]))


def choose(mode: str, available: Optional[FrozenSet[int]] = None) -> Optional[CpuSets]:
    """The CPU sets of `mode`: split, shared (None), or auto (split from AUTO_MIN_CORES on)."""
    cpus = available if available is not None else frozenset(os.sched_getaffinity(0))
    if mode == "shared" or (mode == "auto" and len(cpus) < AUTO_MIN_CORES):
        return None
    return split(cpus)


def affinity(pid: int) -> Optional[list]:
    """The CPUs a running process may use (None when it is gone)."""
    try:
        return sorted(os.sched_getaffinity(pid))
    except OSError:
        return None


def starter(cpus: Optional[FrozenSet[int]]):
    """A subprocess preexec_fn that confines the child (and all it starts) to `cpus`."""
    if not cpus:
        return None
    return lambda: os.sched_setaffinity(0, cpus)


@contextmanager
def confined(cpus: Optional[FrozenSet[int]]) -> Iterator[None]:
    """This process (the runner, and so every client it starts) on `cpus` until the end."""
    if not cpus:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)
