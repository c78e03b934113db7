"""The Admin programs of local-servers/hbase run against a local HBase (scripts/hbase-local
compact, snapshot, restore): each is one Java source file, run on the server's classpath."""
import subprocess
from pathlib import Path

from ..core import java, maven
from ..core.errors import ScriptError
from .hbase_local import HBASE, WHAT, Server, jvm_flags

COMPACT = HBASE / "HBaseCompact.java"
SNAPSHOT = HBASE / "HBaseSnapshot.java"


def _admin(server: Server, tool: Path, args: list, seconds: float, what: str) -> None:
    """Runs one of local-servers/hbase's Admin programs (java <tool> <args>) against `server`;
    prints what it printed."""
    tmp = server.root / "tmp"
    cmd = [java.java17(), "-Xmx256m", f"-Dhbase.tmp.dir={tmp}"] + jvm_flags(server, "probe.log")
    cmd += ["-cp", ":".join(maven.classpath(HBASE / "pom.xml", WHAT)), str(tool)]
    p = subprocess.run(cmd + [a.replace("{tmp}", str(tmp)) for a in args], capture_output=True,
                       text=True, timeout=seconds + 120)
    if p.returncode != 0:
        raise ScriptError(f"hbase-local {what} in {server.root} failed (exit "
                          f"{p.returncode}): {(p.stdout + p.stderr).strip()[-800:]}")
    print(p.stdout.strip())


def compact(server: Server, table: str, seconds: float = 300) -> None:
    """Flushes `table` and major-compacts it, waiting until done (HBaseCompact.java)."""
    _admin(server, COMPACT, [str(server.zk_port), table, str(int(seconds)), "{tmp}"], seconds,
           f"compact {table}")


def snapshot(server: Server, command: str, name: str) -> None:
    """save: a snapshot <name>-<table> of every user table; restore: every table of those
    snapshots restored to it (disable, restore_snapshot, enable) (HBaseSnapshot.java)."""
    _admin(server, SNAPSHOT, [command, str(server.zk_port), name, "{tmp}"], 300,
           f"{command} (snapshots {name}-<table>)")
