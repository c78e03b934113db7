"""Capacity under a latency objective (`run-scenario ... --slo "p99<=10ms"`): the highest rate
at which a run phase keeps its objective on intended latency.

Each run phase of the scenario becomes a search of steps, each an ordinary phase run (warmed up,
then measured; its own results directory `<database>-<phase>-step-<k>`):
  step 0, the probe: unthrottled; its steady throughput is the ceiling C.
  steps 1..n: YCSB `-target R` (shared out between the phase's clients; YCSB spreads a
  client's target over its threads) with `measurement.interval=both`, so every operation is
  also measured from its intended start time (`Intended-<OP>`): a client that falls behind its
  schedule shows the queueing as intended latency instead of hiding it (coordinated omission).
A step HOLDS when, over its measured window, the objective's percentile of intended latency is
within the bound for the operation named (every operation when none is) and the achieved rate
is at least KEEP_UP of the target. The analysis judges a step (ycsb_analysis.capacity:
judge_step_dir, one definition of the rule); this module only chooses the next rate and how long
a step is measured:
- the rate: the first step at FIRST_STEP x C (about where the searches on record ended), then
  steps of STRIDE x C towards the answer until the objective changes side (up while no step
  above the highest that held has failed, down while none held), then bisection between the
  highest rate that held and the lowest above it that did not, until the two are within
  RESOLUTION of each other or the scale's number of steps is spent;
- the window: near its answer a step's p99 over a minute turns on whether one stall of the
  server falls in it (docs/benchmarks/capacity.md). So a
  step whose percentile, at the end of its window, is within a factor UNDECIDED of the bound
  either way (the runner's estimate from the status lines: objective_watch.py) is measured
  LONGER times as long, in the same run, and decided on the whole window; a step that held or
  broke clearly ends at its window (or earlier, once broken for certain).
Where the scale asks for it (CONFIRMS), the highest target that held is then CONFIRMED: run
again, in a window of its own. A target counts as held only when every step at it held, so a
failed confirmation sends the search below it (bisecting again if the gap is wide, else
confirming the next lower target that held). The capacity of a trial is the highest target at
which every step held; with --repeat the trials give its interval, and with two databases their
ratio (ycsb-report: capacity.csv, verdicts.csv). The probe never holds: with no schedule its
intended latency is its service time (a closed loop waits for the database, the coordinated
omission this mode exists to avoid); only paced steps decide.
A paced step runs with enough client threads for its target (threads_for): a client whose
threads are mostly busy queues operations behind its own threads, and that queue would show as
the server's intended latency. The probe runs the phase's threads T closed-loop, so by Little's
law an operation occupies a thread T / C seconds; at target R the client needs R x T / C
threads busy on average, and a step gets enough that they are at most CLIENT_BUSY busy (the
phase's own T at the least). The analysis measures how busy they really were and says when a
step was client-limited all the same (ycsb_analysis.capacity).
"""
import copy
import math
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional, Tuple

from ..core.errors import ScriptError
from ..phases.phase_runner import Phase

KEEP_UP = 0.95       # achieved / target at least this: the client kept its schedule
# the first target, as a share of the probe's ceiling: the searches on record
# (docs/benchmarks/capacity.md) found 40-65% of it
FIRST_STEP = 0.6
# then steps of this share of the ceiling until the objective changes side: a capacity at
# 40-80% of the ceiling is bracketed within 0.1 x the ceiling in 2-3 steps and found within
# RESOLUTION in 3-4 (bisection from 0.6 spent a step at 0.8 or 0.3 in most of those searches);
# outside that range the search takes more steps and may end with a wider gap, which it says
STRIDE = 0.1
RESOLUTION = 0.10    # stop when the highest held and the lowest failed rate are this close
# paced steps at most (after the probe). Local 5: 3-4 within 40-80% of the ceiling, one for a
# longer window's worth of time left; broken steps end early (objective_watch.py) and BUDGET_S
# keeps the search within its time whatever the steps cost
STEPS = {"cluster": 6, "local": 5, "ci": 2}
# confirmations of the rate found, at most. Local 0: the longer window of an undecided step
# (LONGER) takes their time and decides on three minutes where a confirmation added one (a
# confirmation cost 107 s); the cluster scale has no time bound and keeps both
CONFIRMS = {"cluster": 2, "local": 0, "ci": 0}
# each step's measured seconds, unless the user or the phase sets maxexecutiontime: a p99 of
# intended latency over 30 s turned on one or two stalls of a busy machine (the same target
# held once and broke once: docs/benchmarks/capacity.md); 0 keeps the scale's own (CI: seconds)
MEASURE_S = {"cluster": 120, "local": 60, "ci": 0}
# an undecided step (its percentile within UNDECIDED x the bound either way, estimated at the
# end of its window) is measured LONGER x its seconds in all. 60-s windows near a search's
# answer ranged over 2.5-7 x at one rate (docs/benchmarks/capacity.md); 3 x the window averages
# over 3 x as many stalls. CI: 1, never (its steps check code paths, not figures)
UNDECIDED = 3.0
LONGER = {"cluster": 3, "local": 3, "ci": 1}
# the probe's: it decides nothing, its steady throughput only sets the targets' scale (2-s
# intervals: 15 samples locally)
PROBE_MEASURE_S = {"cluster": 60, "local": 30, "ci": 0}
# seconds a search may take (its probe and steps, not the checks; 0: no bound): a step starts
# only when the time spent plus the longest step so far fits. Local: issue 33's 15 minutes on
# 2 cores (a step: about 45 s of warm-up, 60 s measured, 180 when undecided)
BUDGET_S = {"cluster": 0, "local": 15 * 60, "ci": 0}
# a paced step's client threads busy at most this share of the time at the probe's time per
# operation (threads_for). An S4 update-heavy step at 7,702 ops/s with the phase's 8 threads
# fell behind its schedule (intended p99 155 ms) where a plain run at 8,665 ops/s with 16
# threads on a warm server kept an intended p99 of 13 ms
CLIENT_BUSY = 0.25
CHECKS = (0.9, 1.25)  # --slo-check: independent steps at these shares of the capacity found
UNITS_US = {"us": 1.0, "ms": 1000.0, "s": 1_000_000.0}
_OBJECTIVE = re.compile(r"^(?:(?P<op>[A-Za-z_]+):)?p(?P<pct>\d+(?:\.\d+)?)\s*<=\s*"
                        r"(?P<bound>\d+(?:\.\d+)?)\s*(?P<unit>us|ms|s)$")


@dataclass(frozen=True)
class Objective:
    text: str
    percentile: float  # 99.0 for p99
    bound_us: float
    operation: str = ""  # "" = every operation of the phase

    def metadata(self) -> dict:
        return {"text": self.text, "percentile": self.percentile, "bound_us": self.bound_us,
                "operation": self.operation}


def parse_objective(text: str) -> Objective:
    """'p99<=10ms', 'READ:p99.9<=2500us', 'p50<=1ms' -> Objective; one sentence when not."""
    m = _OBJECTIVE.match(text.strip().replace(" ", ""))
    if not m or not 0 < float(m.group("pct")) < 100:
        raise ScriptError(f"--slo {text!r}: expected [OPERATION:]pPERCENTILE<=BOUND with a unit, "
                          "e.g. p99<=10ms or READ:p99.9<=2500us (percentile between 0 and 100)")
    bound = float(m.group("bound")) * UNITS_US[m.group("unit")]
    if bound <= 0:
        raise ScriptError(f"--slo {text!r}: the bound must be above 0")
    return Objective(text.strip(), float(m.group("pct")), bound, (m.group("op") or "").upper())


def capacity_of(tried: List[Tuple[float, bool]]) -> float:
    """The highest target at which every step held (0 when none; a target is run again to
    confirm it)."""
    return max((r for r, _ in tried if all(ok for t, ok in tried if t == r)), default=0.0)


def latency_floor(judged: List[dict], objective: Objective) -> float:
    """The lowest objective figure (intended latency, µs) of the paced steps `judged` (each
    step's worst operation, which decides it); NaN when none was measured. Where no step held
    on latency, the objective lies below this floor at every rate tried."""
    key = f"p{objective.percentile:g}"
    worst = [max(o["intended"][key]["us"] for o in step["operations"].values())
             for step in judged if step.get("operations")]
    return min(worst, default=float("nan"))


def next_rate(ceiling: float, tried: List[Tuple[float, bool]], steps: int,
              confirms: int = 0) -> Optional[float]:
    """The next target (ops/s) after the steps `tried` ((target, held), in order), or None when
    the search is over (module docstring): `steps` paced steps, then `confirms` runs again of
    the highest target that held until one target has held twice."""
    if ceiling <= 0:
        return None
    if not tried:
        return FIRST_STEP * ceiling
    lo = capacity_of(tried)
    failed = [r for r, ok in tried if not ok and r > lo]
    hi = min(failed, default=ceiling)
    repeats = len(tried) - len({r for r, _ in tried})
    if len(tried) - repeats < steps and hi > lo and (hi - lo) > RESOLUTION * hi:
        if not failed:  # no step above the highest held failed: up
            return min(lo + STRIDE * ceiling, ceiling)
        if not lo:  # none held: down
            return max(hi - STRIDE * ceiling, hi / 2)
        return (lo + hi) / 2
    if lo and repeats < confirms and [r for r, _ in tried].count(lo) < 2:
        return lo
    return None


def threads_for(target: float, ceiling: float, threads: int) -> int:
    """Client threads for a step at `target` ops/s of a search whose probe achieved `ceiling`
    with `threads` a client: busy CLIENT_BUSY of the time at the probe's time per operation
    (module docstring), at least `threads`."""
    if not ceiling > 0 or not target:
        return threads
    return max(threads, math.ceil(threads * target / ceiling / CLIENT_BUSY))


def searches(steps: list, objective: Optional[Objective], scale: str,
             check: bool = False) -> list:
    """The plan's (context, step) list with every measured run phase replaced by its capacity
    search (loads, a phase that consumes its data, actions and the fault phase stay); with
    `check`, each search ends with a run at each share of CHECKS of the capacity it found."""
    if objective is None:
        return steps
    return [(ctx, CapacitySearch(st, objective, STEPS[scale], CHECKS if check else (),
                                 measure_s=MEASURE_S[scale], confirms=CONFIRMS[scale],
                                 probe_measure_s=PROBE_MEASURE_S[scale],
                                 budget_s=BUDGET_S[scale], longer=LONGER[scale])
             if isinstance(st, Phase) and st.command == "run" and st.repeatable else st)
            for ctx, st in steps]


def add_capacity_option(p) -> None:
    p.add_argument("--slo", metavar="OBJECTIVE",
                   help="capacity mode: search each run phase for the highest rate that keeps "
                        "this objective on intended latency, e.g. 'p99<=10ms' or "
                        "'READ:p99.9<=2500us' (docs/capacity.md)")
    p.add_argument("--slo-check", action="store_true",
                   help="with --slo: after each search, run the phase at "
                        + " and ".join(f"{c:g}" for c in CHECKS)
                        + " x the capacity found (the first should hold, the second not)")


def judge_step(phase_dir: Path) -> dict:
    """The analysis's judgement of one step (ycsb_analysis.capacity.judge_step_dir): achieved
    rate, the objective's latencies, whether it held and why not."""
    from ycsb_analysis.capacity import judge_step_dir  # polars and numpy: only when judging
    from ycsb_analysis.errors import UnreadableInput

    try:
        return judge_step_dir(phase_dir)
    except UnreadableInput as e:
        raise ScriptError(f"the analysis could not judge a capacity step: {e}")


@dataclass
class CapacitySearch:
    """A step of the plan that runs a capacity search of one run phase (module docstring)."""
    phase: Phase           # the phase searched
    objective: Objective
    steps: int
    checks: tuple = ()     # --slo-check: CHECKS
    measure_s: int = 0     # each step's measured seconds (MEASURE_S; 0: the phase's own)
    confirms: int = 0      # the found target run again at most this often (CONFIRMS)
    probe_measure_s: int = 0  # the probe's measured seconds (PROBE_MEASURE_S; 0: measure_s)
    budget_s: float = 0    # BUDGET_S
    longer: int = 1        # LONGER: an undecided step's window, times its measured seconds
    name: str = ""
    index: int = 0
    result: Optional[dict] = None  # what run() found (scenario-run.json keeps it)

    def __post_init__(self):
        self.name = self.name or f"capacity of {self.phase.name}"

    @property
    def phases(self) -> int:
        return self.steps + self.confirms + 1 + len(self.checks)

    @property
    def describe(self) -> str:
        return (f"highest rate with {self.objective.text} on intended latency: an unthrottled "
                f"probe, then at most {self.steps} steps of -target (first {FIRST_STEP:.0%} of "
                f"the probe's rate, then {STRIDE:.0%} of it up or down until the objective "
                f"changes side, then bisection to {RESOLUTION:.0%})"
                + (f", the rate found confirmed by a second window (at most {self.confirms} "
                   "confirmations)" if self.confirms else "")
                + (f", each measured {self.measure_s} s" if self.measure_s else "")
                + (f" (the probe {self.probe_measure_s} s)" if self.probe_measure_s else "")
                + (f", {self.longer} x as long when its p{self.objective.percentile:g} is within "
                   f"{UNDECIDED:g} x the bound either way" if self.longer > 1 else "")
                + (f", within {self.budget_s / 60:g} min" if self.budget_s else "")
                + f"; each step with enough client threads to keep them at most "
                  f"{CLIENT_BUSY:.0%} busy at its target")

    def step_phase(self, k: int, target: Optional[float], check: Optional[float] = None,
                   confirm: bool = False, ceiling: float = 0.0):
        """Step k of the search (0: the probe, no target), a confirmation of a target run
        before, or with `check` the check run at that share of the capacity found; a paced
        step's client threads sized for its target against the probe's `ceiling`."""
        p = copy.deepcopy(self.phase)
        p.threads = threads_for(target or 0, ceiling, self.phase.threads)
        p.name = f"{self.phase.name}-" + (f"check-{check:g}" if check else f"step-{k}")
        suffix = f"-repeat-{p.repeat}" if p.repeat else ""
        p.dir_name = f"{p.database}-{p.name}{suffix}"
        p.index = self.index + k
        p.target = int(round(target)) if target else None
        p.properties = dict(p.properties, **{"measurement.interval": "both"})
        measure_s = (self.probe_measure_s or self.measure_s) if target is None else self.measure_s
        if measure_s and "maxexecutiontime" not in p.properties:
            p.properties["maxexecutiontime"] = str(measure_s)
        p.phase_group = f"capacity:{self.phase.name}"
        p.capacity = {"search": self.phase.name, "step": k, "objective":
                      self.objective.metadata(), "keep_up": KEEP_UP}
        if check:
            p.capacity["check"] = check
        if confirm:
            p.capacity["confirm"] = True
        if target and self.longer > 1:
            p.capacity["longer"] = {"times": self.longer, "factor": UNDECIDED}
        return p

    def run(self, run: Callable[[Phase], Path], judge: Callable[[Path], dict] = judge_step,
            say: Callable[[str], None] = print, clock: Callable[[], float] = time.monotonic
            ) -> dict:
        """Runs the probe and the steps (`run(phase)` runs one phase, warmed up, and returns its
        directory); returns {"ceiling", "steps", "capacity", "checks"}."""
        began = clock()
        probe = judge(run(self.step_phase(0, None)))
        longest = 0.0
        ceiling = float(probe["achieved_ops_per_s"] or 0.0)
        say(f"   probe: {ceiling:,.0f} ops/s unthrottled (the ceiling; without a schedule its "
            f"intended latency is its service time, so it decides nothing); {probe['summary']}")
        tried: List[Tuple[float, bool]] = []
        judged: List[dict] = []
        rate = next_rate(ceiling, tried, self.steps, self.confirms)
        while rate is not None:
            spent = clock() - began
            if self.budget_s and tried and spent + longest > self.budget_s:
                say(f"   the search's time is spent: {spent / 60:.1f} of {self.budget_s / 60:g} "
                    f"min, and a step took up to {longest / 60:.1f}: no step at {rate:,.0f} "
                    "ops/s")
                break
            again = round(rate) in {r for r, _ in tried}
            started = clock()
            step = judge(run(self.step_phase(len(tried) + 1, rate, confirm=again,
                                             ceiling=ceiling)))
            longest = max(longest, clock() - started)
            tried.append((round(rate), bool(step["held"])))
            judged.append(step)
            say(f"   step {len(tried)}: target {rate:,.0f} ops/s"
                f"{' (confirmation)' if again else ''}: "
                f"{'HOLDS' if step['held'] else 'fails'}; {step['summary']}")
            rate = next_rate(ceiling, tried, self.steps, self.confirms)
        found = capacity_of(tried)
        confirmed = [r for r, _ in tried].count(found) > 1
        floor = latency_floor(judged, self.objective)
        if found:
            say(f"   capacity at {self.objective.text} (intended): {found:,.0f} ops/s, the "
                f"highest target at which every step held ({found / ceiling if ceiling else 0:.0%}"
                " of the ceiling" + ("" if confirmed or not self.confirms else
                                     "; NOT confirmed: the confirmations or the time were spent")
                + "; the interval comes from trials: --repeat)")
        elif floor > self.objective.bound_us:
            say(f"   no capacity at {self.objective.text} (intended): the objective lies below "
                f"the latency floor at every rate tried (floor: p{self.objective.percentile:g} "
                f"{floor / 1000:,.1f} ms, intended)")
        else:
            say(f"   no capacity at {self.objective.text} (intended): no step held (the steps' "
                "reasons are above)")
        checked = {}
        first_check = self.steps + self.confirms + 1
        for i, share in enumerate(self.checks if found else ()):
            step = judge(run(self.step_phase(first_check + i, share * found, check=share,
                                             ceiling=ceiling)))
            checked[share] = bool(step["held"])
            say(f"   check at {share:g} x capacity = {share * found:,.0f} ops/s: "
                f"{'HOLDS' if step['held'] else 'fails'}; {step['summary']}")
        self.result = {"ceiling": ceiling, "steps": tried, "capacity": found,
                       "floor_us": floor if floor == floor else None,
                       "confirmed": confirmed, "checks": checked}
        return self.result
