"""Warm-up before the measured part of a phase: its own workload, in the same clients, until
the throughput is steady.

A freshly started server and client climb for tens of seconds (JIT, caches, connection pools);
a short cold phase measures the climb, not the database. A warm-up in a separate client process
does not help: the measured client JVM would start cold again (measured here: 10 s without an
operation and a 20-s climb on a warm local Cassandra). So a warmed-up phase is ONE run of its
clients, in two parts:
  1. warm-up: the runner reads the status lines (every `interval` s) as they come and judges the
     last `window` seconds by the shared rule (analysis/ycsb_analysis/stability.is_warm: that
     window and the one before each without a trend by the autocorrelation-corrected test and
     with a low spread, and at the same level; a paced phase also keeping its schedule:
     stability.keeps_schedule, its last ticks at its -target, no backlog to catch up); it ends
     when they are stable, or after `max_s` seconds (so it lasts at least two windows; the
     maximum counts once every client runs operations: a client creating its table has nothing
     to warm up);
  2. measured: the phase's own maxexecutiontime more seconds; then the runner creates the stop
     file the clients watch (ycsbpack.stopfile, binding-common StopFileWatcher) and they end as
     at their time limit, with their final report.
metadata.json "warmup" records where the warm-up ended (`end_s`, seconds of the status lines)
and whether it was steady; the analysis (steady_state.py) takes its figures from the intervals
after `end_s` only, never from the warm-up, which stays in the output for people to see
(the over-time charts show it). YCSB's final report covers the whole run, warm-up included
(Return= counts too); the report says so. A count-bound phase ends by its count.

A `load` cannot repeat itself (its keys would exist already), nor can a phase that consumes its
data (S3's deletes): those run without a warm-up, and the analysis reports them over their
steady window instead.

Bounds per scale (SCALE_BOUNDS), overridable per phase or by the user with the properties
`warmup.maxtime` (seconds, 0 = no warm-up) and `warmup.window` (seconds).
"""
import threading
import time
from dataclasses import dataclass
from typing import Dict, List, Optional

# the steadiness rule and YCSB's line formats, shared with the analysis (standard library only:
# nothing else of it loads)
from ycsb_analysis import stability
from ycsb_analysis.readers.line_formats import status_line

from ..core.errors import ScriptError

MAXTIME, WINDOW = "warmup.maxtime", "warmup.window"
# seconds: (longest warm-up, window judged stable, status interval while warming up)
# (local: 2-s intervals, 10 samples per window; a 2-core machine's 1-s samples swing +-50%)
# (ci: 1-s intervals, a 4-s window (two of them at least), at most 8 s of operations: CI-size
# phases check code paths, not figures, and a longer bound did not make them steady: docs/
# benchmarks/warm-up.md; 12 s from the client's start, as before the maximum counted from the
# first operations, left about 8 s of them)
SCALE_BOUNDS = {"cluster": (300, 30, 5), "local": (60, 20, 2), "ci": (8, 4, 1)}


@dataclass
class WarmUp:
    max_s: float
    window_s: float
    interval_s: int = 1

    @property
    def samples(self) -> int:
        return max(stability.MIN_SAMPLES, int(round(self.window_s / self.interval_s)))


def bounds(scale: str, props: Dict[str, str]) -> Optional[WarmUp]:
    """The warm-up of a phase at `scale` with merged properties `props`; None for no warm-up."""
    max_s, window_s, interval = SCALE_BOUNDS[scale]
    try:
        max_s = float(props.get(MAXTIME, max_s))
        window_s = float(props.get(WINDOW, window_s))
    except ValueError as e:
        raise ScriptError(f"{MAXTIME}/{WINDOW} must be numbers of seconds: {e}")
    return WarmUp(max_s, window_s, interval) if max_s > 0 else None


class Judge:
    """Collects each client's per-interval throughput from its status lines and says when the
    clients together are stable (sum over clients of their k-th samples)."""

    def __init__(self, clients: int, warmup: WarmUp, objective_watch=None,
                 target: Optional[float] = None):
        self.warmup = warmup
        self.target = target  # the clients' -target together (ops/s); None: a closed loop
        self.objective_watch = objective_watch  # a capacity step's (objective_watch.py)
        self.series: List[List[tuple]] = [[] for _ in range(clients)]  # (status seconds, ops/s)
        self.lock = threading.Lock()
        self.stable = threading.Event()
        self.decided = False  # set by the runner when the warm-up is over: no more samples

    def feed(self, client: int, line: str) -> None:
        if self.objective_watch:
            self.objective_watch.feed(client, line)
        status = status_line(line)
        if not status or status.current_ops_per_s is None or self.stable.is_set():
            return
        with self.lock:
            if self.decided:
                return
            self.series[client].append((status.elapsed_s, status.current_ops_per_s))
            totals = self.totals()
            if stability.is_warm(totals, self.warmup.samples) and stability.keeps_schedule(
                    totals, self.target, self.warmup.interval_s):
                self.stable.set()

    def operating(self) -> bool:
        """Whether every client has reported operations in a status interval."""
        with self.lock:
            return all(any(r > 0 for _, r in s) for s in self.series)

    def totals(self) -> List[float]:
        n = min(len(s) for s in self.series)
        # sample 0 covers the client's start-up
        return [sum(s[k][1] for s in self.series) for k in range(1, n)]

    def window(self) -> List[float]:
        t = self.totals()
        return t[-self.warmup.samples:] if len(t) >= self.warmup.samples else []

    def seconds(self) -> int:
        """Status-line seconds of the last sample all clients have (0 before any)."""
        n = min(len(s) for s in self.series)
        return max(s[n - 1][0] for s in self.series) if n else 0


class InRunWarmUp:
    """The warm-up of one phase run (module docstring): the clients' extra properties, the
    judge of their status lines, and the stop once warm and measured."""

    def __init__(self, warmup: WarmUp, measured_s: float, stop_file, clients: int,
                 touch: bool = True, objective_watch=None, longer: Optional[tuple] = None,
                 target: Optional[float] = None):
        self.warmup, self.measured_s, self.stop_file = warmup, measured_s, stop_file
        self.judge = Judge(clients, warmup, objective_watch, target)
        # a capacity step's (seconds, factor): measured this long when, at the end of its
        # window, the objective's percentile is within the factor of its bound (capacity.py)
        self.longer = longer if objective_watch and longer and longer[0] > measured_s else None
        self.extended = None    # why and to how long a capacity step's window was extended
        self.ended_early = None  # why a capacity step's objective broke for certain, and when
        self.end_s = None       # status-line seconds where the warm-up ended
        self.steady = False
        self.took_s = None
        self.t0 = None
        self.overrides = {"status.interval": str(warmup.interval_s),
                          "ycsbpack.stopfile": str(stop_file)}
        if measured_s > 0:
            # the clients' own bound: warm-up, measured part, and some slack; the stop file
            # normally ends them earlier
            self.overrides["maxexecutiontime"] = str(
                int(warmup.max_s + max(measured_s, self.longer[0] if self.longer else 0) + 30))
        if touch:  # (not for --dry-run, which only shows the plan)
            stop_file.unlink(missing_ok=True)

    def part(self) -> str:
        """Which part of the phase runs and how long it can last, for the progress lines (in
        place of YCSB's completion estimate for an operation count nobody will reach)."""
        now = time.monotonic()
        if self.t0 is None:
            return "starting"
        if self.took_s is None:
            return (f"warm-up {now - self.t0:.0f} s of at most {self.warmup.max_s:g} s, "
                    f"until the last {self.warmup.window_s:g} s are steady")
        if self.measured_s > 0:
            planned = self.extended["to_s"] if self.extended else self.measured_s
            left = planned - (now - self.t0 - self.took_s)
            return f"measuring, {max(0.0, left):.0f} s left"
        return "measuring until the count is done"

    def control(self, stderr_threads, t0: float) -> None:
        """While the clients run: wait for a steady window (or max_s), then measured_s more
        seconds, then create the stop file. Returns when the clients have ended."""
        ended = threading.Event()
        threading.Thread(target=lambda: ([t.join() for t in stderr_threads], ended.set()),
                         daemon=True).start()
        self.control_until(ended, t0)

    def control_until(self, ended: threading.Event, t0: float, stop=None) -> None:
        """control() for clients whose end is signalled by `ended`; `stop()` delivers the stop
        (default: create the stop file on this machine; the fleet creates it on every loader)."""
        self.t0 = t0
        # the maximum counts from the clients' first operations: a client still creating its
        # table (an HBase cluster pre-splitting 64 regions, 20-30 s on 2 busy cores) or finding
        # its regions on a fresh server (up to 9 s at CI scale) has nothing to warm up yet (its
        # own time bound still ends it)
        deadline = None
        while not ended.is_set() and not self.judge.stable.is_set():
            if deadline is None and self.judge.operating():
                deadline = time.monotonic() + self.warmup.max_s
            if deadline is not None and time.monotonic() >= deadline:
                break
            self.judge.stable.wait(0.2)
        if ended.is_set():
            return
        with self.judge.lock:
            self.judge.decided = True
            # no throughput sample yet from every client (a slow start): no end to record, the
            # analysis finds the steady window itself
            self.end_s = self.judge.seconds() or None
            self.steady = self.judge.stable.is_set()
        self.took_s = time.monotonic() - t0
        window = self.judge.window()
        how = "steady" if self.steady else "NOT steady (maximum time reached" + (
            f"; not at its target {self.judge.target:,.0f} ops/s: behind its schedule)"
            if not stability.keeps_schedule(window, self.judge.target, self.warmup.interval_s)
            else ")")
        last = (f"last window {[round(x) for x in window]} ops/s" if window else
                f"fewer than {self.warmup.samples} status intervals with operations")
        print(f"  warm-up {how} at {self.end_s or 0} s; {last}; measuring "
              + (f"at most {self.measured_s:g} s more" if self.measured_s > 0
                 else "until the count is done"), flush=True)
        if self.measured_s > 0 and not self._measure(ended):
            (stop or self.stop_file.touch)()
        ended.wait()

    def _measure(self, ended: threading.Event) -> bool:
        """Waits out the measured part; True when the clients ended by themselves. A capacity
        step ends early once its objective is broken for certain, and goes on to its longer
        window when it is undecided at the end of its own (objective_watch.py)."""
        start = time.monotonic()
        deadline = start + self.measured_s
        watch = self.judge.objective_watch
        while not ended.wait(max(0.0, min(1.0, deadline - time.monotonic()))):
            if time.monotonic() >= deadline:
                why = (watch.undecided(self.end_s, self.longer[1])
                       if self.longer and not self.extended else None)
                if not why:
                    return False
                seconds = self.longer[0]
                self.extended = {"to_s": seconds, "why": why}
                watch.measured_s = seconds  # the window "broken for certain" is judged on
                deadline = start + seconds
                print(f"  measuring {seconds:g} s in all instead of {self.measured_s:g}: {why}",
                      flush=True)
                continue
            why = watch.broken(self.end_s) if watch else None
            if why:
                took = time.monotonic() - start
                planned = self.extended["to_s"] if self.extended else self.measured_s
                self.ended_early = {"after_s": round(took, 1), "why": why}
                print(f"  measured part ended after {took:.0f} s of {planned:g}: {why}",
                      flush=True)
                return False
        return True

    def record(self) -> dict:
        w = self.judge.window()
        out = {"in_run": True, "end_s": self.end_s, "stable": self.steady,
               "max_s": self.warmup.max_s, "window_s": self.warmup.window_s,
               "interval_s": self.warmup.interval_s, "measured_s": self.measured_s,
               "window_ops_per_s": [round(x, 1) for x in w],
               "trend": round(stability.trend(w), 4) if len(w) > 1 else None,
               "spread": round(stability.spread(w), 4) if len(w) > 1 else None,
               "rule": {"trend": stability.TREND, "spread": stability.SPREAD,
                        "same_level": stability.WARM_TREND, "rho_floor": stability.RHO_FLOOR,
                        "on_schedule": stability.ON_SCHEDULE}}
        if self.judge.target:
            out["target"] = self.judge.target
            out["keeps_schedule"] = stability.keeps_schedule(w, self.judge.target,
                                                             self.warmup.interval_s)
        if self.extended:
            out["extended"] = self.extended
        if self.ended_early:
            out["ended_early"] = self.ended_early
        if self.end_s is None:
            out["note"] = ("the clients ended (count-bound) before the warm-up was over, or had "
                           "no throughput yet at its maximum time: the analysis finds the steady "
                           "window itself")
        self.stop_file.unlink(missing_ok=True)
        return out
