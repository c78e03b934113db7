"""Runs one benchmark phase through bin/ycsb and files its output where the analysis expects it.

Layout (read by analysis/ycsb_analysis/loader.py):
    <out>/<phase>/client-<i>.out        YCSB stdout: the final report
    <out>/<phase>/client-<i>.err        stderr: status lines, warnings, errors
    <out>/<phase>/hdr/client-<i>-<OP>.hdr  HdrHistogram interval logs
    <out>/<phase>/metadata.json         what ran: scenario, phase, database, every property, ...
"""
import json
import platform
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, List, Optional

from .errors import ScriptError
from .paths import REPO_ROOT
from .secrets import mask_command, mask_properties
from .versions import versions

YCSB = REPO_ROOT / "bin" / "ycsb"


@dataclass
class Phase:
    scenario: str
    name: str
    database: str                 # cassandra | hbase | basic
    binding: str                  # bin/ycsb binding name
    command: str                  # load | run
    property_files: List[str]
    properties: Dict[str, str] = field(default_factory=dict)
    threads: int = 1
    target: Optional[int] = None
    label: str = ""
    index: int = 0


def read_property_files(files: List[str]) -> Dict[str, str]:
    """The -P files merged in order, as YCSB reads them (java.util.Properties syntax, simplified)."""
    props = {}
    for f in files:
        for raw in Path(f).read_text().splitlines():
            line = raw.strip()
            if not line or line[0] in "#!":
                continue
            sep = min((i for i in (line.find("="), line.find(":")) if i > 0), default=-1)
            if sep > 0:
                props[line[:sep].strip()] = line[sep + 1:].strip()
    return props


def ycsb_command(phase: Phase, phase_dir: Path, client: int = 0) -> list:
    cmd = [str(YCSB), phase.command, phase.binding]
    for f in phase.property_files:
        cmd += ["-P", str(f)]
    props = dict(phase.properties)
    props.setdefault("hdrhistogram.fileoutput", "true")
    props.setdefault("hdrhistogram.output.path", str(phase_dir / "hdr" / f"client-{client}-"))
    props.setdefault("status.interval", "5")
    for k, v in props.items():
        cmd += ["-p", f"{k}={v}"]
    cmd += ["-s", "-threads", str(phase.threads)]
    if phase.target:
        cmd += ["-target", str(phase.target)]
    if phase.label:
        cmd += ["-l", phase.label]
    return cmd


def run_phase(phase: Phase, out_dir: Path, echo_status: bool = True) -> Path:
    """Runs the phase with one client; returns its directory. Raises ScriptError on failure."""
    phase_dir = out_dir / phase.name
    (phase_dir / "hdr").mkdir(parents=True, exist_ok=True)
    cmd = ycsb_command(phase, phase_dir)
    start = datetime.now(timezone.utc)
    t0 = time.monotonic()
    with open(phase_dir / "client-0.out", "wb") as out, open(phase_dir / "client-0.err", "w") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, text=True,
                                cwd=REPO_ROOT, stdin=subprocess.DEVNULL)
        for line in proc.stderr:
            err.write(line)
            if echo_status and (" sec: " in line or line.startswith(("ERROR", "WARN"))):
                sys.stderr.write(f"  [{time.monotonic() - t0:5.0f} s] {line}")
        status = proc.wait()
    end = datetime.now(timezone.utc)
    all_props = read_property_files(phase.property_files)
    all_props.update(ycsb_props(cmd))
    metadata = {
        "scenario": phase.scenario, "phase": phase.name, "phase_index": phase.index,
        "database": phase.database, "binding": phase.binding,
        "workload": all_props.get("workload", "site.ycsb.workloads.CoreWorkload"),
        "properties": mask_properties(all_props), "threads": phase.threads, "clients": 1,
        "batchsize": int(all_props.get("batchsize", "1")), "target": phase.target,
        "versions": versions(), "host": platform.node(),
        "start_time": start.isoformat(), "end_time": end.isoformat(),
        "command": mask_command(cmd), "label": phase.label or f"{phase.database} {phase.name}",
        "exit_status": status,
    }
    (phase_dir / "metadata.json").write_text(json.dumps(metadata, indent=2) + "\n")
    if status != 0:
        tail = "\n".join((phase_dir / "client-0.err").read_text().splitlines()[-15:])
        raise ScriptError(f"phase {phase.name} failed (bin/ycsb exit {status}); last lines of "
                          f"{phase_dir / 'client-0.err'}:\n{tail}")
    return phase_dir


def ycsb_props(cmd: list) -> Dict[str, str]:
    """The -p key=value pairs of a bin/ycsb command line."""
    props = {}
    for i, a in enumerate(cmd[:-1]):
        if a == "-p" and "=" in cmd[i + 1]:
            k, v = cmd[i + 1].split("=", 1)
            props[k] = v
    return props


def summary(phase_dir: Path) -> str:
    """The headline lines of the final report: throughput and per-operation latency/returns."""
    keep = ("Throughput", "RunTime", "AverageLatency", "95thPercentile", "99thPercentile",
            "Return=", "Operations")
    lines = [l for l in (phase_dir / "client-0.out").read_text().splitlines()
             if l.startswith("[") and not l.startswith(("[TOTAL_G", "[CLEANUP]"))
             and any(k in l for k in keep)]
    return "\n".join(lines)


def describe(cmd: list) -> str:
    return " ".join(shlex.quote(a) for a in mask_command(cmd))
