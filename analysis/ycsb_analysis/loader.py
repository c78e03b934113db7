"""Load results: the scenario runner's directory layout, or plain YCSB output files.

Runner layout (one directory per phase)::

    results/<scenario>/<timestamp>/<phase>/metadata.json
    results/<scenario>/<timestamp>/<phase>/client-<i>.out      # stdout: final report
    results/<scenario>/<timestamp>/<phase>/client-<i>.err      # stderr: status lines (+ foreign logs)
    results/<scenario>/<timestamp>/<phase>/hdr/client-<i>-<METRIC>.hdr

Any directory given is searched for ``metadata.json`` files at any depth, so a whole
``results/`` tree, one scenario, one timestamp or one phase can be passed.

A plain file (``LABEL=PATH`` or ``PATH``) is one run; each YCSB output found in it is one
client (the seed's four pasted HBase reports are four clients of one run).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import UnreadableInput
from .hdr_logs import HdrLog, read_hdr_log
from .multi_output import ParsedOutput, parse_file

METADATA_KEYS = ("scenario", "phase", "phase_index", "database", "binding", "workload", "properties",
                 "threads", "clients", "batchsize", "target", "versions", "host", "start_time",
                 "end_time", "command", "label")
REQUIRED_METADATA_KEYS = ("scenario", "phase", "database", "threads", "clients")
_CLIENT_FILE = re.compile(r"^client-(?P<i>\d+)\.(?P<ext>out|err)$")
_HDR_FILE = re.compile(r"^client-(?P<i>\d+)-(?P<metric>.+)\.hdr$")


@dataclass
class Client:
    """One YCSB client process of a run: its parsed output and its .hdr logs by metric."""

    index: int
    output: ParsedOutput
    hdr_logs: dict[str, HdrLog] = field(default_factory=dict)


@dataclass
class Run:
    """One phase of one scenario run (or one plain file): metadata and its clients."""

    path: str
    metadata: dict[str, Any]
    clients: list[Client]
    warnings: list[str] = field(default_factory=list)
    timestamp: str = ""

    @property
    def phase(self) -> str:
        return str(self.metadata.get("phase", ""))

    @property
    def database(self) -> str:
        return str(self.metadata.get("database") or "unknown")

    @property
    def scenario(self) -> str:
        return str(self.metadata.get("scenario") or "")

    @property
    def threads(self) -> int | None:
        t = self.metadata.get("threads")
        return int(t) if t is not None else None

    @property
    def batchsize(self) -> int:
        return int(self.metadata.get("batchsize") or 1)

    @property
    def properties(self) -> dict[str, str]:
        return dict(self.metadata.get("properties") or {})

    @property
    def name(self) -> str:
        """Short run label for legends and tables: ``basic:run-threads-4``."""
        if self.metadata.get("_plain_file"):
            return self.phase
        return f"{self.database}:{self.phase}"

    @property
    def skipped_lines(self) -> int:
        return sum(c.output.skipped_lines for c in self.clients)


def _read_metadata(path: Path) -> dict[str, Any]:
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise UnreadableInput(path, f"cannot be read ({e.strerror or e})") from e
    except json.JSONDecodeError as e:
        raise UnreadableInput(path, f"is not valid JSON ({e.msg} at line {e.lineno})") from e
    if not isinstance(meta, dict):
        raise UnreadableInput(path, "must hold a JSON object")
    missing = [k for k in REQUIRED_METADATA_KEYS if k not in meta]
    if missing:
        raise UnreadableInput(path, f"lacks the keys {', '.join(missing)} that the scenario runner writes")
    return meta


def load_phase_dir(phase_dir: Path) -> Run:
    """Load one phase directory of the runner layout."""
    meta = _read_metadata(phase_dir / "metadata.json")
    files: dict[int, dict[str, Path]] = {}
    for p in sorted(phase_dir.iterdir()):
        m = _CLIENT_FILE.match(p.name)
        if m:
            files.setdefault(int(m.group("i")), {})[m.group("ext")] = p
    warnings = []
    if not files:
        raise UnreadableInput(phase_dir, "has metadata.json but no client-<i>.out files")
    clients = []
    for i in sorted(files):
        out_path = files[i].get("out")
        output = None
        if out_path is not None:
            outs = parse_file(out_path)
            if not any(o.has_report for o in outs):
                raise UnreadableInput(out_path, "has no YCSB final report ('[OVERALL], RunTime(ms), ...'): "
                                                "the client probably failed; see its .err file")
            output = outs[0]
            if len(outs) > 1:
                warnings.append(f"{out_path.name} holds {len(outs)} outputs; only the first is used")
        else:
            warnings.append(f"client {i} has no client-{i}.out")
        err_path = files[i].get("err")
        if err_path is not None and err_path.stat().st_size > 0:
            try:
                errs = parse_file(err_path)
                err_output = errs[0]
                for extra in errs[1:]:
                    err_output = err_output.combined_with(extra)
            except UnreadableInput:
                # A stderr with only foreign log lines (status disabled) is not an error.
                err_output = None
            if err_output is not None:
                output = err_output if output is None else output.combined_with(err_output)
        if output is None:
            continue
        clients.append(Client(i, output))
    hdr_dir = phase_dir / "hdr"
    if hdr_dir.is_dir():
        by_index = {c.index: c for c in clients}
        for p in sorted(hdr_dir.glob("*.hdr")):
            m = _HDR_FILE.match(p.name)
            if m and int(m.group("i")) in by_index:
                by_index[int(m.group("i"))].hdr_logs[m.group("metric")] = read_hdr_log(p, m.group("metric"))
    expected = meta.get("clients")
    if isinstance(expected, int) and expected != len(clients):
        warnings.append(f"metadata says {expected} clients, {len(clients)} client outputs found")
    return Run(str(phase_dir), meta, clients, warnings, timestamp=phase_dir.parent.name)


def load_plain_file(path: Path, label: str | None = None, batchsize: int = 1) -> Run:
    """A plain YCSB output file as one run; each output inside it is one client."""
    outputs = parse_file(path)
    clients = [Client(i, o) for i, o in enumerate(outputs)]
    meta = {
        "scenario": "files", "phase": label or path.stem, "phase_index": 0, "database": "unknown",
        "threads": None, "clients": len(clients), "batchsize": batchsize, "target": None,
        "properties": {}, "label": label or path.name, "_plain_file": True,
    }
    return Run(str(path), meta, clients)


def load(args: list[str], batchsize: int | dict[str, int] = 1) -> list[Run]:
    """Load every run named by command-line arguments (directories, files, ``LABEL=PATH``).

    ``batchsize`` applies to plain files only (a phase's own metadata says its batch size):
    one number for all, or ``{label: n}`` with ``""`` as the default for the others.
    Runs come back ordered by scenario, timestamp and phase_index.
    """
    runs: list[Run] = []
    for arg in args:
        label = None
        if "=" in arg and not Path(arg).exists():
            label, arg = arg.split("=", 1)
        path = Path(arg)
        if not path.exists():
            raise UnreadableInput(path, "does not exist")
        if path.is_dir():
            metas = sorted(path.rglob("metadata.json"))
            if not metas:
                raise UnreadableInput(path, "is a directory without any metadata.json (expected the "
                                            "runner layout results/<scenario>/<timestamp>/<phase>/metadata.json)")
            runs.extend(load_phase_dir(m.parent) for m in metas)
        else:
            sizes = batchsize if isinstance(batchsize, dict) else {"": batchsize}
            size = sizes.get(label or "", sizes.get("", 1)) if label else sizes.get("", 1)
            runs.append(load_plain_file(path, label, size))
    runs.sort(key=lambda r: (r.scenario, r.timestamp, int(r.metadata.get("phase_index") or 0), r.phase))
    names = [r.name for r in runs]
    for r in runs:  # the same phase from two timestamps: tell them apart
        if names.count(r.name) > 1 and r.timestamp:
            r.metadata["_name_suffix"] = r.timestamp
    return runs


def run_label(run: Run) -> str:
    """The run's name, with its timestamp when two loaded runs share a name."""
    suffix = run.metadata.get("_name_suffix")
    return f"{run.name} ({suffix})" if suffix else run.name
