"""The faults of S2's fault phase (run-scenario --faults): which exist, in which order they run.

crash and drain take node N down and restart it (fault_phase.py), pause stops and resumes it
(fault_pause.py), partition cuts it off from its clients, then from its peers
(fault_partition.py), slow-disk slows its log writes, then stalls them (fault_slow_disk.py).
"""
import argparse
from typing import List

BUILT = ("crash", "drain", "pause", "partition", "slow-disk")
DEFAULT = ("crash",)


def parse_faults(text: str) -> List[str]:
    """--faults' comma list, in the order given (argparse type: a bad name exits 2)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    for n in names:
        if n not in BUILT:
            raise argparse.ArgumentTypeError(f"unknown fault {n!r}: choose from "
                                             f"{', '.join(BUILT)}")
    if not names or len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"{text!r}: give each fault once, e.g. crash,pause")
    return names
