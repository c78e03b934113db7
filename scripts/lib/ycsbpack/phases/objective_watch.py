"""A capacity step ends early when its objective is broken for certain: whatever the rest of its
measured window brings, the window's percentile of intended latency cannot come back within the
bound. A step at 80% of the ceiling that breaks p99<=50ms at 213 ms (docs/benchmarks/capacity.md)
tells everything in its first seconds; measuring it a whole minute only spends the search's
budget, which then lacks a bisection step where the answer is decided.

Certain, not likely: the rule compares a lower bound of the operations above the bound with an
upper bound of the operations the whole window can hold.
- Above the bound, per status interval and operation (`[Intended-READ: Count=c, ..., 90=v90,
  99=v99, ...]`, the interval's own histogram): when the interval's q-th percentile is above
  the bound, fewer than ceil(q c / 100) of its c operations were within it (HdrHistogram's
  value at a percentile is the lowest whose cumulative count reaches that many), so at least
  c - ceil(q c / 100) + 1 were above; the rule takes c - floor(q c / 100), the same or one
  fewer (safe against the rounding of q c / 100); at least 1 when its Max is above. A value
  counts as above only beyond the bound by the histogram's precision (3 significant digits:
  values in one bucket differ by < 0.1%; 1% is taken).
- The whole window, per client: YCSB's `-target` never lets a thread run ahead of its schedule
  (thread start + done x tick), so a client has done at most target x seconds since its start
  + its threads; the window holds at most that at its end (warm-up end + measured seconds +
  SLACK_S) less what the client had done when its warm-up ended.
The window's percentile p is above the bound for certain when the operations above it exceed
(1 - p/100) x that upper bound: the analysis then judges the shorter window the same way (its
share above the bound is larger still). An objective on one operation counts that operation's
above the bound against every operation of the window (an upper bound of its own, whatever
the mix). An objective on every operation counts them all together: if each operation had at
most (1 - p/100) of its own above the bound, all of them together would have at most that
share of the total, so more than that share means at least one operation breaks.

A step that neither held nor broke clearly is measured longer (`undecided`, capacity.py's
LONGER): at the end of its window, the watch ESTIMATES each operation's percentile over the
window from the status intervals (the share of an interval's operations above a value,
interpolated between its reported percentiles: geometric in the share, linear in the value;
the window's share is the intervals' shares weighted by their counts). The estimate only
chooses the window's length; the step's verdict is the analysis's, from the .hdr logs.
"""
import math
import threading
from typing import Dict, List, Optional, Tuple

from ycsb_analysis.readers.line_formats import hdr_measurements, status_line

INTENDED = "Intended-"
PRECISION = 1.01  # a reported value above bound x this: every value of its bucket is above
SLACK_S = 5       # status seconds truncated (1), the judge (0.2), the stop file poll (0.1), a relay


class ObjectiveWatch:
    """Fed every status line of a paced step's clients; `broken(end_s)` says, once the warm-up
    ended at status second `end_s`, whether the objective is broken for certain (module
    docstring), with why."""

    def __init__(self, percentile: float, bound_us: float, operation: str,
                 client_targets: List[float], client_threads: List[int], measured_s: float):
        self.percentile, self.bound_us, self.operation = percentile, bound_us, operation
        self.targets, self.threads, self.measured_s = client_targets, client_threads, measured_s
        # per client: [(status seconds, operations done, {operation: at least this many above})]
        self.lines: List[List[Tuple[int, int, Dict[str, int]]]] = [[] for _ in client_targets]
        # per client: [(status seconds, operation, count, [(percentile, µs), ..., (100, max)])]
        self.intervals: List[List[tuple]] = [[] for _ in client_targets]
        self.lock = threading.Lock()

    def feed(self, client: int, line: str) -> None:
        head = status_line(line)
        if not head:
            return
        above, interval = {}, []
        for m in hdr_measurements(head.rest):
            if not m.metric.startswith(INTENDED):
                continue
            op = m.metric[len(INTENDED):]
            if (op.endswith(("-FAILED", "-RECORDS")) or op == "CLEANUP"
                    or self.operation and op != self.operation):
                continue
            above[op] = self._above(m.count, m.max_us, m.percentiles)
            interval.append((op, m.count, sorted(m.percentiles) + [(100.0, m.max_us)]))
        with self.lock:
            s = head.elapsed_s
            self.lines[client].append((s, head.operations, above))
            self.intervals[client] += [(s, *i) for i in interval]

    def _above(self, count: int, max_us: int, percentiles: List[Tuple[float, int]]) -> int:
        """The fewest operations of one interval that were above the bound."""
        over = self.bound_us * PRECISION
        least = 1 if count and max_us > over else 0
        for q, v in percentiles:
            if v > over:
                least = max(least, count - math.floor(q * count / 100 + 1e-9))
        return least

    def broken(self, end_s: Optional[int]) -> Optional[str]:
        """Why the objective is broken for certain over the window after status second
        `end_s`, or None while it can still hold."""
        if end_s is None:
            return None
        above: Dict[str, int] = {}
        most = 0.0
        with self.lock:
            for lines, target, threads in zip(self.lines, self.targets, self.threads):
                done_before = max((ops for s, ops, _ in lines if s <= end_s), default=0)
                most += max(0.0, target * (end_s + self.measured_s + SLACK_S) + threads
                            - done_before)
                for s, _, ops in lines:
                    if s > end_s:
                        for op, n in ops.items():
                            above[op] = above.get(op, 0) + n
        # an objective on every operation: together (pigeonhole, module docstring)
        counted = ({" and ".join(sorted(above)): sum(above.values())} if not self.operation
                   else above)
        allowed = (1 - self.percentile / 100) * most
        for ops, n in counted.items():
            if n > allowed:
                return (f"{ops}: at least {n:,} operations above {self.bound_us / 1000:g} ms "
                        f"of intended latency, more than {100 - self.percentile:g}% of the "
                        f"{most:,.0f} the window can hold at its target: p{self.percentile:g} "
                        "is broken whatever follows")
        return None

    def estimate(self, end_s: Optional[int]) -> Dict[str, float]:
        """{operation: its objective percentile over the window after status second `end_s`,
        estimated from the status intervals (module docstring), µs}."""
        counts: Dict[str, list] = {}
        with self.lock:
            for intervals in self.intervals:
                for s, op, count, points in intervals:
                    if end_s is not None and s > end_s and count:
                        counts.setdefault(op, []).append((count, points))
        allowed = 1 - self.percentile / 100
        out = {}
        for op, rows in counts.items():
            total = sum(c for c, _ in rows)

            def share(v: float) -> float:
                return sum(c * _share_above(points, v) for c, points in rows) / total
            lo, hi = 0.0, float(max(p[-1][1] for _, p in rows))
            for _ in range(40):  # the window's share above v falls as v grows: bisect
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if share(mid) > allowed else (lo, mid)
            out[op] = hi
        return out

    def undecided(self, end_s: Optional[int], factor: float) -> Optional[str]:
        """Why the window after `end_s` should be measured longer: an operation's estimated
        percentile within `factor` of the bound either way and none clearly beyond it (None
        when the step held or broke clearly)."""
        est = self.estimate(end_s)
        if not est or any(v > self.bound_us * factor for v in est.values()):
            return None
        near = {op: v for op, v in est.items() if v >= self.bound_us / factor}
        if not near:
            return None
        return ("; ".join(f"{op} p{self.percentile:g} about {v / 1000:,.1f} ms" for op, v
                          in sorted(near.items()))
                + f", within a factor {factor:g} of {self.bound_us / 1000:g} ms")


def _share_above(points: List[Tuple[float, int]], v: float) -> float:
    """The share of one interval's operations above `v` µs, from its percentiles (points:
    (percentile, µs) ascending, the last (100, max)): interpolated geometrically in the share
    above, linearly in the value; below the lowest point, linearly from (0 µs, all)."""
    prev_q, prev_v = 0.0, 0.0
    for q, value in points:
        if v < value:
            a, b = 1 - prev_q / 100, 1 - q / 100
            t = (v - prev_v) / (value - prev_v)
            return a * (b / a) ** t if b > 0 and prev_q > 0 else a + (b - a) * t
        prev_q, prev_v = q, float(value)
    return 0.0
