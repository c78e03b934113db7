"""scripts/quickstart: the showcase on real local databases: Cassandra vs HBase with a verdict.

Builds what is missing, loads each database once (20,000 1 KB records, flush and compact) and
saves that data with the database's own snapshot, then runs trials of S4 update-heavy at local
scale (per trial and database: the saved tables restored under the running server, a fresh
client whose 50/50 read/update workload is warmed up until its throughput is steady, --seconds
measured; --trial-servers fresh: a fresh server on a copy of the data each), Cassandra and
HBase in pairs A,B, B,A, B,A, A,B, ...: a first stage of 4 pairs, whose spread fixes how many
pairs make the 95% interval of the Cassandra/HBase throughput ratio +-10% (--precision;
Stein's two-stage rule), or until the time budget (--budget) runs out. Then the analysis report; the
last line is the path of report.html. --with-s1 adds S1's list-append phases to every trial.
Results: results/quickstart/<UTC time>/. The full scenarios: scripts/run-scenario
(docs/scenarios.md).
"""
import argparse
import csv
import time
from pathlib import Path

from ..core.build import ensure_built
from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT
from ..core.report_tool import write_report
from .run_scenario import DATABASES, Settings, run_scenarios, terminate_on_sigterm, timestamp
from .scenario_args import TRIAL_SERVERS, b_properties
from .trials import add_trial_options, trial_rule


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="quickstart", description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=20,
                    help="length of each measured run phase (default 20)")
    ap.add_argument("--db", choices=DATABASES + ["both"], default="both",
                    help="database(s) to show (default both)")
    ap.add_argument("--with-s1", action="store_true",
                    help="add S1's list-append phases to every trial (about 2 minutes more each)")
    ap.add_argument("--aa", action="store_true",
                    help="A/A: run --db cassandra or --db hbase as both sides and report the "
                         "smallest difference this machine resolves (docs/method.md)")
    ap.add_argument("--b-property", action="append", default=[], metavar="KEY=VALUE",
                    help="with --aa: side B also gets this YCSB property (a known difference, "
                         "e.g. target=9000: the power check)")
    ap.add_argument("--trial-servers", choices=TRIAL_SERVERS, default="warm",
                    help="warm (default): the servers of the load stay up and the loaded data "
                         "is restored under them before each trial; fresh: each trial starts "
                         "fresh servers on a copy of it (docs/method.md)")
    ap.add_argument("--out", type=Path, help="results directory (default "
                                             "results/quickstart/<UTC time>)")
    # 30 minutes: room for the first stage's 4 pairs and a second stage of about as many, at
    # about 3.5 minutes a pair on a 2-core machine (a fresh server's warm-up is most of it:
    # docs/benchmarks/trials.md)
    add_trial_options(ap, precision="10%", budget=30.0)
    args = ap.parse_args(argv)
    out = (args.out or REPO_ROOT / "results" / "quickstart" / timestamp()).resolve()
    t0 = time.monotonic()
    if args.seconds < 1:
        ap.error("--seconds must be 1 or more")
    if args.repeat > 1:
        args.precision = None  # an explicit number of trials instead of the default target
    if args.aa and args.db == "both":
        ap.error("--aa compares one database with itself: give --db cassandra or --db hbase")
    if args.b_property and not args.aa:
        ap.error("--b-property changes side B of an --aa run: give --aa")
    try:
        rule = trial_rule(args)
    except ScriptError as e:
        ap.error(str(e))
    # a SIGTERM stops the servers and clients of this run, as Ctrl-C does
    terminate_on_sigterm()
    ensure_built()
    try:
        changed = b_properties(args.b_property)
    except ScriptError as e:
        ap.error(str(e))
    settings = Settings(scale="local", keep_going=True, trials=rule, aa=args.aa,
                        b_properties=changed, trial_servers=args.trial_servers,
                        user_properties={"maxexecutiontime": str(args.seconds)})
    databases = DATABASES if args.db == "both" else [args.db]
    failed = run_scenarios(["s4", "s1"] if args.with_s1 else ["s4"], databases, settings, out,
                           quick=True)
    print("== writing the report (.venv/bin/ycsb-report)", flush=True)
    report = write_report(out, out / "report")
    print(headline(out / "report"), flush=True)
    print(f"== quickstart done in {time.monotonic() - t0:.0f} s"
          + (f", {failed} step(s) FAILED (see above)" if failed else ""), flush=True)
    print(report)
    return 1 if failed else 0


def headline(report_dir: Path) -> str:
    """The primary verdict of each compared phase, one line each (verdicts.csv: one primary
    figure per phase decides; the others are secondary and stay in the report), then the
    answer table the report opens with (answer.txt)."""
    verdicts = report_dir / "verdicts.csv"
    if not verdicts.exists():
        return "== no comparison (one database shown)"
    with open(verdicts, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("primary") == "True"]
    lines = [f"== {r['scenario']} {r['phase']} {r['figure']}, {r['side_a']}/{r['side_b']} "
             f"{float(r['ratio']):.2f} (trials {r['trials']}): {r['verdict']}" for r in rows]
    table = report_dir / "answer.txt"
    if table.exists():
        lines += ["", table.read_text().rstrip()]
    return "\n".join(lines)


if __name__ == "__main__":
    run_main(main)
