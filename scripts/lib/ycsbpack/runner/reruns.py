"""A trial whose measured window was not steady is run again, not the end of the run.

A verdict needs every trial it rests on steady (the analysis calls a comparison with an
unsteady trial "not judged"). Before this rule one such trial ended a --precision run there,
with no verdict: 3 of 23 A/A experiments and 1 of 2 power checks on 2026-12-07 ended so, once
after 27 minutes (docs/benchmarks/aa-experiments.md). Now the runner sets the trial aside and
runs that side's trial again, under the same number, so that it pairs with the other side's
trial of that number; at most MAX_RERUNS times in a run, each counted against --max-trials.

The trial set aside stays on disk, renamed <phase>-replaced-<n>, its metadata.json saying why
(ycsb_analysis.layout.REPLACED_METADATA_KEY); the analysis leaves it out and names it as skipped.
What this selects: trials that were steady. In an A/A run both sides are the same
configuration, so the selection is the same on both and the false-call rate stays the
interval's (scripts/tests/test_reruns.py simulates it). Between two databases a verdict then
compares steady windows, and the report names every trial run again: a database that often
climbs after its warm-up is slower to reach its steady state, which the verdict does not show.
"""
import json
from pathlib import Path
from typing import Callable, List, Tuple

from ycsb_analysis.layout import METADATA_FILE, REPLACED_METADATA_KEY

# trials run again in one run, at most (each is one more trial of its side)
MAX_RERUNS = 2


def to_rerun(unsteady: List[Tuple[str, int]], done: int, trials_run: int,
             max_trials: int) -> List[Tuple[str, int]]:
    """Which of the `unsteady` (side, trial) to run again now: while fewer than MAX_RERUNS ran
    (`done`) and the trials of a side stay within `max_trials` (`trials_run` numbered trials
    plus the reruns so far); none when any is left over (the run then stops: not steady)."""
    room = min(MAX_RERUNS - done, max_trials - trials_run - done)
    return list(unsteady) if 0 < len(unsteady) <= room else []


def set_aside(out: Path, side: str, trial: int, why: str, n: int, loads: bool) -> List[str]:
    """Renames the phase directories of `side`'s trial `trial` to <phase>-replaced-<n> and writes
    `why` into their metadata.json; loads too when `loads` (a side that loads in every trial
    loads again). Returns the directories' new names."""
    moved = []
    for meta_path in sorted(out.glob(f"*/{METADATA_FILE}")):
        meta = json.loads(meta_path.read_text())
        command = meta.get("command") or []
        load = len(command) > 1 and command[1] == "load"  # bin/ycsb load ...
        if (meta.get("database") != side or meta.get("repeat") != trial
                or meta.get(REPLACED_METADATA_KEY) or (load and not loads)):
            continue
        meta[REPLACED_METADATA_KEY] = why
        meta_path.write_text(json.dumps(meta, indent=2) + "\n")
        phase_dir = meta_path.parent
        new = phase_dir.with_name(f"{phase_dir.name}-replaced-{n}")
        phase_dir.rename(new)
        moved.append(new.name)
    return moved


def run_again(out: Path, unsteady: List[Tuple[str, int]], why: str, done: int, trials_run: int,
              max_trials: int, loads: Callable[[str], bool],
              run_trial: Callable[[str, int], list]) -> Tuple[int, list]:
    """Runs again what to_rerun allows of the `unsteady` (side, trial), each set aside first
    (`loads(side)`: whether that side loads in every trial); returns the reruns done so far and
    the outcomes of the trials run (`run_trial(side, trial)`'s)."""
    outcomes = []
    for side, number in to_rerun(unsteady, done, trials_run, max_trials):
        done += 1
        moved = set_aside(out, side, number, why, done, loads(side))
        print(f"  trial {number} of {side} was NOT steady: run again ({done} of at most "
              f"{MAX_RERUNS}; set aside: {', '.join(moved)})", flush=True)
        outcomes += run_trial(side, number)
    return done, outcomes
