"""bin/ycsb: YCSB's launcher command line, run on this project's build and YCSB core 0.17.0.

    bin/ycsb load|run|shell <binding> [-P file]... [-p key=value]... [-s] [-threads N]
             [-target N] [-l label] [-cp extra] [-jvm-args "..."]
    bin/ycsb servers <binding> [-P file]... [-p key=value]... [-cp extra] [-jvm-args "..."]
             [-watch SECONDS]

Differences from YCSB's own bin/ycsb, each on purpose: Python 3; an English locale, so numbers
print with a decimal point whatever the machine's locale; HdrHistogram 2.1.12 and jaxb-api on the
classpath, so hdrhistogram.fileoutput=true works on JDK 17; secrets masked in the echoed command;
and a non-zero exit status when the client could not start (2) or a binding's init() failed (3).
"""
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

from ..core import java
from ..core.bindings import BINDINGS
from ..core.errors import ScriptError, debugging, run_main
from ..core.paths import REPO_ROOT, RUNTIME_LIB, binding_release_dir
from ..core.secrets import mask_command
from .ycsb_options import COMMANDS, OPTIONS, check_value, closest, unknown_option
from .ycsb_options import jvm_args as parse_jvm_args

CLIENT_MAIN = "org.ycsbpack.common.launch.ClientMain"
SHELL_MAIN = "org.ycsbpack.common.launch.ShellMain"
BUILD_COMMAND = f"mvn -q -DskipTests package   (in {REPO_ROOT})"
CLIENT_LOG_VARIABLE = "YCSBPACK_CLIENT_LOG"
SLF4J_LOG_FILE = "org.slf4j.simpleLogger.logFile"  # read by ClientMain and InitFailure too

USAGE = """usage: bin/ycsb load|run|shell <binding> [options]
       bin/ycsb servers <binding> [-P file]... [-p key=value]... [-cp ...] [-jvm-args ...]
                [-watch SECONDS]
bindings: {bindings}
servers:  connects as the binding would and prints one JSON object: versions, settings and
          schema read from the servers (cassandra4, hbase-salted, jdbc); with -watch, then one
          JSON line per node and metric every SECONDS until stdin ends (jdbc: the facts only)
options:  -P file          a workload properties file (several allowed; every -p beats every -P)
          -p key=value     one property
          -s               status lines on stderr every status.interval seconds (load, run)
          -threads N       client threads, 1 or more (load, run; default 1)
          -target N        operations per second in total, 0 = unthrottled (load, run)
          -l label         label of the status lines (load, run)
          -table name      table of the shell (shell)
          -cp path         extra classpath entries before the binding's (e.g. a config directory)
          -jvm-args "..."  arguments for the JVM (e.g. "-Xmx2g")
          -watch SECONDS   servers: sample the servers' counters every SECONDS (e.g. 2)
environment: YCSBPACK_CLIENT_LOG=file  where the client libraries log (default: a new file in
             $TMPDIR/ycsbpack-client-logs, named when they logged anything; `stderr` for stderr)
             YCSBPACK_DEBUG=1  stack traces of the launcher's own errors; libraries log to stderr"""


def usage() -> str:
    return USAGE.format(bindings=", ".join(BINDINGS))


def classpath(binding_name: str, extra: list) -> list:
    binding = BINDINGS[binding_name]
    if not RUNTIME_LIB.is_dir():
        raise ScriptError(
            f"YCSB core is not resolved yet: build the project first: {BUILD_COMMAND}"
        )
    cp = []
    if binding.module:
        release = binding_release_dir(binding.module, binding.name)
        if not (release / "lib").is_dir():
            raise ScriptError(f"the {binding.name} binding is not built: {BUILD_COMMAND}")
        _warn_if_stale(binding.module, release / "lib")
        cp += [str(release / "conf"), str(release / "lib" / "*")]
    cp.append(str(RUNTIME_LIB / "*"))
    return extra + cp


def _warn_if_stale(module: str, lib: Path) -> None:
    sources = REPO_ROOT / module / "src" / "main"
    newest = max((p.stat().st_mtime for p in sources.rglob("*") if p.is_file()), default=0)
    # the binding's own jar: copied dependencies keep their old timestamps from ~/.m2
    built = min((p.stat().st_mtime for p in lib.glob(f"{module}-*.jar")), default=0)
    if newest > built:
        print(f"WARN {module} has sources newer than its build; rebuild with: {BUILD_COMMAND}",
              file=sys.stderr)


def client_log(binding_name: str):
    """Where the client libraries (java-driver, HBase, ZooKeeper) log, or None for stderr.

    A connection failure makes them print dozens of stack traces before the binding's one
    sentence; they go to a file of their own, which that sentence names. YCSBPACK_CLIENT_LOG
    chooses the file (or `stderr`); with YCSBPACK_DEBUG=1 they log to stderr.
    """
    chosen = os.environ.get(CLIENT_LOG_VARIABLE, "")
    if chosen == "stderr" or debugging():
        return None
    if chosen:
        path = Path(chosen).resolve()
    else:
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        path = Path(tempfile.gettempdir()) / "ycsbpack-client-logs" / \
            f"{binding_name}-{stamp}-{os.getpid()}.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ScriptError(f"cannot create the directory of the client library log {path}: "
                          f"{e.strerror}; set {CLIENT_LOG_VARIABLE} to a writable file")
    return path


def build_command(argv: list) -> list:
    if not argv:
        raise ScriptError("no command given: bin/ycsb load|run|shell|servers <binding> [options] "
                          "(bin/ycsb --help lists the options)")
    command = argv[0]
    if command not in COMMANDS:
        raise ScriptError(f"unknown command '{command}'{closest(command, COMMANDS)}: use load, "
                          "run, shell or servers (bin/ycsb --help)")
    if len(argv) < 2 or argv[1].startswith("-"):
        raise ScriptError(f"bin/ycsb {command} needs a binding name before the options: "
                          f"bin/ycsb {command} <binding> ..., bindings: {', '.join(BINDINGS)}")
    binding_name, rest = argv[1], argv[2:]
    if binding_name not in BINDINGS:
        raise ScriptError(f"unknown binding '{binding_name}'{closest(binding_name, BINDINGS)}; "
                          f"known: {', '.join(BINDINGS)}")
    probe_class = BINDINGS[binding_name].probe_class
    if command == "servers" and not probe_class:
        probes = ", ".join(b.name for b in BINDINGS.values() if b.probe_class)
        raise ScriptError(f"binding {binding_name} has no servers to probe; bin/ycsb servers "
                          f"takes {probes}")
    extra_cp, jvm_args, ycsb_args = [], [], []
    i = 0
    while i < len(rest):
        a = rest[i]
        if a not in OPTIONS or command not in OPTIONS[a][1]:
            if not a.startswith("-"):
                raise ScriptError(f"unexpected argument '{a}': every value follows its option "
                                  "(-P file, -p key=value, -threads N, ...); see bin/ycsb --help")
            raise unknown_option(a, command)
        if OPTIONS[a][0] is None:
            ycsb_args.append(a)
            i += 1
            continue
        if i + 1 >= len(rest):
            raise ScriptError(f"option {a} needs a value: {a} {OPTIONS[a][0]}")
        value = rest[i + 1]
        check_value(a, value)
        if a == "-cp":
            extra_cp += value.split(os.pathsep)
        elif a == "-jvm-args":
            jvm_args += parse_jvm_args(value)
        else:
            ycsb_args += [a, value]
        i += 2
    db_class = BINDINGS[binding_name].db_class
    cmd = [java.java17(), "-Duser.language=en", "-Duser.country=US", "-Duser.variant="]
    log = client_log(binding_name)
    if log:
        cmd.append(f"-D{SLF4J_LOG_FILE}={log}")
    cmd += jvm_args
    cmd += ["-cp", os.pathsep.join(classpath(binding_name, extra_cp))]
    if command == "shell":
        return cmd + [SHELL_MAIN, "-db", db_class] + ycsb_args
    if command == "servers":
        return cmd + [probe_class] + ycsb_args
    mode = "-load" if command == "load" else "-t"
    return cmd + [CLIENT_MAIN, "-db", db_class] + ycsb_args + [mode]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["help"] or any(a in ("-h", "--help", "-help") for a in argv):
        print(usage())
        return 0
    cmd = build_command(argv)
    print(" ".join(shlex.quote(a) for a in mask_command(cmd)), file=sys.stderr, flush=True)
    os.execv(cmd[0], cmd)
    return 0  # not reached


if __name__ == "__main__":
    run_main(main)
