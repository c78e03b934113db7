"""What ran on the client side of a phase, read from the source (metadata.json "provenance").

Client libraries alone have moved YCSB results by 1.4-3x in public reports (java-driver 4.5's
Netty upgrade, JAVA-2676; the MongoDB Java driver 4.2-4.4, JAVA-4452), so a comparison must be
able to say whether its two sides ran the same software on the same kind of machine:

    pack       this checkout's git commit and whether its tracked files were modified
    jdk        the java the clients ran on (its own properties, not the build's pin)
    jvm_flags  the flags bin/ycsb was given (-jvm-args) and JAVA_TOOL_OPTIONS/JDK_JAVA_OPTIONS
    libraries  every jar on the binding's classpath, artifact -> version (driver, Netty,
               hbase-client, HikariCP, connector, YCSB core, ...)
    telemetry  an OpenTelemetry agent (-javaagent) or SDK on the classpath, and the client
               metrics/tracing properties the phase set (unset: the library's default, off)
    machine    this machine's cores and memory, and the local servers that shared it

The servers' side (versions, settings, schema as the servers describe them) is read by
`bin/ycsb servers` (server_watch.py). Secrets never get here: flags and options are masked.
"""
import functools
import os
import re
import subprocess
from pathlib import Path
from typing import Dict, List

from ..core import java
from ..core.bindings import BINDINGS
from ..core.paths import REPO_ROOT, RUNTIME_LIB, binding_release_dir
from ..core.secrets import mask_command
from ..ycsb.ycsb_options import jvm_args as parse_jvm_args

_JAR = re.compile(r"^(?P<artifact>.+?)-(?P<version>\d[^-]*(?:-[A-Za-z0-9.]+)*)\.jar$")
_TELEMETRY_PROPERTY = re.compile(r"metrics|tracing|telemetry|otel", re.IGNORECASE)
_JAVA_PROPERTIES = ("java.version", "java.vendor", "java.vm.name", "java.vm.version")


def _git(*args: str) -> str:
    try:
        proc = subprocess.run(["git", "-C", str(REPO_ROOT), *args], capture_output=True,
                              text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout.strip() if proc.returncode == 0 else ""


def pack() -> dict:
    commit = _git("rev-parse", "HEAD")
    if not commit:
        return {"commit": None, "skipped": f"{REPO_ROOT} is not a git checkout (or git is "
                                           "missing): the pack's commit is unknown"}
    return {"commit": commit,
            "modified": bool(_git("status", "--porcelain", "--untracked-files=no"))}


@functools.lru_cache(maxsize=4)
def jdk(java_path: str) -> dict:
    """The properties the JVM itself reports (`java -XshowSettings:properties -version`)."""
    out = subprocess.run([java_path, "-XshowSettings:properties", "-version"],
                         capture_output=True, text=True, timeout=60).stderr
    found = dict(re.findall(r"^\s+(\S+) = (.*)$", out, re.MULTILINE))
    return {"path": java_path} | {k: found[k] for k in _JAVA_PROPERTIES if k in found}


def _jars(entry: str) -> List[Path]:
    p = Path(entry.rstrip("*"))
    return sorted(p.glob("*.jar")) if p.is_dir() else [p] if p.suffix == ".jar" else []


def _versions(jars: List[Path]) -> Dict[str, str]:
    found: Dict[str, set] = {}
    for jar in jars:
        m = _JAR.match(jar.name)
        if m:  # two versions of one artifact (a classifier, or runtime and binding): both
            found.setdefault(m["artifact"], set()).add(m["version"])
    return {k: ", ".join(sorted(v)) for k, v in found.items()}


def libraries(binding_name: str, extra_cp: List[str] = ()) -> Dict[str, str]:
    """artifact -> version of every jar bin/ycsb puts on this binding's classpath; a jar given
    with -cp comes first on it, so its version is the one that ran ("<version> (-cp)")."""
    binding = BINDINGS[binding_name]
    dirs = [RUNTIME_LIB]
    if binding.module:
        dirs.insert(0, binding_release_dir(binding.module, binding.name) / "lib")
    found = _versions([jar for d in dirs for jar in d.glob("*.jar")])
    found.update({k: f"{v} (-cp)" for k, v in
                  _versions([j for e in extra_cp for j in _jars(e)]).items()})
    return dict(sorted(found.items()))


def classpath_options(command: List[str]) -> List[str]:
    """The -cp entries of a bin/ycsb command line."""
    return [e for i, a in enumerate(command[:-1]) if a == "-cp"
            for e in command[i + 1].split(os.pathsep)]


def jvm_flags(command: List[str]) -> List[str]:
    flags = []
    for i, a in enumerate(command[:-1]):
        if a == "-jvm-args":
            flags += parse_jvm_args(command[i + 1])
    for var in ("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"):
        if os.environ.get(var):
            flags += os.environ[var].split()
    return mask_command(flags)


def telemetry(flags: List[str], libs: Dict[str, str], properties: Dict[str, str]) -> dict:
    agents = [f for f in flags if f.startswith("-javaagent:")]
    return {
        "otel_agent": any("opentelemetry" in a.lower() for a in agents),
        "java_agents": agents,
        "otel_sdk_on_classpath": any(a.startswith("opentelemetry-sdk") for a in libs),
        "client_metrics_properties": {k: v for k, v in sorted(properties.items())
                                      if _TELEMETRY_PROPERTY.search(k)},
    }


def machine(local_servers: List[str]) -> dict:
    mem_kib = 0
    try:
        m = re.search(r"^MemTotal:\s+(\d+) kB", Path("/proc/meminfo").read_text(), re.MULTILINE)
        mem_kib = int(m.group(1)) if m else 0
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"cores": cores, "memory_gib": round(mem_kib / 2**20, 1) if mem_kib else None,
            "shared_with_local_servers": sorted(local_servers)}


def client_record(binding_name: str, command: List[str], properties: Dict[str, str],
                  local_servers: List[str]) -> dict:
    """metadata.json "provenance" of a phase run by `command` (a bin/ycsb command line)."""
    libs = libraries(binding_name, classpath_options(command))
    flags = jvm_flags(command)
    return {"pack": pack(), "jdk": jdk(java.java17()), "jvm_flags": flags, "libraries": libs,
            "telemetry": telemetry(flags, libs, properties), "machine": machine(local_servers)}
