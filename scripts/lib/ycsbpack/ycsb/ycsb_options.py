"""bin/ycsb's options, what each accepts, and one sentence for each way to get one wrong.

Checked in Python before a JVM starts: YCSB 0.17 itself answers `-threads abc` with a
NumberFormatException trace, `-threads 0` with an empty report and exit 0, and an unknown option
with its 26-line usage of `java site.ycsb.Client`. Property values (which -P files can also set)
are checked in Java, by ClientMain, which merges them exactly as YCSB does.
"""
import difflib
import re
import shlex
from pathlib import Path

from ..core.errors import ScriptError
from ..core.secrets import mask_assignment

COMMANDS = ("load", "run", "shell", "servers")
# option -> (what its value is, which commands take it); None: a flag without a value
OPTIONS = {
    "-P": ("a workload properties file", COMMANDS),
    "-p": ("key=value", COMMANDS),
    "-s": (None, ("load", "run")),
    "-threads": ("N", ("load", "run")),
    "-target": ("N", ("load", "run")),
    "-l": ("label", ("load", "run")),
    "-table": ("table", ("shell",)),
    "-cp": ("extra-classpath", COMMANDS),
    "-jvm-args": ('"jvm arguments"', COMMANDS),
    "-watch": ("SECONDS", ("servers",)),
}
# YCSB options the launcher sets itself, from the command and the binding name
SET_BY_LAUNCHER = {"-db": "the binding name", "-load": "the command load",
                   "-t": "the command run"}
_WHOLE = re.compile(r"^[0-9]+$")
_MAX_INT = 2 ** 31 - 1


def closest(word: str, choices) -> str:
    """' (did you mean X?)' for the nearest choice, or '' when none is near."""
    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {match[0]}?)" if match else ""


def unknown_option(option: str, command: str) -> ScriptError:
    if option in SET_BY_LAUNCHER:
        return ScriptError(f"option {option} is set by bin/ycsb from {SET_BY_LAUNCHER[option]}; "
                           "leave it out")
    if option in OPTIONS:
        takes = " and ".join(OPTIONS[option][1])
        return ScriptError(f"option {option} does not apply to bin/ycsb {command} "
                           f"(only to {takes})")
    hint = closest("-" + option.lstrip("-"), OPTIONS)
    if option.startswith("--") and option[1:] in OPTIONS:
        hint = f" (YCSB options take one dash: {option[1:]})"
    return ScriptError(f"unknown option {option}{hint}; see bin/ycsb --help")


def check_value(option: str, value: str) -> None:
    """Raises a ScriptError naming the option and value when the value cannot be right."""
    if option == "-threads":
        if not _WHOLE.match(value) or not 1 <= int(value) <= _MAX_INT:
            raise ScriptError(f"-threads {value}: expected the number of client threads, a whole "
                              "number of 1 or more")
    elif option == "-target":
        if not _WHOLE.match(value) or int(value) > _MAX_INT:
            raise ScriptError(f"-target {value}: expected operations per second, a whole number "
                              "(0 or leaving it out means as fast as possible)")
    elif option == "-watch":
        try:
            seconds = float(value)
        except ValueError:
            seconds = 0
        if not 0.1 <= seconds <= 86400:
            raise ScriptError(f"-watch {value}: expected the seconds between samples, a number "
                              "from 0.1 to 86400 (e.g. -watch 2)")
    elif option == "-p":
        key, eq, _ = value.partition("=")
        if not eq or not key.strip():
            raise ScriptError(f"-p {value}: expected key=value, e.g. -p recordcount=1000")
    elif option == "-P":
        path = Path(value)
        if path.is_dir():
            raise ScriptError(f"-P {value} is a directory: give a workload properties file, "
                              "e.g. -P workloads/s4/update-heavy.properties")
        if not path.is_file():
            raise ScriptError(f"-P {value}: no such workload file")


def jvm_args(value: str) -> list:
    try:
        return shlex.split(value)
    except ValueError as e:
        shown = " ".join(mask_assignment(word) for word in value.split(" "))
        raise ScriptError(f"-jvm-args {shown!r}: {e} (quote the JVM arguments as one shell word, "
                          "e.g. -jvm-args \"-Xmx1g -Dname=value\")")
