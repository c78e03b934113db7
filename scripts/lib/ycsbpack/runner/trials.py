"""How many trials: a fixed number (--repeat N) or as many as a precision needs (--precision P),
within a trial and a time budget.

A trial is one run of every phase of the scenario on fresh servers (or, against your cluster, in
fresh client processes after the same preparation). With two databases the trials run in pairs
A,B, B,A, B,A, A,B, ... (the Thue-Morse order, run_scenario.block_order): trial r of A and
trial r of B form a pair, and the analysis draws the interval of A/B from the pairs' spread
(analysis/ycsb_analysis/trials.py).

--precision follows Stein's two-stage procedure: a first stage of n0 pairs (--first-stage,
default FIRST_STAGE) measures the spread of each headline (the throughput of every measured run
phase: A/B with two databases, the trials' mean with one); that spread alone fixes the total
number of pairs n >= n0 whose interval, drawn with the first stage's sd and t(n0 - 1), is within
+-P (the largest n over the headlines); the runner then runs n pairs and stops, or stops earlier
when the trial or time budget runs out (and says how many the plan needed), or when a trial was
not steady (no verdict can be drawn then). The number of trials is fixed before the second
stage's figures are seen, so the interval covers the true ratio 95% of the time exactly; a rule
that stops as soon as the interval looks narrow stops on the draws whose spread came out small
and covers less (scripts/tests/test_stopping_rule.py). Every measured phase records the design
(metadata.json "trials_design") so that the report draws the same interval. Anchor:
cassandra-stress's `err<0.02 n>30 n<200` keeps one run going until its mean is precise enough;
this does it for a comparison, across trials.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from ..core.errors import ScriptError

if TYPE_CHECKING:  # the analysis's own result types; importing it loads polars (measure())
    from ycsb_analysis.precision import Precision

# an interval from the spread between trials needs two of each: from then on the runner
# measures the precision after every block (progress lines)
MIN_TRIALS = 2
# the first stage of --precision: pairs whose spread fixes the total. Fewer pairs cost less but
# their sd is rough and t(n0 - 1) large (4.30 at n0 = 3, 3.18 at 4, 2.78 at 5), so the plan
# overshoots: at a pair sd of 4.3% (this machine's quickstart, docs/benchmarks/trials.md) and a
# target of +-10%, n0 = 4 plans 4 pairs about 9 times in 10; n0 = 3 plans 3 pairs only about 6
# times in 10 and sometimes 8 or more
FIRST_STAGE = 4


@dataclass
class TrialRule:
    repeat: int = 1                    # --repeat: exactly this many trials (without --precision)
    precision: Optional[float] = None  # --precision: target half width, 0.05 = +-5%
    max_trials: int = 10               # --max-trials: at most this many trials per database
    budget_s: Optional[float] = None   # --budget: no new block of trials after this many seconds
    first_stage: int = FIRST_STAGE     # --first-stage: pairs whose spread fixes the total

    @property
    def design(self) -> Optional[dict]:
        """What metadata.json "trials_design" records of a --precision run (None otherwise)."""
        if not self.precision:
            return None
        return {"rule": "two-stage (Stein)", "first_stage": self.first_stage,
                "precision_target": self.precision, "order": "Thue-Morse"}

    @property
    def planned(self) -> int:
        return self.max_trials if self.precision else self.repeat

    @property
    def numbered(self) -> bool:
        """Whether the runs are trials numbered 1, 2, ... (metadata "repeat")."""
        return self.planned > 1


def measure(results: Path, target: float, first_stage: int) -> Precision:
    """The headlines' precision so far (ycsb_analysis.precision.headlines)."""
    # imported here: the analysis loads polars and numpy, which a run without --precision,
    # --help and --dry-run need not wait for
    from ycsb_analysis.errors import UnreadableInput
    from ycsb_analysis.precision import headlines

    try:
        return headlines(str(results), target, first_stage)
    except UnreadableInput as e:
        raise ScriptError(f"the analysis could not judge the trials so far: {e}")


def planned_pairs(found: Precision, done: int) -> Optional[int]:
    """Stein's total, measured after the first stage (`done` pairs): the most any headline needs
    (None when a headline has no figure or would need more than 200)."""
    more = [h.more_trials for h in found.headlines]
    if not more or any(m is None for m in more):
        return None
    return done + max(more)


def stop_reason(rule: TrialRule, done: int, elapsed_s: float, trial_s: float,
                found: Optional[Precision], planned: Optional[int] = None) -> Optional[str]:
    """Why to stop after `done` trials (None: run another block). `trial_s` is what the last
    block of trials took; `found` the precision so far (None before it was measured); `planned`
    the total the first stage fixed (planned_pairs)."""
    if not rule.precision:
        return f"{done} trial(s) as asked (--repeat)" if done >= rule.repeat else None
    if found is not None and found.unsteady:
        return ("a trial was NOT steady, so no verdict can be drawn from these trials: "
                + "; ".join(found.unsteady))
    if done >= rule.first_stage and planned is not None and done >= planned:
        return (f"precision planned: {planned} pairs, the number the first {rule.first_stage} "
                f"pairs' spread fixed for +-{rule.precision:.0%} (two-stage rule)")
    if done >= rule.max_trials:
        return (f"trial budget: {rule.max_trials} trials (--max-trials)"
                + _shortfall(rule, found, done, planned))
    if rule.budget_s is not None and elapsed_s + trial_s > rule.budget_s:
        return (f"time budget: another trial would end after {rule.budget_s / 60:.0f} min "
                "(--budget)" + _shortfall(rule, found, done, planned))
    return None


def _shortfall(rule: TrialRule, found: Optional[Precision], done: int,
               planned: Optional[int]) -> str:
    if done < rule.first_stage:
        return (f"; precision not reached: the first stage ({rule.first_stage} pairs) did not "
                "end")
    worst = found.worst() if found else None
    if worst is None:
        return ""
    need = (f"the first stage's spread needs {planned} pairs, {done} ran" if planned
            else "the first stage's spread would need more than 200 pairs")
    return (f"; precision not reached: {worst.phase} {worst.what} +-{worst.precision:.1%}; "
            + need)


def progress_lines(found: Precision, done: int) -> str:
    """One line per headline: what the trials so far say."""
    lines = []
    for h in found.headlines:
        p = f"+-{h.precision:.1%}" if h.precision is not None else "no interval yet"
        lines.append(f"  after {done} trial(s): {h.phase} {h.what}: {p}; {h.verdict}")
    return "\n".join(lines)


def add_trial_options(p: argparse.ArgumentParser, repeat: int = 1,
                      precision: Optional[str] = None, budget: Optional[float] = None) -> None:
    t = p.add_argument_group("trials (the unit of a comparison: fresh servers, load, warm-up, "
                             "measured window; docs/scenarios.md)")
    t.add_argument("--repeat", type=int, default=repeat, metavar="N",
                   help=f"run N trials (default {repeat}; with two databases in pairs A,B, B,A, "
                        "B,A, A,B, ...): verdicts need 2 or more of each")
    t.add_argument("--precision", default=precision, metavar="PERCENT",
                   help="add trials until the 95%% interval of every headline ratio (the "
                        "throughput of each run phase) is within +-PERCENT, e.g. 5%% "
                        + (f"(default {precision})".replace("%", "%%") if precision else ""))
    t.add_argument("--max-trials", type=int, default=10, metavar="N",
                   help="with --precision: at most N trials of each database (default 10)")
    t.add_argument("--first-stage", type=int, default=FIRST_STAGE, metavar="N",
                   help="with --precision: the first N pairs' spread fixes how many pairs run "
                        f"(Stein's two-stage rule; default {FIRST_STAGE}, 2 or more)")
    t.add_argument("--budget", type=float, default=budget, metavar="MINUTES",
                   help="with --precision: start no trial that would end after MINUTES"
                        + (f" (default {budget:g})" if budget else ""))


def trial_rule(args) -> TrialRule:
    if args.repeat < 1:
        raise ScriptError(f"--repeat {args.repeat}: give 1 or more")
    if args.max_trials < 2:
        raise ScriptError(f"--max-trials {args.max_trials}: give 2 or more (an interval from "
                          "trials needs two of each database)")
    if args.first_stage < 2:
        raise ScriptError(f"--first-stage {args.first_stage}: give 2 or more (a spread needs two "
                          "pairs)")
    if args.precision not in (None, "", "none") and args.max_trials < args.first_stage:
        raise ScriptError(f"--max-trials {args.max_trials}: give at least --first-stage "
                          f"({args.first_stage}) with --precision (its first stage alone runs "
                          f"{args.first_stage} trials of each database)")
    if args.budget is not None and args.budget <= 0:
        raise ScriptError(f"--budget {args.budget}: give a number of minutes above 0")
    precision = None
    if args.precision not in (None, "", "none"):
        text = str(args.precision).strip()
        try:
            precision = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
        except ValueError:
            precision = -1
        if not 0 < precision < 1:
            raise ScriptError(f"--precision {args.precision}: give a percentage such as 5% "
                              "(the half width of the 95% interval of each headline ratio)")
    if precision and args.repeat > 1:
        raise ScriptError("--repeat and --precision: give one (--precision decides the number "
                          "of trials itself; --max-trials bounds it)")
    return TrialRule(args.repeat, precision, args.max_trials,
                     args.budget * 60 if args.budget else None, args.first_stage)
