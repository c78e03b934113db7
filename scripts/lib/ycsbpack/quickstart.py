"""scripts/quickstart: the showcase, on real local databases, in a few minutes.

Builds what is missing, then per database (Cassandra, then HBase): starts a local server,
runs S4 update-heavy (load, then 50/50 read/update: warmed up until steady, at most 90 s, then
measured for --seconds) and S1 list-append (single-thread appends and reads, 10+10-thread
batches, warmed up at most 30 s) at local scale, and stops the server. --repeat N runs it all N
times (Cassandra, HBase, HBase, Cassandra, ...), for intervals across repeats. Then the
analysis report of those results; the last line is the path of report.html. Results:
results/quickstart/<UTC time>/. The full scenarios: scripts/run-scenario (docs/scenarios.md).
"""
import argparse
import time
from pathlib import Path

from .build import ensure_built
from .errors import run_main
from .paths import REPO_ROOT
from .report_tool import write_report
from .run_scenario import DATABASES, Settings, run_scenarios, timestamp


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="quickstart", description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=30,
                    help="length of each measured run phase (default 30)")
    ap.add_argument("--db", choices=DATABASES + ["both"], default="both",
                    help="database(s) to show (default both)")
    ap.add_argument("--out", type=Path, help="results directory (default "
                                             "results/quickstart/<UTC time>)")
    ap.add_argument("--repeat", type=int, default=1, metavar="N",
                    help="run everything N times, databases in the order A,B,B,A (default 1: "
                         "intervals within each run; each repeat adds about 3 minutes)")
    args = ap.parse_args(argv)
    out = (args.out or REPO_ROOT / "results" / "quickstart" / timestamp()).resolve()
    t0 = time.monotonic()
    ensure_built()
    if args.repeat < 1 or args.seconds < 1:
        ap.error("--repeat and --seconds must be 1 or more")
    settings = Settings(scale="local", keep_going=True, repeat=args.repeat,
                        user_properties={"maxexecutiontime": str(args.seconds)})
    databases = DATABASES if args.db == "both" else [args.db]
    failed = run_scenarios(["s4", "s1"], databases, settings, out, quick=True)
    print("== writing the report (.venv/bin/ycsb-report)", flush=True)
    report = write_report(out, out / "report")
    print(f"== quickstart done in {time.monotonic() - t0:.0f} s"
          + (f", {failed} step(s) FAILED (see above)" if failed else ""), flush=True)
    print(report)
    return 1 if failed else 0


if __name__ == "__main__":
    run_main(main)
