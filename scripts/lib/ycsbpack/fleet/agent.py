"""One YCSB client on a loader host: the Ray actor the coordinator (ray_clients.py) creates per
client.

Standard library only: Ray ships this module to the loaders by value, so a loader needs Ray and
its own build of the pack (found through $YCSBPACK_HOME, set when its `ray start` ran), nothing
else of the coordinator's. The client runs as `$YCSBPACK_HOME/bin/ycsb ...` in a work directory
of its own, with the coordinator's -P files shipped as text; its stdout, stderr and .hdr logs
are written there and handed back in pieces by poll(), so they reach the coordinator while the
client runs (a loader that dies later has still delivered what it wrote).

No orphan JVM: the client runs in its own process group, stop() ends that group, and the kernel
kills it when this actor's process dies (PR_SET_PDEATHSIG through setpriv), e.g. when its
Ray node is stopped.

What the coordinator cannot see from its machine is measured here: the client's CPU seconds
(a thread reaps it with wait4, as phase_runner does for local clients: bin/ycsb execs the JVM,
so its rusage is the client JVM's), when it ended, and this loader's cores. A warmed-up phase
ends when the coordinator calls stop_measuring(): it creates the stop file the client watches
(its `ycsbpack.stopfile`, a path in the work directory).
"""

import hashlib
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

PACK_TOKEN = "@PACK@"  # the loader's pack checkout in a command line
WORK_TOKEN = "@WORK@"  # the client's work directory on the loader
# The jars that make a pack build, relative to a checkout: YCSB core and the bindings' releases.
JAR_GLOBS = (
    "ycsb-runtime/target/lib",
    "cassandra4-binding/target/cassandra4-binding/lib",
    "hbase-salted-binding/target/hbase-salted-binding/lib",
)
MAX_CHUNK = 8 * 1024 * 1024
STOP_FILE_PROPERTY = "ycsbpack.stopfile="  # binding-common StopFileWatcher


def pack_commit(home: str) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", home, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=20
        )
        return out.stdout.strip() if out.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""


def jars_checksum(home: str) -> str:
    """SHA-256 over every jar's entries (name, CRC-32, size) from the zip directories: what the
    jars contain, not when they were built, so two builds of one commit agree. "" when none."""
    h = hashlib.sha256()
    found = False
    for d in JAR_GLOBS:
        lib = os.path.join(home, d)
        if not os.path.isdir(lib):
            continue
        for name in sorted(os.listdir(lib)):
            if not name.endswith(".jar"):
                continue
            found = True
            h.update(f"{d}/{name}\n".encode())
            with zipfile.ZipFile(os.path.join(lib, name)) as z:
                for e in sorted(z.infolist(), key=lambda e: e.filename):
                    h.update(f"{e.filename} {e.CRC:08x} {e.file_size}\n".encode())
    return h.hexdigest() if found else ""


def _with_parent_death_signal(cmd: list) -> list:
    """The command run so that the kernel SIGKILLs it when the agent's process dies:
    util-linux setpriv sets PR_SET_PDEATHSIG and execs it (kept across bin/ycsb's exec of
    java). A preexec_fn could do the same, but is not safe in Ray's many-threaded worker."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "KILL", "--"] + cmd if setpriv else cmd


class ClientAgent:
    def __init__(self, run_id: str, index: int):
        self.home = os.environ.get("YCSBPACK_HOME", "")
        self.index = index
        self.work = os.path.join(
            tempfile.gettempdir(), f"ycsbpack-fleet-{os.getuid()}", run_id, f"client-{index}"
        )
        self.proc = None
        self.offsets = {}
        self.end = None
        self.cpu_s = None
        self.stop_file = None
        self.exited = threading.Event()

    def now(self) -> float:
        return time.time()

    def describe(self) -> dict:
        """Who this loader is and whether it can run the client (a "problem" when not)."""
        import ray

        info = {
            "ray_node_id": ray.get_runtime_context().get_node_id(),
            "host": socket.gethostname(),
            "ip": ray.util.get_node_ip_address(),
            "pack_home": self.home,
            "python": platform.python_version(),
            "pid": os.getpid(),
            # YCSB's status lines carry the loader's local time without a zone
            "utc_offset_s": time.localtime().tm_gmtoff,
            # the cores the client may use (it inherits this process's affinity)
            "cores": len(os.sched_getaffinity(0)),
        }
        if not self.home:
            info["problem"] = (
                "its `ray start` ran without YCSBPACK_HOME (the pack checkout the "
                "loader runs): restart it as YCSBPACK_HOME=/path/to/pack ray start ..."
            )
            return info
        if not os.path.isfile(os.path.join(self.home, "bin", "ycsb")):
            info["problem"] = f"YCSBPACK_HOME={self.home} holds no bin/ycsb"
            return info
        info["pack_commit"] = pack_commit(self.home)
        info["jars_sha256"] = jars_checksum(self.home)
        if not info["jars_sha256"]:
            info["problem"] = (
                f"the pack in {self.home} is not built: run mvn -q -DskipTests package there"
            )
            return info
        info.update(self._java())
        return info

    def _java(self) -> dict:
        """The JDK bin/ycsb would use there, found by the loader's own pack code."""
        lib = os.path.join(self.home, "scripts", "lib")
        probe = (
            "import sys; sys.path.insert(0, sys.argv[1]); from ycsbpack.core import java; "
            "print(java.java17())"
        )
        try:
            found = subprocess.run(
                [sys.executable, "-c", probe, lib], capture_output=True, text=True, timeout=60
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            return {"java_problem": str(e)}
        if found.returncode != 0:
            lines = (found.stderr or found.stdout).strip().splitlines()
            return {"java_problem": lines[-1] if lines else f"exit {found.returncode}"}
        java = found.stdout.strip()
        version = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
        first = (version.stderr or version.stdout).strip().splitlines()
        m = re.search(r'version "([^"]+)"', version.stderr)
        return {"java": java, "java_version": m.group(1) if m else (first[0] if first else "")}

    def start(self, args: list, files: dict) -> dict:
        """Writes the shipped -P files, starts bin/ycsb; returns when and what it started."""
        shutil.rmtree(self.work, ignore_errors=True)
        for d in ("props", "hdr"):
            os.makedirs(os.path.join(self.work, d), exist_ok=True)
        for name, data in files.items():
            with open(os.path.join(self.work, "props", name), "wb") as f:
                f.write(data)
        cmd = [a.replace(PACK_TOKEN, self.home).replace(WORK_TOKEN, self.work) for a in args]
        self.stop_file = next(
            (a[len(STOP_FILE_PROPERTY) :] for a in cmd if a.startswith(STOP_FILE_PROPERTY)), None
        )
        out = open(os.path.join(self.work, f"client-{self.index}.out"), "wb")
        err = open(os.path.join(self.work, f"client-{self.index}.err"), "wb")
        try:
            started = time.time()
            self.proc = subprocess.Popen(
                _with_parent_death_signal(cmd),
                stdout=out,
                stderr=err,
                stdin=subprocess.DEVNULL,
                cwd=self.home,
                start_new_session=True,
            )
        finally:
            out.close()
            err.close()
        threading.Thread(target=self._reap, daemon=True).start()
        return {"start": started, "pid": self.proc.pid, "command": cmd, "work_dir": self.work}

    def _reap(self) -> None:
        """Waits for the client: its exit status, when it ended and its CPU seconds. The only
        wait on the child (Popen.poll/wait would race it and read a reaped child as exit 0)."""
        try:
            _, status, usage = os.wait4(self.proc.pid, 0)
            self.proc.returncode = os.waitstatus_to_exitcode(status)
            self.cpu_s = round(usage.ru_utime + usage.ru_stime, 3)
        except ChildProcessError:  # reaped elsewhere: no status, no CPU time
            self.proc.returncode = -1
        self.end = time.time()
        self.exited.set()

    def stop_measuring(self) -> bool:
        """Creates the client's stop file: it ends as at its time limit, with its final report.
        False when its command names no stop file (a phase without a warm-up)."""
        if not self.stop_file:
            return False
        with open(self.stop_file, "a"):
            pass
        return True

    def poll(self) -> dict:
        """What the client wrote since the last poll, by path relative to its work directory,
        and its exit status once it ended (files read after the exit: nothing is left behind)."""
        code = self.proc.returncode if self.exited.is_set() else None
        chunks = {}
        for rel in self._files():
            path = os.path.join(self.work, rel)
            try:
                with open(path, "rb") as f:
                    f.seek(self.offsets.get(rel, 0))
                    data = f.read(MAX_CHUNK)
            except OSError:
                continue
            if data:
                chunks[rel] = data
                self.offsets[rel] = self.offsets.get(rel, 0) + len(data)
        more = any(len(c) == MAX_CHUNK for c in chunks.values())
        return {
            "chunks": chunks,
            "exit": None if more else code,
            "end": self.end,
            "cpu_s": self.cpu_s,
        }

    def _files(self) -> list:
        rels = [n for n in os.listdir(self.work) if n.startswith("client-")]
        hdr = os.path.join(self.work, "hdr")
        rels += (
            [os.path.join("hdr", n) for n in sorted(os.listdir(hdr))] if os.path.isdir(hdr) else []
        )
        return rels

    def stop(self, grace: float = 5.0) -> int:
        """Ends the client's process group: SIGTERM, then SIGKILL after `grace` seconds."""
        if not self.proc or self.exited.is_set():
            return self.proc.returncode if self.proc else 0
        for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
            try:
                os.killpg(self.proc.pid, sig)
            except OSError:
                pass
            if self.exited.wait(wait):
                return self.proc.returncode
        return -9

    def cleanup(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)
        try:
            os.rmdir(os.path.dirname(self.work))
        except OSError:
            pass
