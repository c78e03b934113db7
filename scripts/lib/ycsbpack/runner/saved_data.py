"""Trials from saved data: load once per database, then every trial's measured phases on fresh
servers over a copy of the loaded state (servers/saved_state.py says why).

A scenario opts in with SAVED_DATA = True when its plan is "loads and actions, then measured
phases that leave the data as a trial found it" (S4: load, settle, update-heavy, short-range).
S1 (tables dropped between variants), S2 (its batched loads are headlines, measured in every
trial) and S3 (loads between its sweep points) load in every trial, as before.
With --trial-servers warm the servers of the load stay up and the loaded state is restored
under them with the databases' own snapshots (servers/live_state.py). Local servers only:
against your cluster the runner neither copies data directories nor drives its snapshots (use
the databases' own snapshot and restore between trials: docs/own-cluster.md).
"""
import shutil
from pathlib import Path
from typing import List, Optional, Tuple

from ..databases import database
from ..phases.phase_runner import Phase
from ..scenarios.catalogue import SCENARIOS
from ..scenarios.scenario_plan import Composite
from ..servers import live_state, saved_state
from .capacity import CapacitySearch


def why_not(scenarios: List[str], db: str, settings, server) -> Optional[str]:
    """None when `db`'s trials can start from saved data; else why each trial loads."""
    if server is None:
        return "your own servers: each trial runs on them as they are (no copy of their data)"
    if not settings.saved_data:
        return "--load-each-trial"
    if not all(getattr(SCENARIOS[s], "SAVED_DATA", False) for s in scenarios):
        return "the scenario loads in every trial (its loads are measured, or interleaved)"
    refusal = database(db, server).saved_data_refusal()
    if refusal:
        return refusal
    if server.pids():
        # the runner uses servers already running in its run directory as they are and leaves
        # them running: it neither restarts them per trial nor copies their data
        return f"the servers already running in {server.run_dir} are used as they are"
    return None


def _measured(step) -> bool:
    return ((isinstance(step, Phase) and step.command != "load")
            or isinstance(step, (Composite, CapacitySearch)))


def split(steps: list) -> Tuple[list, list]:
    """(preparation, measured): the steps before the first measured step (loads, settling) and
    the rest; no load may follow (the caller checks the scenario opted in)."""
    first = next((i for i, (_, st) in enumerate(steps) if _measured(st)), len(steps))
    return steps[:first], steps[first:]


class SavedData:
    """The saved state of each database of one run (in `root`), and what each trial started
    from; `discard()` removes the copies at the end of the run. `warm`: the servers stay up and
    the state is saved and restored under them (servers/live_state.py: the databases' own
    snapshots); else the stopped servers' data directories are copied (servers/saved_state.py)."""

    def __init__(self, root: Path, warm: bool = False):
        self.root = root
        self.warm = warm
        self.saved = {}  # database -> what save() returned
        self.trials = {}  # database -> trials started from it so far

    def have(self, db: str) -> bool:
        return db in self.saved

    def save(self, db: str, server) -> None:
        self.saved[db] = (live_state if self.warm else saved_state).save(server, self.root / db)
        s = self.saved[db]
        how = ("restored under the running servers before each trial" if self.warm else
               "every trial starts fresh servers on a copy of it")
        print(f"  saved {db}'s loaded data ({s['bytes'] / 1e6:.1f} MB, fingerprint "
              f"{s['fingerprint']}) in {s['copy_s']:g} s: {how}", flush=True)

    def restore(self, db: str, server) -> dict:
        """Puts the saved state back and returns the trial's start_state for metadata.json."""
        r = (live_state if self.warm else saved_state).restore(server, self.root / db)
        self.trials[db] = self.trials.get(db, 0) + 1
        state = {"from": "saved data (loaded once, then restored before each trial)",
                 "fingerprint": r["fingerprint"], "bytes": self.saved[db]["bytes"],
                 "restore_s": r["copy_s"], "servers": "warm" if self.warm else "fresh"}
        if self.warm:  # the server processes every trial of this run ran on
            state["server_lifetime"] = {"pids": sorted(server.pids().values()),
                                        "trial": self.trials[db]}
        return state

    def discard(self) -> None:
        if self.root.exists():
            shutil.rmtree(self.root, ignore_errors=True)
