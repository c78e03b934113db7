"""The two sides of an A/A run (run-scenario --aa): one database run as side A and side B in pairs
A,B, B,A, B,A, A,B, ..., each phase's metadata.json naming its side ("database": "hbase-A") and its
database ("aa": {"database": "hbase", "side": "A"}); the analysis compares them like two databases
(analysis/ycsb_analysis/sides.py). With --b-property side B runs with one change ("aa"."changed"):
one database in two configurations, an ordinary A/B comparison (the power check of the A/A method
holds B to a -target).
"""
from typing import Dict

from ..phases.phase_runner import Phase
from .capacity import CapacitySearch


def aa_sides(db: str) -> Dict[str, str]:
    """The two sides of an A/A comparison of `db` -> its database: the same configuration,
    labelled A and B."""
    return {f"{db}-A": db, f"{db}-B": db}


def as_side(steps: list, side: str, db: str, b_properties: Dict[str, str]) -> None:
    """Makes `db`'s steps those of an A/A run's `side` ("hbase-A"): its directories, its name in
    metadata.json ("aa" says which database it is); side B's measured phases also get
    `b_properties` (--b-property: one change, recorded as "aa"."changed")."""
    for _, step in steps:
        for phase in phases_of(step, loads=True):
            phase.dir_name = side + phase.dir_name[len(phase.database):]
            phase.database = side
            phase.notes["aa"] = {"database": db, "side": side[-1]}
    if side[-1] != "B" or not b_properties:
        return
    for _, step in steps:
        for phase in phases_of(step):
            change = dict(b_properties)
            if "target" in change:  # shared out between the clients like -target
                phase.target = int(float(change.pop("target")))
            phase.properties.update(change)
            phase.notes["aa"]["changed"] = dict(b_properties)


def phases_of(step, loads: bool = False) -> list:
    """The phases of a plan's step whose metadata the runner adds to (not loads unless
    `loads`): a phase, or a capacity search's."""
    if isinstance(step, Phase):
        return [step] if loads or step.command != "load" else []
    return [step.phase] if isinstance(step, CapacitySearch) else []
