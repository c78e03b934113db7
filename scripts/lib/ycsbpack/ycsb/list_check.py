"""scripts/check-list-appends: nothing lost in a list-append run.

Sums the successful appends that YCSB reported (`[APPEND], Return=OK, n` and
`[BATCH_APPEND-RECORDS], Return=OK, n`) in the given outputs, asks the database how many list
elements it stores (ListAppendWorkload with listappend.count=true, through bin/ycsb and the same
connection properties), and fails when the two differ. Meaningful on a table that was empty
before the run and whose TTL has not expired.
"""
import subprocess
import sys
from pathlib import Path

from ycsb_analysis.readers.line_formats import report_value, return_counts

from ..core.bindings import PROJECT_BINDINGS
from ..core.errors import ArgParser, ScriptError, run_main
from ..core.paths import REPO_ROOT

WORKLOAD = "org.ycsbpack.common.listappend.ListAppendWorkload"
LIST_BINDINGS = [b.name for b in PROJECT_BINDINGS]


def appended(outputs: list) -> int:
    total = 0
    for out in outputs:
        if not Path(out).is_file():
            raise ScriptError(f"{out}: no such file; give the YCSB stdout files of the run "
                              "(client-*.out in its results directory)")
        text = Path(out).read_text(errors="replace")
        if "[OVERALL]" not in text:
            raise ScriptError(f"{out} holds no YCSB final report")
        counts = return_counts(text)
        total += sum(counts.get(op, {}).get("OK", 0) for op in ("APPEND", "BATCH_APPEND-RECORDS"))
    return total


def stored(binding: str, ycsb_args: list) -> int:
    cmd = [str(REPO_ROOT / "bin" / "ycsb"), "run", binding, "-p", f"workload={WORKLOAD}",
           "-p", "listappend.count=true", "-p", "operationcount=1", "-threads", "1"] + ycsb_args
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO_ROOT)
    n = report_value(proc.stdout, "LIST_ELEMENTS", "Stored")  # the workload's own report line
    if proc.returncode != 0 or n is None:
        tail = "\n".join(proc.stderr.strip().splitlines()[-10:])
        raise ScriptError(f"counting the stored list elements failed (bin/ycsb exit "
                          f"{proc.returncode}):\n{tail}")
    return int(n)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    ap = ArgParser(
        prog="check-list-appends", description=__doc__.splitlines()[0],
        epilog="bin/ycsb arguments for the connection follow a --, e.g. "
               "-- -P workloads/db/cassandra.properties -p listappend.table=history")
    ap.add_argument("binding", help="cassandra4, hbase-salted or jdbc")
    ap.add_argument("outputs", nargs="+", help="YCSB stdout files (client-*.out) of the run")
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    if args.binding not in LIST_BINDINGS:
        raise ScriptError(f"unknown binding '{args.binding}': give "
                          f"{' or '.join(LIST_BINDINGS)}")
    want = appended(args.outputs)
    have = stored(args.binding, extra)
    print(f"successful appends reported: {want}; list elements stored: {have}")
    if want != have:
        print(
            f"ERROR {abs(want - have)} element(s) "
            f"{'missing' if have < want else 'more than reported'}",
            file=sys.stderr,
        )
        return 1
    print("OK: every acknowledged append is stored")
    return 0


if __name__ == "__main__":
    run_main(main)
