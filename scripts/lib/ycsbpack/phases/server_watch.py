"""What the servers were and did during a phase: their facts and their time series.

While a phase's clients run, two samplers run beside them, every `interval_s` seconds and once
more as they stop (a phase shorter than the interval still has its start and its end):

- `bin/ycsb servers <binding> ... -watch S` (the binding's ServerProbe, connected as the
  clients are, so it works on the user's cluster too): first the servers' facts as they
  describe themselves (versions of every node, effective settings, the table's schema), then
  what the database exposes: GC pause time, flushes and compactions (counts and bytes),
  pending compactions, per node;
- /proc, for local servers only: each server process's CPU time and disk bytes read and
  written.

Both go to `<phase>/servers.csv` (t_ms,node,metric,value: a tidy table the analysis reads,
analysis/ycsb_analysis/servers.py) and the facts to metadata.json "servers". What could not be
sampled is named in "servers" "skipped", one sentence each, never silently missing.
"""
import csv
import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Dict, List, Optional

from ..core.bindings import BINDINGS
from ..core.paths import REPO_ROOT
from . import cpu

# every 10 s, HBase's watch (no HBase client in its JVM) cost S4's update-heavy phase 0.3% of
# its throughput (95% CI -1.3% to 1.9%; docs/benchmarks/server-watch.md)
INTERVAL_S = 10.0
FILE = "servers.csv"
PROBE_OUT, PROBE_ERR = "servers-probe.jsonl", "servers-probe.err"
_CONNECTION_OPTIONS = ("-P", "-p", "-cp")
PROBE_NODE = "bin/ycsb servers"  # the probe's own CPU, a node of servers.csv


def probe_command(client_command: List[str], interval_s: float,
                  extra: Optional[Dict[str, str]] = None) -> List[str]:
    """`bin/ycsb servers` with the connection options of a client's `bin/ycsb run|load` command
    (its -P files, -p properties and -cp), and `extra` properties (e.g. local JMX addresses)."""
    binding = client_command[2]
    cmd = [sys.executable, str(REPO_ROOT / "bin" / "ycsb"), "servers", binding]
    for i, a in enumerate(client_command[:-1]):
        if a in _CONNECTION_OPTIONS:
            cmd += [a, client_command[i + 1]]
    for k, v in (extra or {}).items():
        cmd += ["-p", f"{k}={v}"]
    return cmd + ["-watch", f"{interval_s:g}"]


def proc_io(pid: int) -> Optional[Dict[str, int]]:
    """Bytes a process read from and wrote to storage (/proc/<pid>/io), None if unreadable."""
    try:
        fields = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
        return {"read": int(fields["read_bytes"]), "write": int(fields["write_bytes"])}
    except (OSError, KeyError, ValueError):
        return None


class ServerWatch:
    """Started before a phase's clients, stopped after them: `stop()` writes servers.csv and
    returns metadata.json's "servers" record."""

    def __init__(self, phase_dir: Path, client_command: Optional[List[str]],
                 local_pids: Dict[str, int], interval_s: float = INTERVAL_S,
                 probe_properties: Optional[Dict[str, str]] = None,
                 node_names: Optional[Dict[str, str]] = None):
        self.phase_dir, self.local_pids, self.interval_s = phase_dir, local_pids, interval_s
        self.node_names = node_names or {}  # the probe's node -> its local process's name
        self.rows: List[tuple] = []
        self.skipped: List[str] = []
        binding = BINDINGS.get(client_command[2]) if client_command else None
        self.command = None
        if binding is not None and binding.probe_class:
            self.command = probe_command(client_command, interval_s, probe_properties)
        elif binding is not None:
            self.skipped.append(f"the {binding.name} binding has no servers to ask")
        if self.command and not local_pids:
            self.skipped.append("disk bytes read and written: from /proc of local servers only "
                                "(these servers are not this runner's)")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample_local, daemon=True)
        self._probe: Optional[subprocess.Popen] = None
        self.cost_cpu_s = {"probe": 0.0, "proc_sampler": 0.0}  # what sampling itself used

    def start(self) -> "ServerWatch":
        if self.command:
            with open(self.phase_dir / PROBE_OUT, "w") as out, \
                    open(self.phase_dir / PROBE_ERR, "w") as err:
                self._probe = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=out,
                                               stderr=err)
        if self.local_pids or self._probe:
            self._thread.start()
        return self

    def probe_pid(self) -> Optional[int]:
        """The probe's JVM (bin/ycsb execs it), None when no probe runs."""
        return self._probe.pid if self._probe else None

    def probe_cpu_s(self) -> Optional[float]:
        """The CPU seconds the probe's JVM has used so far, with its children that ended (the
        JVM that read the facts: HBaseWatch), None when no probe runs."""
        return cpu.process_cpu_s(self._probe.pid, children=True) if self._probe else None

    def _sample_local(self) -> None:
        unreadable = set()
        while True:
            self._sample_proc(unreadable)
            if self._stop.is_set():  # that was the last, as the phase ended
                self.cost_cpu_s["proc_sampler"] = round(time.thread_time(), 3)
                return
            self._stop.wait(self.interval_s)

    def _sample_proc(self, unreadable: set) -> None:
        t_ms = int(time.time() * 1000)
        probe = self.probe_cpu_s()
        if probe is not None:  # what the probe itself costs, on the same time axis
            self.rows.append((t_ms, PROBE_NODE, "cpu_ms_total", round(probe * 1000)))
        for name, pid in self.local_pids.items():
            used = cpu.process_cpu_s(pid)
            if used is not None:
                self.rows.append((t_ms, name, "cpu_ms_total", round(used * 1000)))
            io = proc_io(pid)
            if io is None and name not in unreadable:
                unreadable.add(name)
                self.skipped.append(f"{name}: /proc/{pid}/io is not readable (another "
                                    "user's process?): no disk bytes for it")
            elif io is not None:
                self.rows.append((t_ms, name, "disk_read_bytes_total", io["read"]))
                self.rows.append((t_ms, name, "disk_write_bytes_total", io["write"]))

    def _stop_probe(self) -> None:
        if self._probe is None:
            return
        # the probe's JVM (bin/ycsb execs it) before it ends: the CPU the watch cost
        self.cost_cpu_s["probe"] = self.probe_cpu_s() or 0.0
        try:
            self._probe.stdin.close()   # end of input: the probe's signal to stop
            self._probe.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self._probe.kill()
            self._probe.wait()
            self.skipped.append("bin/ycsb servers did not stop within 15 s of its input's end: "
                                "killed")

    def _probe_lines(self) -> dict:
        """The probe's facts (its last facts line: as the phase left the servers) with its
        samples appended to the rows."""
        path = self.phase_dir / PROBE_OUT
        lines = path.read_text().splitlines() if path.exists() else []
        code = self._probe.returncode
        if not lines or code not in (0, None, -9):  # -9: killed, said in _stop_probe
            err = (self.phase_dir / PROBE_ERR).read_text().strip().splitlines()
            how = "exited with status" if lines else "printed nothing, exit"
            self.skipped.append(f"bin/ycsb servers {how} {code}: "
                                f"{err[-1] if err else 'no message'}; see {PROBE_ERR}")
        if not lines:
            return {}
        facts = {}
        for n, line in enumerate(lines, 1):
            try:
                d = json.loads(line)
            except ValueError:
                self.skipped.append(f"{PROBE_OUT} line {n} is not JSON: {line[:80]!r}")
                continue
            if "database" in d:  # the facts: first as the watch starts, last as it ends
                facts = d
            elif "skipped" in d:
                self.skipped.append(f"{d.get('node', '')}: {d['skipped']}")
            elif {"t_ms", "node", "metric", "value"} <= set(d):
                # the probe's CPU of a node is that of its process, counted from /proc locally
                if not (self.local_pids and d["metric"] == "cpu_ms_total"):
                    node = self.node_names.get(d["node"], d["node"])
                    self.rows.append((d["t_ms"], node, d["metric"], d["value"]))
        return facts

    def stop(self) -> dict:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self._stop_probe()
        facts = self._probe_lines() if self._probe is not None else {}
        with open(self.phase_dir / FILE, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["t_ms", "node", "metric", "value"])
            w.writerows(sorted(self.rows, key=lambda r: (r[1], r[2], r[0])))
        record = dict(facts)
        record["skipped"] = list(facts.get("skipped", [])) + self.skipped
        record["sampling"] = {"interval_s": self.interval_s, "file": FILE, "rows": len(self.rows),
                              "local_processes": sorted(self.local_pids),
                              "probe": self.command is not None, "cpu_s": self.cost_cpu_s}
        return record
