"""bin/ycsb: YCSB's launcher command line, run on this project's build and YCSB core 0.17.0.

    bin/ycsb load|run|shell <binding> [-P file]... [-p key=value]... [-s] [-threads N]
             [-target N] [-l label] [-cp extra] [-jvm-args "..."]

Differences from YCSB's own bin/ycsb, each on purpose: Python 3; an English locale, so numbers
print with a decimal point whatever the machine's locale; HdrHistogram 2.1.12 and jaxb-api on the
classpath, so hdrhistogram.fileoutput=true works on JDK 17; secrets masked in the echoed command;
and a non-zero exit status when the client could not start (2) or a binding's init() failed (3).
"""
import os
import shlex
import sys
from pathlib import Path

from . import java
from .bindings import BINDINGS
from .errors import ScriptError, run_main
from .paths import REPO_ROOT
from .secrets import mask_command

CLIENT_MAIN = "org.ycsbpack.common.launch.ClientMain"
SHELL_MAIN = "site.ycsb.CommandLine"
RUNTIME_LIB = REPO_ROOT / "ycsb-runtime" / "target" / "lib"
BUILD_COMMAND = f"mvn -q -DskipTests package   (in {REPO_ROOT})"

USAGE = """usage: bin/ycsb load|run|shell <binding> [options]
bindings: {bindings}
options:  -P file  -p key=value  -s  -threads N  -target N  -l label
          -cp extra-classpath  -jvm-args "jvm arguments"   (others go to YCSB as they are)"""


def binding_release_dir(module: str, name: str) -> Path:
    return REPO_ROOT / module / "target" / f"{name}-binding"


def classpath(binding_name: str, extra: list) -> list:
    binding = BINDINGS[binding_name]
    if not RUNTIME_LIB.is_dir():
        raise ScriptError(f"YCSB core is not resolved yet: build the project first: {BUILD_COMMAND}")
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


def build_command(argv: list) -> list:
    if len(argv) < 2 or argv[0] not in ("load", "run", "shell"):
        raise ScriptError(USAGE.format(bindings=", ".join(BINDINGS)))
    command, binding_name, rest = argv[0], argv[1], argv[2:]
    if binding_name not in BINDINGS:
        raise ScriptError(f"unknown binding '{binding_name}'; known: {', '.join(BINDINGS)}")
    extra_cp, jvm_args, ycsb_args = [], [], []
    i = 0
    while i < len(rest):
        a = rest[i]
        if a in ("-cp", "-jvm-args", "-P", "-p", "-threads", "-target", "-l") and i + 1 >= len(rest):
            raise ScriptError(f"option {a} needs a value")
        if a == "-cp":
            extra_cp += rest[i + 1].split(os.pathsep)
            i += 2
        elif a == "-jvm-args":
            jvm_args += shlex.split(rest[i + 1])
            i += 2
        elif a == "-P":
            if not Path(rest[i + 1]).is_file():
                raise ScriptError(f"-P {rest[i + 1]}: no such workload file")
            ycsb_args += [a, rest[i + 1]]
            i += 2
        else:
            ycsb_args.append(a)
            i += 1
    db_class = BINDINGS[binding_name].db_class
    cmd = [java.java17(), "-Duser.language=en", "-Duser.country=US", "-Duser.variant="]
    cmd += jvm_args
    cmd += ["-cp", os.pathsep.join(classpath(binding_name, extra_cp))]
    if command == "shell":
        return cmd + [SHELL_MAIN, "-db", db_class] + ycsb_args
    mode = "-load" if command == "load" else "-t"
    return cmd + [CLIENT_MAIN, "-db", db_class] + ycsb_args + [mode]


def main(argv=None) -> int:
    cmd = build_command(sys.argv[1:] if argv is None else argv)
    print(" ".join(shlex.quote(a) for a in mask_command(cmd)), file=sys.stderr, flush=True)
    os.execv(cmd[0], cmd)
    return 0  # not reached


if __name__ == "__main__":
    run_main(main)
