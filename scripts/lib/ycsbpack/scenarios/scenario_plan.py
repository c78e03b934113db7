"""What a scenario run is made of: YCSB phases and the actions between them, and the property
files each phase reads.

A phase's -P files, in order (later files win, as in YCSB):
    workloads/<s>/<phase file>.properties ...      the phase, at cluster scale (report's numbers)
    workloads/<s>/<scale>.properties               scale overrides (local; ci = local, then ci)
    workloads/<s>/<scale>-<phase file>.properties  a phase's own scale overrides, if any
    workloads/db/<database>.properties             the local connection
    workloads/<s>/<database>.properties            the scenario's schema and client settings
    extra variant files (S1's Cassandra table variants), then the user's --property-file files
and -p properties: the connection (--hosts or the local servers), then the user's -p values.
"""
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Union

from ..core.paths import REPO_ROOT
from ..databases import Database
from ..phases.phase_runner import Phase
from ..phases.properties import read_property_files

WORKLOADS = REPO_ROOT / "workloads"
SCALES = {"cluster": [], "local": ["local"], "ci": ["local", "ci"]}


@dataclass
class Context:
    """Everything a scenario's plan depends on."""
    scenario: str                       # s1 .. s4
    database: Database                  # with its local server when the runner runs it
    scale: str                          # cluster | local | ci
    clients: int = 1
    connection: Dict[str, str] = field(default_factory=dict)
    user_files: List[str] = field(default_factory=list)
    user_properties: Dict[str, str] = field(default_factory=dict)
    # S2's faults on local servers, one fault phase each, in order (fault_list.py)
    faults: List[str] = field(default_factory=lambda: ["crash"])
    quick: bool = False                 # the quickstart's short selection of phases
    out_dir: Optional[Path] = None      # results/<scenario>/<timestamp>
    repeat: int = 0                     # which run of --repeat N (0: the only one)
    repeats: int = 1
    client_cp: List[str] = field(default_factory=list)  # --client-cp: before the binding's jars

    @property
    def local(self) -> bool:
        return self.database.local

    @property
    def binding(self) -> str:
        return self.database.binding

    def files(self, phase_files: List[str], variant_files: List[str] = ()) -> List[str]:
        d = WORKLOADS / self.scenario
        files = [d / f"{f}.properties" for f in phase_files]
        for scale in SCALES[self.scale]:
            files += [d / f"{scale}.properties"] + [
                d / f"{scale}-{f}.properties" for f in phase_files
            ]
        files += [WORKLOADS / "db" / f"{self.database.name}.properties",
                  d / f"{self.database.name}.properties"]
        files += [d / f"{v}.properties" for v in variant_files]
        return [str(f) for f in files if f.exists()] + list(self.user_files)

    def merged(self, files: List[str], properties: Dict[str, str] = None) -> Dict[str, str]:
        """The properties YCSB will see for these files and -p values."""
        props = read_property_files(files)
        props.update(self.connection)
        props.update(properties or {})
        props.update(self.user_properties)
        return props

    def phase(self, name: str, command: str, files: List[str], threads: int,
              properties: Dict[str, str] = None, clients: int = 1,
              client_files: List[List[str]] = None, group: str = "", target: int = None,
              repeatable: bool = True) -> Phase:
        """A phase; `repeatable=False` for one that consumes its data (no warm-up:
        phases/warmup.py)."""
        props = dict(self.connection)
        props.update(properties or {})
        props.update(self.user_properties)
        if command == "load" or not repeatable:
            # a finite job (a load, S3's deletes) is bounded by its count; time limits are for
            # the measured runs (a 4-s CI limit ended S3's deletes before their first one)
            props["maxexecutiontime"] = "0"
        suffix = f"-repeat-{self.repeat}" if self.repeat else ""
        return Phase(self.scenario, name, self.database.name, self.binding, command, files, props,
                     threads=threads, target=target, clients=clients,
                     client_property_files=client_files or [],
                     dir_name=f"{self.database.name}-{name}{suffix}", phase_group=group,
                     repeatable=repeatable and command != "load",
                     repeat=self.repeat, repeats=self.repeats,
                     extra_args=["-cp", os.pathsep.join(self.client_cp)] if self.client_cp else [])


@dataclass
class Action:
    """Something the runner does between phases (drop a table, compact, ...)."""
    name: str
    describe: str
    run: Callable[[], None]
    estimate_s: float = 10.0


@dataclass
class Composite:
    """A step that runs several phases itself (the fault phase); `run(first_index)`."""
    name: str
    describe: str
    run: Callable[[int], None]
    phases: int
    estimate_s: float
    index: int = 0


Step = Union[Phase, Action, Composite]


def estimate_seconds(ctx: Context, phase: Phase) -> float:
    """A rough duration for progress lines: JVM start plus the run's time or count bound."""
    props = ctx.merged(phase.files_of(0), phase.properties)
    limit = float(props.get("maxexecutiontime", "0") or 0) or 3600.0
    if phase.command == "load":
        count = float(props.get("insertcount", props.get("recordcount", "1000")))
        per_s = 1500.0 * phase.threads * max(1, int(props.get("batchsize", "1")) // 5 or 1)
    else:
        count = float(props.get("operationcount", "1000"))
        per_s = 800.0 * phase.threads
    return 6.0 + min(limit, count / per_s)
