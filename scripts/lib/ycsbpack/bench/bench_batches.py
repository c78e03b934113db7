"""scripts/bench-batches: records/s of batched reads and writes at batch sizes 1, 10, 100, per mode.

Benchmarks, not tests: the same loaded data for every run; runs interleaved (the order rotates
each repetition) so drifts of a shared machine hit every mode alike; the first --warmup seconds
of each run dropped (JIT, caches); --repeat repetitions reported as the median with the range.
Records/s come from YCSB's status lines: batches after warm-up x batch size / seconds, and each
run's final report must show every record done (else the run is marked).
"""
import argparse
import statistics
import subprocess
import time

from ycsb_analysis.readers.line_formats import return_counts, status_line

from ..core.build import ensure_built
from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT
from ..databases import database

WORKLOAD = "org.ycsbpack.common.batch.BatchedWorkload"
YCSB = str(REPO_ROOT / "bin" / "ycsb")

# database -> connection properties (--hosts sets hosts_property), and the modes of
# batched reads and writes
DATABASES = {
    "cassandra": {
        "hosts_property": "hosts",
        "props": {"hosts": "127.0.0.1", "cassandra.keyspace": "bench_batches",
                  "cassandra.createschema": "true"},
        "read": {"in": {"cassandra.batchread": "in"},
                 "async": {"cassandra.batchread": "async"}},
        "write": {"unlogged": {"cassandra.batchwrite": "unlogged"},
                  "logged": {"cassandra.batchwrite": "logged"},
                  "async": {"cassandra.batchwrite": "async"}},
    },
    # reads: one Table.batch of Gets (the report's table.get(List<Get>)); writes: one
    # Table.batch of Puts (table.put(List<Put>)) or a BufferedMutator's mutate(List) + flush()
    "hbase": {
        "hosts_property": "hbase.zookeeper.quorum",
        "props": {"hbase.zookeeper.quorum": "127.0.0.1",
                  "hbase.zookeeper.property.clientPort": "2181", "table": "bench_batches",
                  "hbase.createtable": "true"},
        "read": {"multiget": {}},
        "write": {"batch": {"hbase.batchwrite": "batch"},
                  "mutator": {"hbase.batchwrite": "mutator"}},
    },
}



def ycsb(command: str, binding: str, props: dict, threads: int) -> subprocess.CompletedProcess:
    cmd = [YCSB, command, binding, "-s", "-threads", str(threads)]
    for k, v in props.items():
        cmd += ["-p", f"{k}={v}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO_ROOT)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-10:])
        raise ScriptError(f"bin/ycsb {command} {binding} failed (exit {proc.returncode}):\n{tail}")
    return proc


def records_per_second(stderr: str, batch: int, warmup: float) -> float:
    """Batches done after the warm-up, times the batch size, over the time they took."""
    points = [(s.elapsed_s, s.operations) for s in map(status_line, stderr.splitlines()) if s]
    after = [p for p in points if p[0] >= warmup]
    if len(after) < 2 or after[-1][0] == after[0][0]:
        raise ScriptError("the run was too short to measure after the warm-up: raise --seconds")
    (t0, n0), (t1, n1) = after[0], after[-1]
    return (n1 - n0) * batch / (t1 - t0)


def complete(stdout: str, op: str) -> bool:
    """True when every record of every batch was done (no NOT_FOUND, no failure)."""
    records = return_counts(stdout).get(f"{op}-RECORDS", {})
    return "OK" in records and not any(n for status, n in records.items() if status != "OK")


def plan(db: dict, sizes: list, kinds=("read", "write")) -> list:
    runs = []
    for kind, op in (("read", "BATCH_READ"), ("write", "BATCH_UPDATE")):
        if kind not in kinds:
            continue
        for mode, props in db[kind].items():
            for size in sizes:
                runs.append((kind, op, mode, size, props))
    return runs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench-batches", description=__doc__.splitlines()[0])
    ap.add_argument("--db", choices=sorted(DATABASES), default="cassandra")
    ap.add_argument("--sizes", default="1,10,100", help="batch sizes (default 1,10,100)")
    ap.add_argument("--seconds", type=int, default=40, help="length of each run (default 40)")
    ap.add_argument("--warmup", type=int, default=20, help="seconds dropped per run (default 20)")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions (default 3)")
    ap.add_argument("--records", type=int, default=20000, help="rows loaded (default 20000)")
    ap.add_argument("--threads", type=int, default=8, help="client threads (default 8)")
    ap.add_argument("--kinds", default="read,write",
                    help="batched reads, writes or both (default read,write)")
    ap.add_argument("--hosts", help="an existing cluster instead of a local node (Cassandra "
                    "contact points, or the HBase ZooKeeper quorum)")
    args = ap.parse_args(argv)
    if args.warmup >= args.seconds:
        raise ScriptError("--warmup must be shorter than --seconds")
    db = DATABASES[args.db]
    sizes = [int(s) for s in args.sizes.split(",")]
    kinds = args.kinds.split(",")
    if not kinds or any(k not in ("read", "write") for k in kinds):
        raise ScriptError(f"--kinds {args.kinds}: give read, write or read,write")
    runs = plan(db, sizes, kinds)
    print(f"{len(runs)} runs x {args.repeat} repetitions x {args.seconds} s = about "
          f"{len(runs) * args.repeat * args.seconds / 60:.0f} min, plus the load", flush=True)
    ensure_built()
    base = dict(db["props"], workload=WORKLOAD, recordcount=str(args.records), fieldcount="1",
                fieldlength="100", requestdistribution="uniform", **{"status.interval": "1"})
    if args.hosts:
        base[db["hosts_property"]] = args.hosts
    binding = database(args.db).binding
    stop = None
    try:
        if not args.hosts:
            connection, stop = database(args.db).start_script_server()
            base.update(connection)
        print(f"loading {args.records} rows (100-byte values) in batches of 100...", flush=True)
        ycsb("load", binding, dict(base, batchload="true", batchsize="100"), 4)
        results = {}
        for rep in range(args.repeat):
            order = runs[rep % len(runs):] + runs[:rep % len(runs)]
            for i, (kind, op, mode, size, props) in enumerate(order, 1):
                share = "batchreadproportion" if kind == "read" else "batchupdateproportion"
                p = dict(base, **props, batchsize=str(size), operationcount="2000000000",
                         maxexecutiontime=str(args.seconds), **{share: "1"})
                t0 = time.monotonic()
                proc = ycsb("run", binding, p, args.threads)
                rate = records_per_second(proc.stderr, size, args.warmup)
                mark = "" if complete(proc.stdout, op) else " (INCOMPLETE: see Return= lines)"
                results.setdefault((kind, mode, size), []).append((rate, mark))
                print(f"  rep {rep + 1}/{args.repeat} run {i}/{len(order)}: {kind} {mode} "
                      f"batch {size}: {rate:,.0f} records/s{mark} ({time.monotonic() - t0:.0f} s)",
                      flush=True)
    finally:
        if stop:
            stop()
    print_table(results, sizes, args)
    return 0


def print_table(results: dict, sizes: list, args) -> None:
    print(f"\nrecords/s, median of {args.repeat} (min-max), {args.threads} threads, "
          f"first {args.warmup} s of each {args.seconds} s run dropped")
    header = f"{'':22}" + "".join(f"{'batch ' + str(s):>26}" for s in sizes)
    print(header)
    for kind, mode in dict.fromkeys((k, m) for k, m, _ in results):
        cells = []
        for s in sizes:
            vals = [r for r, _ in results[(kind, mode, s)]]
            flag = "*" if any(m for _, m in results[(kind, mode, s)]) else ""
            cells.append(
                f"{statistics.median(vals):>10,.0f} ({min(vals):,.0f}-{max(vals):,.0f}){flag}"
            )
        print(f"{kind + ' ' + mode:22}" + "".join(f"{c:>26}" for c in cells))
    if any(m for runs in results.values() for _, m in runs):
        print("* = some run did not complete every record; see its Return= lines")


if __name__ == "__main__":
    run_main(main)
