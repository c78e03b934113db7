"""How many trials: a fixed number (--repeat N) or until the headline ratios are precise enough
(--precision P), within a trial and a time budget.

A trial is one run of every phase of the scenario on fresh servers (or, against your cluster, in
fresh client processes after the same preparation). With two databases the trials run in blocks
A,B then B,A, A,B, ...: trial r of A and trial r of B form a pair, and the analysis draws the
interval of A/B from the pairs' spread (analysis/ycsb_analysis/trials.py). With --precision the
runner asks the analysis after every block from the second on how wide the 95% interval of each
headline (the throughput of every measured run phase: A/B with two databases, the trials' mean
with one) is, and stops when every one is within +-P and at least MIN_PAIRS blocks have run (an
earlier stop selects the draws whose spread came out small, and its interval covers less than
95%), or when the trial or time budget runs out, or when a trial was not steady (no verdict can
be drawn then); it says which rule stopped it and, when a budget did, how many more trials the
measured spread would need. Anchor:
cassandra-stress's `err<0.02 n>30 n<200` keeps one run going until its mean is precise enough;
this does it for a comparison, across trials.
"""
import argparse
import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

from ..core.errors import ScriptError
from ..core.report_tool import VENV, ensure_report_tool

# an interval from the spread between trials needs two of each: from then on the runner
# measures the precision after every block (progress lines, the budgets' shortfall)
MIN_TRIALS = 2
# ... but it stops for precision only from this many pairs (trials of each database) on. A
# rule that stops as soon as the interval is narrow enough stops on the draws whose spread
# happened to come out small, and the interval it stops on then covers the true ratio less
# often than it says. Simulated (target +-10%, at most 10 trials; between-trial CVs of 2-30%;
# scripts/tests/test_stopping_rule.py), the worst coverage of the "95%" interval was 88-89%
# with a floor of 2 pairs (37-38% for the runs that stopped at 2, at a CV of 10%); with
# 100,000 runs per CV, 93.0% with a floor of 5, 93.6% with 6, 94.1% with 7. More looks lower
# it: with --max-trials 20 a floor of 6 gives 92.7%. Stein's two-stage procedure would keep 95%
# exactly, but only with its own interval (the first stage's sd, t with n0 - 1 df), which the
# analysis does not draw: see the test's docstring.
MIN_PAIRS = 6


@dataclass
class TrialRule:
    repeat: int = 1                    # --repeat: exactly this many trials (without --precision)
    precision: Optional[float] = None  # --precision: target half width, 0.05 = +-5%
    max_trials: int = 10               # --max-trials: at most this many trials per database
    budget_s: Optional[float] = None   # --budget: no new block of trials after this many seconds

    @property
    def planned(self) -> int:
        return self.max_trials if self.precision else self.repeat

    @property
    def numbered(self) -> bool:
        """Whether the runs are trials numbered 1, 2, ... (metadata "repeat")."""
        return self.planned > 1


@dataclass
class Headline:
    phase: str
    what: str
    precision: Optional[float]
    more_trials: Optional[int]   # more trials of each database the spread so far would need
    verdict: str


@dataclass
class Precision:
    headlines: List[Headline] = field(default_factory=list)
    unsteady: List[str] = field(default_factory=list)

    def reached(self, target: float) -> bool:
        return bool(self.headlines) and all(
            h.precision is not None and h.precision <= target for h in self.headlines)

    def worst(self) -> Optional[Headline]:
        known = [h for h in self.headlines if h.precision is not None]
        return max(known, key=lambda h: h.precision) if known else None


def measure(results: Path, target: float) -> Precision:
    """The headlines' precision so far (the analysis package: ycsb_analysis.precision)."""
    ensure_report_tool()
    proc = subprocess.run([str(VENV / "bin" / "python"), "-m", "ycsb_analysis.precision",
                           str(results), str(target)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise ScriptError(f"the analysis could not judge the trials in {results} (exit "
                          f"{proc.returncode}):\n{proc.stderr.strip()[-1500:]}")
    found = json.loads(proc.stdout)
    return Precision([Headline(h["phase"], h["what"], h["precision"], h["more_trials"],
                               h["verdict"]) for h in found["headlines"]], found["unsteady"])


def stop_reason(rule: TrialRule, done: int, elapsed_s: float, trial_s: float,
                found: Optional[Precision]) -> Optional[str]:
    """Why to stop after `done` trials (None: run another block). `trial_s` is what the last
    block of trials took; `found` the precision so far (None before it was measured)."""
    if not rule.precision:
        return f"{done} trial(s) as asked (--repeat)" if done >= rule.repeat else None
    if found is not None and found.unsteady:
        return ("a trial was NOT steady, so no verdict can be drawn from these trials: "
                + "; ".join(found.unsteady))
    if done >= MIN_PAIRS and found is not None and found.reached(rule.precision):
        return f"precision reached: every headline within +-{rule.precision:.0%}"
    if done >= rule.max_trials:
        return f"trial budget: {rule.max_trials} trials (--max-trials)" + _shortfall(rule, found,
                                                                                     done)
    if rule.budget_s is not None and elapsed_s + trial_s > rule.budget_s:
        return (f"time budget: another trial would end after {rule.budget_s / 60:.0f} min "
                "(--budget)" + _shortfall(rule, found, done))
    return None


def _shortfall(rule: TrialRule, found: Optional[Precision], done: int) -> str:
    worst = found.worst() if found else None
    if worst is None:
        return ""
    more = worst.more_trials
    need = (f"about {more} more trial(s) of each database would reach it at the spread "
            "measured so far" if more is not None else "the spread measured so far would need "
            "more than 200 trials")
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
                   help=f"run N trials (default {repeat}; with two databases in blocks A,B then "
                        "B,A, ...): verdicts need 2 or more of each")
    t.add_argument("--precision", default=precision, metavar="PERCENT",
                   help="add trials until the 95%% interval of every headline ratio (the "
                        "throughput of each run phase) is within +-PERCENT, e.g. 5%% "
                        + (f"(default {precision})".replace("%", "%%") if precision else ""))
    t.add_argument("--max-trials", type=int, default=10, metavar="N",
                   help="with --precision: at most N trials of each database (default 10; "
                        f"{MIN_PAIRS} or more: no precision stop comes before {MIN_PAIRS})")
    t.add_argument("--budget", type=float, default=budget, metavar="MINUTES",
                   help="with --precision: start no trial that would end after MINUTES"
                        + (f" (default {budget:g})" if budget else ""))


def trial_rule(args) -> TrialRule:
    if args.repeat < 1:
        raise ScriptError(f"--repeat {args.repeat}: give 1 or more")
    if args.max_trials < 2:
        raise ScriptError(f"--max-trials {args.max_trials}: give 2 or more (an interval from "
                          "trials needs two of each database)")
    if args.precision not in (None, "", "none") and args.max_trials < MIN_PAIRS:
        raise ScriptError(f"--max-trials {args.max_trials}: give {MIN_PAIRS} or more with "
                          f"--precision (it stops for precision only from {MIN_PAIRS} trials of "
                          "each database on: an earlier stop overstates the precision)")
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
                     args.budget * 60 if args.budget else None)
