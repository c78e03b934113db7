"""Profiles of scripts/bench-binding legs: async-profiler as a JVM agent, and what its collapsed
stacks say.

async-profiler (Maven Central: tools.profiler:async-profiler) ships its agent library inside the
jar; it is fetched with Maven's own client into ~/.m2 and the library unpacked next to the
results. `ctimer` samples each thread's CPU time (no perf_events needed, which a VM often
lacks) every millisecond, so a 45-s leg gives tens of thousands of samples where JFR's default
sampler gave a few hundred; `alloc` samples allocations by size.

A collapsed stack is one line: `frame;frame;...;frame count`, outermost frame first.
"""
import subprocess
import zipfile
from collections import Counter
from pathlib import Path

from ..core import maven
from ..core.errors import ScriptError

VERSION = "4.1"
ARTIFACT = f"tools.profiler:async-profiler:{VERSION}"
JAR = (Path.home() / ".m2" / "repository" / "tools" / "profiler" / "async-profiler" / VERSION
       / f"async-profiler-{VERSION}.jar")

# which layer of the client spends a sample: the innermost frame that names a layer decides
# (a sample in netty called from HBase's RPC code is netty's; one in the binding's own code
# that calls nothing named here is the binding's). Order matters where needles overlap.
LAYERS = (
    ("HBase tracing (OpenTelemetry spans)", ("io/opentelemetry/", "hbase/trace/",
                                             "client/trace/")),
    ("protobuf", ("/protobuf/",)),
    ("netty", ("/io/netty/", "io/netty/")),
    ("HBase RPC", ("org/apache/hadoop/hbase/ipc/",)),
    ("HBase client", ("org/apache/hadoop/hbase/",)),
    ("java-driver", ("com/datastax/oss/driver/",)),
    ("raw harness", ("org/ycsbpack/bench/",)),
    ("the binding", ("org/ycsbpack/",)),
    ("YCSB measurements", ("site/ycsb/measurements/", "org/HdrHistogram/",
                           "site/ycsb/DBWrapper")),
    ("YCSB status thread", ("site/ycsb/StatusThread",)),
    ("YCSB workload and client", ("site/ycsb/",)),
    ("logging", ("org/slf4j/", "org/apache/log4j/", "org/apache/logging/")),
)
# span builders and the OpenTelemetry API: whatever they call (an address's host name, a
# table name's string) is spent for tracing. TraceUtil.trace itself wraps the whole call, so
# only its own frames count as tracing (through LAYERS).
TRACING_CALLERS = ("client/trace/", "io/opentelemetry/")
# threads whose samples are the JVM's own work, by the name async-profiler puts first
JVM_THREADS = (("JIT compiler", ("CompilerThre",)), ("GC", ("GC Thread", "G1 ")))


def layer_of(frames: list) -> str:
    """The layer of one sample (see LAYERS); JVM threads by name; else 'other'."""
    if any(n in frame for frame in frames for n in TRACING_CALLERS):
        return LAYERS[0][0]
    for frame in reversed(frames):
        for name, needles in LAYERS:
            if any(n in frame for n in needles):
                return name
    thread = frames[0] if frames else ""
    for name, needles in JVM_THREADS:
        if any(n in thread for n in needles):
            return name
    return "other (JVM, kernel, JDK)"


def agent_library(into: Path) -> Path:
    """The agent's .so for this machine, unpacked from the Maven Central jar into `into`."""
    if not JAR.is_file():
        proc = subprocess.run([maven.mvn(), "-q", "-B", "-ntp", "dependency:get",
                               f"-Dartifact={ARTIFACT}"], capture_output=True, text=True)
        if proc.returncode != 0 or not JAR.is_file():
            raise ScriptError(f"--profile needs {ARTIFACT} from Maven Central and mvn could not "
                              f"fetch it:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    lib = into / "libasyncProfiler.so"
    if not lib.is_file():
        with zipfile.ZipFile(JAR) as jar:
            lib.write_bytes(jar.read("linux-x64/libasyncProfiler.so"))
    return lib


def agent_arg(lib: Path, event: str, out: Path) -> str:
    """The -agentpath for one profile: `cpu` (ctimer, 1 ms) or `alloc`, collapsed stacks with
    thread names, written to `out` when the JVM exits."""
    how = "event=ctimer,interval=1ms" if event == "cpu" else "event=alloc"
    return f"-agentpath:{lib}=start,{how},threads,collapsed,file={out}"


def read_collapsed(text: str) -> list:
    """(frames, count) of each line of a collapsed-stacks file."""
    stacks = []
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks.append((stack.split(";"), int(count)))
    return stacks


def layer_shares(stacks: list) -> dict:
    """Share of all samples (or bytes) of each layer, largest first."""
    total = sum(c for _, c in stacks) or 1
    counts = Counter()
    for frames, c in stacks:
        counts[layer_of(frames)] += c
    return {name: n / total for name, n in counts.most_common()}


def top_frames(stacks: list, n: int = 15, self_only: bool = True) -> list:
    """(frame, share) of the n frames with the most samples: on top of the stack (self), or
    anywhere in it (inclusive)."""
    total = sum(c for _, c in stacks) or 1
    counts = Counter()
    for frames, c in stacks:
        if self_only:
            counts[frames[-1]] += c
        else:
            for f in set(frames):
                counts[f] += c
    return [(f, c / total) for f, c in counts.most_common(n)]


def summary(path: Path, n: int = 15) -> str:
    """A few lines on one profile: samples, the layers, the top self frames."""
    stacks = read_collapsed(path.read_text())
    total = sum(c for _, c in stacks)
    lines = [f"{path.name}: {total:,} samples"]
    for name, share in layer_shares(stacks).items():
        lines.append(f"  {share:6.1%}  {name}")
    lines.append("  top frames (self):")
    lines += [f"  {share:6.1%}  {frame}" for frame, share in top_frames(stacks, n)]
    return "\n".join(lines)
