"""The scenario runner's fault verdicts: ``fault-verdict-<database>[-<fault>][-repeat-<N>].json``
beside the phase directories of S2 on local servers (scripts/lib/ycsbpack/scenarios/
fault_phase.py writes them: checks, keys, per-second client timeline, ``measures``).

The one reader of that format: the fault charts (charts/fault.py) and the summary across repeats
(faults.py) both read through it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

PATTERN = "fault-verdict-*.json"


@dataclass(frozen=True)
class FaultVerdict:
    """One fault phase's verdict: which database, fault and trial (0: the only one)."""

    path: Path
    database: str
    fault: str
    repeat: int
    data: dict

    @property
    def acknowledged_writes_lost(self) -> int:
        """Acknowledged writes the read-back did not find: the verdict's own count (a crash's
        verdict written before it had one: keys acknowledged - keys found, the runner's
        definition)."""
        if "acknowledged_writes_lost" in self.data:
            return int(self.data["acknowledged_writes_lost"])
        return max(0, int(self.data.get("keys_acknowledged") or 0)
                   - int(self.data.get("keys_found") or 0))


def read_verdict(path: Path) -> dict:
    """The verdict in ``path``; ValueError (its sentence names the file) when it is not one."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: not a readable fault verdict ({e})") from None
    if not isinstance(data, dict) or not data.get("database") or not fault_of(data):
        raise ValueError(f"{path}: not a fault verdict (no database or fault named in it)")
    return data


def fault_of(data: dict) -> str:
    """The verdict's fault: its "fault" (an older crash verdict names it "node_failure"
    only)."""
    return str(data.get("fault") or data.get("node_failure") or "")


def verdicts_in(folders: Iterable[Path]) -> tuple[list[FaultVerdict], list[tuple[Path, str]]]:
    """Every fault verdict in ``folders`` (the directories that hold a run's phases), in
    file-name order, and (path, why) of each one that cannot be read."""
    found, unreadable = [], []
    for folder in sorted(set(folders)):
        for path in sorted(Path(folder).glob(PATTERN)):
            try:
                data = read_verdict(path)
            except ValueError as e:
                unreadable.append((path, str(e).removeprefix(f"{path}: ")))
                continue
            found.append(FaultVerdict(path, str(data["database"]), fault_of(data),
                                      int(data.get("repeat") or 0), data))
    return found, unreadable
