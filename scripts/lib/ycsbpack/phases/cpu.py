"""CPU time of the processes of a phase, from /proc: who was the bottleneck.

On one machine client and servers share the cores: throughput is roughly cores / (client +
server CPU per operation), so a cheaper client looks like a faster database. The runner
records both per phase (metadata.json "cpu"); the analysis shows them per operation and flags
a client that used most of its cores.
"""
import os
from typing import Dict, Optional

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu_s(pid: int, children: bool = False) -> Optional[float]:
    """User + system CPU seconds of a running process (its threads included; with `children`,
    those of its children that ended and were waited for, too); None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        # utime, stime (fields 14, 15); cutime, cstime (16, 17)
        return sum(int(f) for f in fields[11:15 if children else 13]) / _TICKS
    except (OSError, IndexError, ValueError):
        return None


def snapshot(pids: Dict[str, int]) -> Dict[str, float]:
    out = {}
    for name, pid in pids.items():
        v = process_cpu_s(pid)
        if v is not None:
            out[name] = v
    return out


def used(before: Dict[str, float], after: Dict[str, float]) -> Dict[str, float]:
    """CPU seconds each process used between two snapshots (those present in both)."""
    return {k: round(after[k] - before[k], 3) for k in before if k in after}


def reap(proc, block: bool = True):
    """Waits for a Popen child with wait4, so its CPU time is known (its own and that of its
    reaped children: bin/ycsb execs the JVM, so this is the client JVM). Sets proc.returncode;
    returns the CPU seconds, or None when non-blocking and the child still runs."""
    pid, status, usage = os.wait4(proc.pid, 0 if block else os.WNOHANG)
    if pid == 0:
        return None
    proc.returncode = os.waitstatus_to_exitcode(status)
    return round(usage.ru_utime + usage.ru_stime, 3)


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
