"""The JVM side of a local HBase: its classpath, the JVM flags every HBase JVM of the pack runs
with, and the pack's one Admin client (local-servers/hbase/HBaseTool.java: probe, compact,
save/restore snapshots), compiled once (again when its source changes) and run on the server's
classpath. hbase_local starts and probes servers with it; scripts/hbase-local
compact|snapshot|restore|balance run it too."""
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..core import java, maven
from ..core.errors import ScriptError
from ..core.paths import LOCAL_SERVERS

HBASE = LOCAL_SERVERS / "hbase"
TOOL = HBASE / "HBaseTool.java"
WHAT = "HBase 2.6.4-hadoop3 (hbase-server, hbase-zookeeper)"


def classpath() -> list:
    return maven.classpath(HBASE / "pom.xml", WHAT)


def jvm_flags(server, log_file: str) -> list:
    """`server`: an hbase_local.Server (its logs directory)."""
    return ["-XX:+UseG1GC", "-Djava.net.preferIPv4Stack=true",
            # avoids HBase's Unsafe fallback warning on JDK 17
            "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            # the info servers' Jersey (JAXB) defines classes reflectively on JDK 17
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            f"-Dhbase.log.dir={server.logs}", f"-Dhbase.log.file={log_file}",
            f"-Dlog4j2.configurationFile={(HBASE / 'log4j2.properties').as_uri()}"]


def run(server, command: str, args: list, seconds: float,
        cp: list = None) -> subprocess.CompletedProcess:
    """`java HBaseTool <command> <zk port> <tmp dir> <args>` against `server`."""
    tmp = server.root / "tmp"
    # HBase's own Configuration for server exceptions expands ${hbase.tmp.dir} from this system
    # property; without it the client would create /tmp/hbase-<user>/local/jars
    cmd = [java.java17(), "-Xmx256m", f"-Dhbase.tmp.dir={tmp}"] + jvm_flags(server, "probe.log")
    cp = cp or classpath()
    cmd += ["-cp", ":".join([str(compiled(cp))] + cp), "HBaseTool", command,
            str(server.zk_port), str(tmp)] + [str(a) for a in args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 120)


def compiled(cp: list) -> Path:
    """HBaseTool's classes, compiled into target/hbase-tool-<hash of the source> the first time
    (launched as a source file it was compiled at every call: 2.4 s a call against 0.9 s, idle
    2-core machine). Two runs compiling at once: the first rename wins, the other's is dropped."""
    source = TOOL.read_bytes()
    out = HBASE / "target" / f"hbase-tool-{hashlib.sha1(source).hexdigest()[:12]}"
    if (out / "HBaseTool.class").exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(dir=out.parent, prefix=".hbase-tool-"))
    javac = Path(java.java17()).with_name("javac")
    p = subprocess.run([str(javac), "-d", str(build), "-cp", ":".join(cp), str(TOOL)],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        shutil.rmtree(build, ignore_errors=True)
        raise ScriptError(f"could not compile {TOOL} (javac of JDK 17, {javac}): "
                          f"{(p.stdout + p.stderr).strip()[-800:]}")
    try:
        build.rename(out)
    except OSError:   # compiled by another run meanwhile
        shutil.rmtree(build, ignore_errors=True)
    return out


def probe(server, cp: list, seconds: float, servers: int = 1) -> subprocess.CompletedProcess:
    """The real client check: namespaces listed and at least `servers` live region servers,
    retried for up to `seconds`."""
    return run(server, "probe", [int(seconds), servers], seconds, cp)


def _checked(server, command: str, args: list, seconds: float, what: str) -> None:
    p = run(server, command, args, seconds)
    if p.returncode != 0:
        raise ScriptError(f"hbase-local {what} in {server.root} failed (exit "
                          f"{p.returncode}): {(p.stdout + p.stderr).strip()[-800:]}")
    print(p.stdout.strip())


def compact(server, table: str, seconds: float = 300) -> None:
    """Flushes `table` and major-compacts it, waiting until done."""
    _checked(server, "compact", [table, int(seconds)], seconds, f"compact {table}")


def balance(server, seconds: float = 120) -> None:
    """Runs the balancer until every live region server holds a user region again."""
    _checked(server, "balance", [int(seconds)], seconds, "balance")


def snapshot(server, command: str, name: str) -> None:
    """save: a snapshot <name>-<table> of every user table; restore: every table of those
    snapshots restored to it (disable, restore_snapshot, enable)."""
    _checked(server, command, [name], 300, f"{command} (snapshots {name}-<table>)")
