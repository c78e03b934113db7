"""Byteman rules in a running server JVM: S2's slow-disk fault (scenarios/fault_slow_disk.py)
slows one call of one node's process for a window and removes the slowing again.

Byteman is the JVM agent that Cassandra's own distributed tests use to slow or fail a node's
writes. Its installer loads the agent into a running JVM through the JDK's attach mechanism
(same user; the JVM must not run with -XX:+DisableAttachMechanism), the agent listens on a
loopback port, and its submit client adds (-l) and removes (-u) rule files there. The agent
stays in the JVM until the process exits; with no rule loaded it changes no method.
Jars from Maven Central through local-servers/byteman/pom.xml.

A rule here sleeps at the entry of the slowed method (Byteman's delay) and appends one line,
the time in epoch milliseconds, to a trace file: the verdict counts the calls each window
slowed, so a window that slowed nothing is seen, not taken for a database that shrugged.
"""
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

import psutil

from ..core import java, maven
from ..core.errors import ScriptError
from ..core.paths import LOCAL_SERVERS

POM = LOCAL_SERVERS / "byteman" / "pom.xml"
HOST = "127.0.0.1"
INSTALL = "org.jboss.byteman.agent.install.Install"
SUBMIT = "org.jboss.byteman.agent.submit.Submit"


@dataclass(frozen=True)
class Point:
    """Where a database's node writes its commit log or write-ahead log to its disk: the
    node's `process` (its key in node_pids, {node} filled in), the rule's CLASS and METHOD,
    and what that call is, in words."""

    process: str
    klass: str
    method: str
    words: str

    @property
    def call(self) -> str:
        """The slowed call in short: "CommitLogSegment.flush"."""
        return f"{self.klass.rsplit('.', 1)[-1]}.{self.method.split('(')[0]}"


def missing() -> Optional[str]:
    """What the rules need and this machine lacks (None: nothing); the agent's jars are
    resolved (downloaded the first time) here."""
    try:
        maven.classpath(POM, "Byteman")
    except ScriptError as e:
        return f"Byteman's jars could not be resolved from Maven Central ({e})"
    return None


def rule_text(name: str, klass: str, method: str, delay_ms: str, trace: Path) -> str:
    """One rule: at the entry of `klass`.`method` (a leading ^ also matches the methods that
    override it), a line to `trace`, then a sleep of `delay_ms` (a Java long expression)."""
    # the trace's path is its key among the agent's open traces: with one key shared by all
    # rules, a later rule's lines would go to the file an earlier rule opened
    return (f"RULE {name}\nCLASS {klass}\nMETHOD {method}\nAT ENTRY\nIF true\n"
            f'DO traceOpen("{trace}", "{trace}");\n'
            f'   traceln("{trace}", "" + System.currentTimeMillis());\n'
            f"   delay({delay_ms})\nENDRULE\n")


def calls_between(trace: Path, start_ms: int, end_ms: int) -> int:
    """The calls a rule slowed from `start_ms` to `end_ms` (epoch ms), from its trace file."""
    if not trace.exists():
        return 0
    stamps = [int(s) for s in trace.read_text().split() if s.isdigit()]
    return sum(start_ms <= s <= end_ms for s in stamps)


class Rules:
    """`text` (rules) loaded into process `pid` while the `with` block runs (the agent is
    installed first unless a file beside the rule file says it already listens there)."""

    def __init__(self, pid: int, text: str, rule_file: Path):
        self.pid, self.text, self.rule_file = pid, text, rule_file

    def __enter__(self) -> "Rules":
        self.port = install(self.pid, self.rule_file.parent)
        self.rule_file.write_text(self.text)
        _submit(self.port, ["-l", str(self.rule_file)])
        return self

    def __exit__(self, *exc) -> None:
        _submit(self.port, ["-u", str(self.rule_file)])


def _java(main: str, args: List[str]) -> subprocess.CompletedProcess:
    cp = ":".join(maven.classpath(POM, "Byteman"))
    return subprocess.run([java.java17(), "-cp", cp, main, *args], capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


def install(pid: int, state: Path) -> int:
    """Loads the agent into process `pid` unless a file in `state` says it listens there
    already; returns its port. Loading it stops the JVM for a moment (attach, the agent's own
    classes): the slow disk does it before its traffic starts, not at a window's start."""
    state.mkdir(parents=True, exist_ok=True)
    try:   # the process's start time in the name: a later process with the same pid has none
        started = int(psutil.Process(pid).create_time())
    except psutil.Error:
        started = 0   # gone: the installer below says so
    known = state / f"byteman-agent-{pid}-{started}.port"
    if known.exists():
        return int(known.read_text())
    with socket.socket() as s:   # a free loopback port for the agent's listener
        s.bind((HOST, 0))
        port = s.getsockname()[1]
    proc = _java(INSTALL, ["-h", HOST, "-p", str(port), str(pid)])
    if proc.returncode != 0:
        raise ScriptError(f"could not load the Byteman agent into process {pid}: "
                          f"{_last_line(proc)} (the JDK's attach mechanism: same user, and no "
                          "-XX:+DisableAttachMechanism)")
    known.write_text(str(port))
    return port


def _submit(port: int, args: List[str]) -> None:
    proc = _java(SUBMIT, ["-h", HOST, "-p", str(port), *args])
    if proc.returncode != 0 or "ERROR" in proc.stdout:
        raise ScriptError(f"Byteman's submit {' '.join(args)} on port {port} failed: "
                          f"{_last_line(proc)}")


def _last_line(proc: subprocess.CompletedProcess) -> str:
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    return lines[-1] if lines else f"exit {proc.returncode}, no output"
