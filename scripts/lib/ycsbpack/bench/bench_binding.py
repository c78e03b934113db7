"""scripts/bench-binding: client CPU per operation and ops/s of a binding against a raw client loop.

A benchmark, not a test. Both legs run the same workload against the same local server: the
binding through bin/ycsb (CoreWorkload, 50/50 read/update, zipfian, 10 fields x 100 bytes, all
fields read, one field written) and the raw harness (bench-harness, org.ycsbpack.bench.RawLoop:
the same operations called directly on the same client library jars, same settings, own JVM,
same thread count). Legs run interleaved (A,B then B,A ...), each for --warmup + --measured
seconds; only the measured window counts. Client CPU is the JVM's utime + stime from
/proc/<pid>/stat, sampled during the run, over the window's operations. Figures are medians of
the per-repetition ratios binding/raw. The last line is machine-readable:
RESULT db=<db> cpu_per_op_vs_raw=<x.xx> ops_vs_raw=<x.xx>
"""
import argparse
import os
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

from ycsb_analysis.readers.line_formats import report_lines, return_counts

from ..core import java, maven
from ..core.build import ensure_built
from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT, RUNTIME_LIB, binding_release_dir
from ..databases import database
from . import bench_figures as fig
from . import bench_profile

YCSB = str(REPO_ROOT / "bin" / "ycsb")
HARNESS_JAR_DIR = REPO_ROOT / "bench-harness" / "target"
HARNESS_MAIN = "org.ycsbpack.bench.RawLoop"
TICKS = os.sysconf("SC_CLK_TCK")

# the workload of both legs (CoreWorkload's properties; RawLoop does the same operations)
WORKLOAD = {"workload": "site.ycsb.workloads.CoreWorkload", "fieldcount": "10",
            "fieldlength": "100", "readallfields": "true", "writeallfields": "false",
            "readproportion": "0.5", "updateproportion": "0.5", "scanproportion": "0",
            "insertproportion": "0", "requestdistribution": "zipfian"}

DATABASES = {
    "cassandra": {"binding": "cassandra4", "module": "cassandra4-binding",
                  "props": {"hosts": "127.0.0.1", "cassandra.keyspace": "bench_binding"},
                  "load": {"cassandra.createschema": "true"},
                  "raw": {"db": "cassandra", "host": "127.0.0.1", "port": "9042",
                          "keyspace": "bench_binding", "table": "usertable"}},
    # hbase.salt=none: the raw loop's row key is the YCSB key, as the comparison ran
    "hbase": {"binding": "hbase-salted", "module": "hbase-salted-binding",
              "props": {"hbase.zookeeper.quorum": "127.0.0.1",
                        "hbase.zookeeper.property.clientPort": "2181",
                        "table": "bench_binding", "hbase.salt": "none"},
              "load": {"hbase.createtable": "true"},
              "raw": {"db": "hbase", "host": "127.0.0.1", "port": "2181",
                      "table": "bench_binding"}},
}


def harness_jar() -> Path:
    jars = sorted(HARNESS_JAR_DIR.glob("bench-harness-*.jar"))
    sources = (REPO_ROOT / "bench-harness" / "src").rglob("*.java")
    newest = max((p.stat().st_mtime for p in sources), default=0)
    if not jars or jars[0].stat().st_mtime < newest:
        print("building bench-harness (mvn -DskipTests package -pl bench-harness)...",
              file=sys.stderr, flush=True)
        proc = subprocess.run([maven.mvn(), "-q", "-B", "-ntp", "-DskipTests", "package", "-pl",
                               "bench-harness"], cwd=REPO_ROOT, capture_output=True, text=True)
        if proc.returncode != 0:
            raise ScriptError("building bench-harness failed:\n" + proc.stdout + proc.stderr)
        jars = sorted(HARNESS_JAR_DIR.glob("bench-harness-*.jar"))
    return jars[0]


def binding_command(db: dict, threads: int, seconds: int, records: int, ycsb: str = YCSB,
                    jvm_args: str = "", extra: dict = None) -> list:
    props = dict(WORKLOAD, **db["props"], **(extra or {}), recordcount=str(records),
                 operationcount="2000000000", maxexecutiontime=str(seconds),
                 **{"status.interval": "1"})
    cmd = [ycsb, "run", db["binding"], "-s", "-threads", str(threads)]
    if jvm_args:
        cmd += ["-jvm-args", jvm_args]
    for k, v in props.items():
        cmd += ["-p", f"{k}={v}"]
    return cmd


def raw_command(db: dict, threads: int, seconds: int, records: int, jvm_args: str = "") -> list:
    """RawLoop on the binding's own release lib/ and YCSB core: the same client library jars."""
    release = binding_release_dir(db["module"], db["binding"])
    cp = [str(release / "conf"), str(release / "lib" / "*"), str(RUNTIME_LIB / "*"),
          str(harness_jar())]
    args = dict(db["raw"], threads=str(threads), seconds=str(seconds), recordcount=str(records),
                fieldcount=WORKLOAD["fieldcount"], fieldlength=WORKLOAD["fieldlength"])
    return ([java.java17(), "-Duser.language=en", "-Duser.country=US"] + jvm_args.split()
            + ["-cp", os.pathsep.join(cp), HARNESS_MAIN] + [f"{k}={v}" for k, v in args.items()])


# YCSB's own binding for the same database, from a YCSB source checkout built with
# `mvn -pl site.ycsb:core,site.ycsb:<module>-binding -am package` (module, DB class, properties)
OFFICIAL = {"hbase": ("hbase2", "site.ycsb.db.hbase2.HBaseClient2",
                      {"table": "bench_binding", "columnfamily": "cf"})}

HBASE_SITE = """<?xml version="1.0"?>
<configuration>
  <property><name>hbase.zookeeper.quorum</name><value>127.0.0.1</value></property>
  <property><name>hbase.zookeeper.property.clientPort</name><value>{port}</value></property>
</configuration>
"""


def official_command(db_name: str, checkout: Path, out_dir: Path, db: dict, threads: int,
                     seconds: int, records: int, jvm_args: str = "") -> list:
    """YCSB's official binding run by YCSB's own Client main, its module's jars and
    dependencies first on the classpath, then YCSB core's; the cluster comes from an
    hbase-site.xml written to the output directory, as YCSB's documentation has it."""
    module, db_class, props = OFFICIAL[db_name]
    conf = out_dir / "official-conf"
    conf.mkdir(exist_ok=True)
    (conf / "hbase-site.xml").write_text(HBASE_SITE.format(port=db["raw"]["port"]))
    cp = [str(conf), str(checkout / module / "target" / "*"),
          str(checkout / module / "target" / "dependency" / "*"),
          str(checkout / "core" / "target" / "*"),
          # core's own dependencies (HdrHistogram, Jackson): this project's YCSB runtime
          str(RUNTIME_LIB / "*")]
    workload = dict(WORKLOAD, **props, recordcount=str(records), operationcount="2000000000",
                    maxexecutiontime=str(seconds), **{"status.interval": "1"})
    cmd = [java.java17(), "-Duser.language=en", "-Duser.country=US"] + jvm_args.split()
    cmd += ["-cp", os.pathsep.join(cp), "site.ycsb.Client", "-db", db_class, "-t", "-s",
            "-threads", str(threads)]
    for k, v in workload.items():
        cmd += ["-p", f"{k}={v}"]
    return cmd


def run_leg(cmd: list, out_dir: Path, name: str):
    """Runs one leg, sampling the process's CPU time, and apart the JIT compiler threads'
    (the JVM starts and ends compiler threads as it needs them: each thread's last figure
    counts); (stdout, stderr, cpu samples, jit cpu samples, loads)."""
    out, err = out_dir / f"{name}.out", out_dir / f"{name}.err"
    cpu, jit, loads = [], [], []
    jit_threads = {}
    with open(out, "w") as fo, open(err, "w") as fe:
        proc = subprocess.Popen(cmd, stdout=fo, stderr=fe, cwd=REPO_ROOT)
        stat = Path(f"/proc/{proc.pid}/stat")
        while proc.poll() is None:
            try:
                now = time.time()
                total = fig.cpu_seconds(stat.read_text(), TICKS)
                for task in Path(f"/proc/{proc.pid}/task").iterdir():
                    line = (task / "stat").read_text()
                    if fig.is_jit_thread(line):
                        jit_threads[task.name] = fig.cpu_seconds(line, TICKS)
                cpu.append((now, total))
                jit.append((now, sum(jit_threads.values())))
            except (OSError, ValueError):
                pass
            loads.append(float(Path("/proc/loadavg").read_text().split()[0]))
            time.sleep(0.5)
    if proc.returncode != 0:
        tail = "\n".join(err.read_text().strip().splitlines()[-10:])
        raise ScriptError(f"{name} failed (exit {proc.returncode}), see {err}:\n{tail}")
    return out.read_text(), err.read_text(), cpu, jit, loads


def failures(stdout: str) -> int:
    """Operations that did not succeed, from YCSB's Return= lines or RawLoop's Failures line."""
    n = sum(count for by_status in return_counts(stdout).values()
            for status, count in by_status.items() if status != "OK")
    return n + sum(int(value) for metric, what, value in report_lines(stdout)
                   if (metric, what) == ("OVERALL", "Failures"))


def load(db: dict, records: int) -> None:
    # YCSB 0.17's CoreWorkload.init parses operationcount even for a load
    props = dict(WORKLOAD, **db["props"], **db["load"], recordcount=str(records),
                 operationcount=str(records))
    cmd = [YCSB, "load", db["binding"], "-s", "-threads", "4"]
    for k, v in props.items():
        cmd += ["-p", f"{k}={v}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO_ROOT)
    if proc.returncode != 0 or failures(proc.stdout):
        tail = "\n".join(proc.stderr.strip().splitlines()[-10:])
        raise ScriptError(f"loading {records} rows failed (exit {proc.returncode}):\n{tail}")


LEG_NAMES = ("binding", "raw", "baseline", "official")


def parse_variant(text: str) -> tuple:
    """--variant "NAME PROP=VALUE ...": (name, {prop: value}); a bad one is one sentence."""
    words = text.split()
    usage = ("give a name, then the binding properties of the leg, e.g. --variant "
             "\"nio hbase.rpc.eventloop=nio\"")
    if len(words) < 2:
        raise ScriptError(f"--variant {text!r}: {usage}")
    name, props = words[0], {}
    if not name.replace("-", "").replace("_", "").isalnum() or name in LEG_NAMES:
        raise ScriptError(f"--variant {text!r}: the name {name!r} must be letters, digits, - "
                          f"or _ and not one of {', '.join(LEG_NAMES)}; {usage}")
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise ScriptError(f"--variant {text!r}: {word!r} is not PROP=VALUE; {usage}")
        props[key] = value
    return name, props


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench-binding", description=__doc__.splitlines()[0])
    ap.add_argument("--db", choices=sorted(DATABASES), required=True)
    ap.add_argument("--threads", default="8", help="client threads, comma-separated (default 8)")
    ap.add_argument("--warmup", type=int, default=20, help="seconds dropped per leg (default 20)")
    ap.add_argument("--measured", type=int, default=30,
                    help="seconds measured per leg (default 30)")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions (default 3)")
    ap.add_argument("--server-warmup", type=int, default=40, metavar="SECONDS",
                    help="after the load, run the workload this long, not counted, before the "
                    "first measured leg (default 40; 0: none)")
    ap.add_argument("--records", type=int, default=20000, help="rows loaded (default 20000)")
    ap.add_argument("--baseline", metavar="DIR", help="another checkout of this project (e.g. "
                    "the code before a change, built there): its bin/ycsb runs as a third leg, "
                    "reported against the raw harness and against --baseline")
    ap.add_argument("--official", metavar="DIR", help="a YCSB source checkout with YCSB's own "
                    "binding built (hbase: hbase2): it runs as one more leg")
    ap.add_argument("--profile", action="store_true", help="after the measured legs, two more "
                    "legs of each kind (not counted) under async-profiler: CPU (ctimer, 1 ms) and "
                    "allocations, saved as <leg>-cpu.collapsed and <leg>-alloc.collapsed in the "
                    "output directory and summarized")
    ap.add_argument("--variant", action="append", default=[], metavar="\"NAME PROP=VALUE ...\"",
                    help="one more leg: this project's binding with these extra properties "
                    "(e.g. \"nio hbase.rpc.eventloop=nio\"), reported against the raw harness "
                    "and the binding leg; repeatable")
    ap.add_argument("--jvm-args", default="", help="JVM arguments for every leg alike (e.g. "
                    "\"-XX:+UseParallelGC\"), to compare JVM settings")
    ap.add_argument("--out", help="directory for each leg's output "
                    "(default results/bench-binding/<time>)")
    args = ap.parse_args(argv)
    if min(args.warmup, args.measured, args.repeat, args.records) < 1:
        raise ScriptError("--warmup, --measured, --repeat and --records must be at least 1")
    if args.server_warmup < 0:
        raise ScriptError("--server-warmup must be 0 or more seconds")
    threads = [int(t) for t in args.threads.split(",")]
    args.variants = dict(parse_variant(v) for v in args.variant)
    if len(args.variants) != len(args.variant):
        raise ScriptError("--variant: two variants have the same name; name each differently")
    db = {k: (dict(v) if isinstance(v, dict) else v) for k, v in DATABASES[args.db].items()}
    legs = ["binding", "raw"]
    if args.baseline:
        baseline_ycsb = Path(args.baseline).resolve() / "bin" / "ycsb"
        if not baseline_ycsb.is_file():
            raise ScriptError(f"--baseline {args.baseline}: no bin/ycsb there; give a checkout "
                              "of this project with its bindings built")
        legs.insert(1, "baseline")
    if args.official:
        checkout = Path(args.official).resolve()
        if args.db not in OFFICIAL:
            raise ScriptError(f"--official: only {', '.join(OFFICIAL)} is supported (YCSB's "
                              "cassandra module needs the sigar workaround to build)")
        module = OFFICIAL[args.db][0]
        if not list((checkout / module / "target").glob(f"{module}-binding-*.jar")):
            raise ScriptError(f"--official {args.official}: {module}/target has no built "
                              f"binding; build it there: mvn -DskipTests -pl "
                              f"site.ycsb:core,site.ycsb:{module}-binding -am package")
        legs.append("official")
    legs += list(args.variants)
    seconds = args.warmup + args.measured + 3
    out_dir = Path(args.out or REPO_ROOT / "results" / "bench-binding"
                   / datetime.now().strftime("%Y%m%d-%H%M%S"))
    out_dir.mkdir(parents=True, exist_ok=True)
    runs = len(threads) * args.repeat * len(legs)
    print(f"{runs} legs x ~{seconds + 5} s = about {runs * (seconds + 5) / 60:.0f} min, plus "
          f"the load; outputs in {out_dir}", flush=True)
    ensure_built()
    harness_jar()
    connection, stop = database(args.db).start_script_server()
    db["props"].update(connection)
    # the raw loop reaches HBase through the same ZooKeeper port as the binding
    db["raw"]["port"] = connection.get("hbase.zookeeper.property.clientPort", db["raw"]["port"])
    windows, loads, dropped = {}, [], set()
    try:
        print(f"loading {args.records} rows (10 fields x 100 bytes)...", flush=True)
        load(db, args.records)
        if args.server_warmup:
            # a freshly loaded server flushes and compacts, and its JIT is cold: the first
            # measured leg after the load ran at a third of the later legs' ops/s (Cassandra)
            print(f"warming the server up: {args.server_warmup} s of the workload, not counted",
                  flush=True)
            run_leg(binding_command(db, max(threads), args.server_warmup, args.records),
                    out_dir, f"{args.db}-server-warmup")
        for t in threads:
            for rep, leg in fig.leg_order(legs, args.repeat):
                cmd = leg_command(leg, args, db, t, seconds, out_dir, "")
                name = f"{args.db}-t{t}-{leg}-{rep + 1}"
                if leg in dropped:
                    continue
                try:
                    stdout, stderr, cpu, jit, leg_loads = run_leg(cmd, out_dir, name)
                    w = fig.steady_window(fig.status_points(stderr), cpu, args.warmup,
                                          args.measured, jit)
                except (ScriptError, ValueError) as e:
                    if leg != "official":
                        raise ScriptError(f"{name}: {e} (see {out_dir / name}.err)")
                    # YCSB's own binding is a comparison, not the subject: report and go on
                    print(f"  {name} FAILED, official legs dropped: {e}", flush=True)
                    dropped.add(leg)
                    continue
                bad = failures(stdout)
                windows.setdefault((t, leg), []).append(w)
                loads += leg_loads
                print(f"  t{t} rep {rep + 1} {leg:8}: {w.ops_per_s:9,.0f} ops/s  "
                      f"{w.cpu_us_per_op:6.1f} us CPU/op (JIT {w.jit_us_per_op:4.1f})  "
                      f"load {max(leg_loads):.1f}"
                      + (f"  ({bad} FAILED operations)" if bad else ""), flush=True)
        if args.profile:
            lib = bench_profile.agent_library(out_dir)
            for leg in [leg for leg in legs if leg not in dropped]:
                for event in ("cpu", "alloc"):
                    path = out_dir / f"{leg}-{event}.collapsed"
                    cmd = leg_command(leg, args, db, threads[0], seconds, out_dir,
                                      bench_profile.agent_arg(lib, event, path))
                    run_leg(cmd, out_dir, f"{args.db}-profile-{leg}-{event}")
                    print(bench_profile.summary(path), flush=True)
    finally:
        stop()
    print(report(args, threads, windows, loads))
    return 0


def leg_command(leg: str, args, db: dict, threads: int, seconds: int, out_dir: Path,
                jvm_args: str) -> list:
    # --jvm-args reach every leg alike: a JVM setting is then no difference between legs
    jvm_args = " ".join(a for a in (args.jvm_args, jvm_args) if a)
    if leg == "raw":
        return raw_command(db, threads, seconds, args.records, jvm_args)
    if leg == "official":
        return official_command(args.db, Path(args.official).resolve(), out_dir, db, threads,
                                seconds, args.records, jvm_args)
    ycsb = str(Path(args.baseline).resolve() / "bin" / "ycsb") if leg == "baseline" else YCSB
    return binding_command(db, threads, seconds, args.records, ycsb, jvm_args,
                           getattr(args, "variants", {}).get(leg))


def compare(name: str, a: list, b: list) -> str:
    """Medians of the pair ratios a/b: ops/s, CPU/op, and CPU/op without the JIT threads'."""
    no_jit = [(x.cpu_us_per_op - x.jit_us_per_op) / (y.cpu_us_per_op - y.jit_us_per_op)
              for x, y in zip(a, b)]
    return (f"{name}: ops {fig.median(fig.pair_ratios(a, b, 'ops_per_s')):.2f}, CPU/op "
            f"{fig.median(fig.pair_ratios(a, b, 'cpu_us_per_op')):.2f} (without JIT "
            f"{fig.median(no_jit):.2f})")


def report(args, threads: list, windows: dict, loads: list) -> str:
    lines = [f"\n{args.db}: medians of {args.repeat} interleaved repetitions, window "
             f"{args.warmup}-{args.warmup + args.measured} s of each leg; load average (1 min) "
             f"during the legs {min(loads):.1f}-{max(loads):.1f}, median "
             f"{fig.median(loads):.1f}",
             f"{'threads':>7} {'binding ops/s':>14} {'raw ops/s':>10} {'binding us/op':>14} "
             f"{'raw us/op':>10} {'ops vs raw':>11} {'CPU/op vs raw':>14}"]
    all_cpu, all_ops = [], []
    for t in threads:
        b, r = windows[(t, "binding")], windows[(t, "raw")]
        cpu = fig.pair_ratios(b, r, "cpu_us_per_op")
        ops = fig.pair_ratios(b, r, "ops_per_s")
        no_jit = [(x.cpu_us_per_op - x.jit_us_per_op) / (y.cpu_us_per_op - y.jit_us_per_op)
                  for x, y in zip(b, r)]
        all_cpu += cpu
        all_ops += ops
        lines.append(
            f"{t:>7} {fig.median([w.ops_per_s for w in b]):>14,.0f} "
            f"{fig.median([w.ops_per_s for w in r]):>10,.0f} "
            f"{fig.median([w.cpu_us_per_op for w in b]):>14.1f} "
            f"{fig.median([w.cpu_us_per_op for w in r]):>10.1f} "
            f"{fig.median(ops):>11.2f} {fig.median(cpu):>14.2f}   "
            f"(pair ratios CPU/op {', '.join(f'{x:.2f}' for x in cpu)}; without the JIT "
            f"threads' CPU {fig.median(no_jit):.2f})")
        for other in ["baseline", "official"] + list(getattr(args, "variants", {})):
            if len(windows.get((t, other), [])) == len(b):
                o = windows[(t, other)]
                lines.append(
                    f"{'':>7} {other}: {fig.median([w.ops_per_s for w in o]):,.0f} ops/s, "
                    f"{fig.median([w.cpu_us_per_op for w in o]):.1f} us CPU/op; "
                    + compare(f"{other} vs raw", o, r) + "; "
                    + compare(f"binding vs {other}", b, o))
    lines.append(fig.result_line(args.db, fig.median(all_cpu), fig.median(all_ops)))
    return "\n".join(lines)


if __name__ == "__main__":
    run_main(main)
