"""The arithmetic of scripts/bench-binding, apart from any process: the steady window of one run,
its ops/s and client CPU per operation, and the medians of pair ratios over interleaved runs.

A run gives two time series on the wall clock: YCSB-style status lines ("<date> <time> N sec: M
operations;", cumulative operations) and samples of the client JVM's CPU time (utime + stime from
/proc/<pid>/stat). The window starts `warmup` seconds after the first status line and lasts
`measured` seconds; both series are interpolated linearly at its ends.
"""
import statistics
from dataclasses import dataclass

from ycsb_analysis.readers.line_formats import status_line


def status_points(stderr: str) -> list:
    """(wall-clock seconds, cumulative operations) of each status line, in order."""
    return [(s.time.timestamp(), s.operations) for s in map(status_line, stderr.splitlines())
            if s]


def cpu_seconds(proc_stat: str, ticks_per_second: int) -> float:
    """utime + stime of a /proc/<pid>/stat line, in seconds (fields 14 and 15; the command name
    in parentheses may hold spaces, so fields are counted after its closing parenthesis)."""
    fields = proc_stat[proc_stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / ticks_per_second


def at(series: list, t: float) -> float:
    """The value of a (time, value) series at time t, linear between the two samples around it."""
    for (t0, v0), (t1, v1) in zip(series, series[1:]):
        if t0 <= t <= t1:
            return v0 if t1 == t0 else v0 + (v1 - v0) * (t - t0) / (t1 - t0)
    raise ValueError(f"time {t:.1f} is outside the samples "
                     f"({series[0][0]:.1f}..{series[-1][0]:.1f})" if series else "no samples")


def is_jit_thread(proc_stat: str) -> bool:
    """A /proc/<pid>/task/<tid>/stat line of one of HotSpot's JIT compiler threads (named
    "C1 CompilerThread<n>" / "C2 CompilerThread<n>", cut to 15 characters by the kernel)."""
    name = proc_stat[proc_stat.index("(") + 1:proc_stat.rindex(")")]
    return name.startswith(("C1 CompilerThre", "C2 CompilerThre"))


@dataclass(frozen=True)
class Window:
    ops_per_s: float
    cpu_us_per_op: float  # client JVM CPU microseconds per operation
    start: float
    end: float
    jit_us_per_op: float = 0.0  # of which the JIT compiler threads'


def steady_window(status: list, cpu: list, warmup: float, measured: float,
                  jit: list = None) -> Window:
    """ops/s and client CPU per operation over [first status + warmup, + measured]; with a
    series of the JIT compiler threads' CPU time, also their part of it."""
    if len(status) < 2:
        raise ValueError("fewer than two status lines: the run did not get going")
    start = status[0][0] + warmup
    end = start + measured
    if end > status[-1][0]:
        raise ValueError(f"the run ended {end - status[-1][0]:.1f} s before the end of the "
                         f"window ({warmup:g} s warm-up + {measured:g} s measured)")
    ops = at(status, end) - at(status, start)
    if ops <= 0:
        raise ValueError("no operation completed in the measured window")
    cpu_s = at(cpu, end) - at(cpu, start)
    jit_s = at(jit, end) - at(jit, start) if jit else 0.0
    return Window(ops / (end - start), cpu_s * 1e6 / ops, start, end, jit_s * 1e6 / ops)


def pair_ratios(a_runs: list, b_runs: list, attribute: str) -> list:
    """attribute of a / attribute of b, for runs paired by repetition."""
    return [getattr(a, attribute) / getattr(b, attribute) for a, b in zip(a_runs, b_runs)]


def median(values: list) -> float:
    return statistics.median(values)


def leg_order(legs: list, repeat: int) -> list:
    """Interleaved order: A,B then B,A then A,B... so a linear drift of the shared machine hits
    every leg alike; each entry is (repetition, leg)."""
    order = []
    for r in range(repeat):
        seq = legs if r % 2 == 0 else list(reversed(legs))
        order += [(r, leg) for leg in seq]
    return order


def result_line(db: str, cpu_ratio: float, ops_ratio: float) -> str:
    return f"RESULT db={db} cpu_per_op_vs_raw={cpu_ratio:.2f} ops_vs_raw={ops_ratio:.2f}"
