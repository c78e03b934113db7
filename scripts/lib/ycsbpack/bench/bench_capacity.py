"""scripts/bench-capacity: does the capacity a search finds hold up? On real databases.

Per database (fresh local servers, S4's load, flush and compaction): the capacity search of
S4's update-heavy phase at the objective (run-scenario --slo, local scale: an unthrottled probe,
then at most 5 steps of -target, each measured 60 s, 180 s when undecided), then two independent
runs of the same phase in the same server lifetime at 0.9 and 1.25 times the capacity found
(--slo-check), judged by the same rule as the steps. The search is right when the first keeps
the objective on intended latency and the second breaks it. Prints, per
database, the capacity, what bounded it, each check's achieved rate and outcome, and the minutes
the search and the checks took; the results and ycsb-report's report stay in --out
(capacity.csv, capacity-steps.csv, the capacity chart). About 20 minutes per database on 2
cores (the search 10-15, the checks 4-8, the server's start and the load ~1). `--read DIR`
prints the figures of an earlier run again.
"""
import argparse
import csv
import json
import subprocess
from datetime import datetime
from pathlib import Path

from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT, command
from ..runner.run_scenario import timestamp


def _run(out: Path, objective: str, databases: str, scale: str, warmup_max) -> None:
    cmd = [str(command("run-scenario")), "S4", "--db", databases,
           "--scale", scale, "--only", "update-heavy", "--slo", objective, "--slo-check",
           "--out", str(out)]
    if warmup_max:
        cmd += ["-p", f"warmup.maxtime={warmup_max:g}"]
    print("$ " + " ".join(cmd), flush=True)
    if subprocess.run(cmd).returncode != 0:
        raise ScriptError(f"the capacity search failed (its output is above; results in {out})")


def _report(out: Path) -> Path:
    report = out / "report"
    proc = subprocess.run([str(command("ycsb-report")), str(out), "-o", str(report)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise ScriptError(f"ycsb-report {out} failed: {proc.stderr.strip()[-1500:]}")
    return report


def _minutes(out: Path) -> dict:
    """{(database, "search" or "checks"): minutes from the first phase's start to the last's
    end}, read from the steps' metadata.json."""
    spans: dict = {}
    for meta in out.glob("*/metadata.json"):
        m = json.loads(meta.read_text())
        if not m.get("capacity"):
            continue
        key = (m["database"], "checks" if m["capacity"].get("check") else "search")
        start, end = (datetime.fromisoformat(m[k]) for k in ("start_time", "end_time"))
        lo, hi = spans.get(key, (start, end))
        spans[key] = (min(lo, start), max(hi, end))
    return {k: (hi - lo).total_seconds() / 60 for k, (lo, hi) in spans.items()}


def print_figures(out: Path) -> int:
    report = _report(out)
    found = report / "capacity.csv"
    if not found.exists():
        raise ScriptError(f"{out}: no capacity step in it (was it run with --slo?)")
    minutes = _minutes(out)
    print(f"\n== capacity of S4 update-heavy (results and report in {out})")
    wrong = 0
    for r in csv.DictReader(open(found)):
        checks = []
        for share, want in (("0.9", "True"), ("1.25", "False")):
            held = r.get(f"check_{share}x_held", "")
            ok = held == want
            wrong += not ok
            checks.append(f"{share} x: {'holds' if held == 'True' else 'breaks'} at "
                          f"{float(r.get(f'check_{share}x_achieved_ops_per_s') or 'nan'):,.0f} "
                          f"ops/s ({'as it should' if ok else 'WRONG'})")
        said = r.get("capacity") or f"{float(r['capacity_ops_per_s']):,.0f} ops/s"
        print(f"{r['database']}: capacity at {r['objective']} (intended) {said}, bounded by "
              f"{r['bounded_by']}, "
              f"ceiling {float(r['ceiling_ops_per_s']):,.0f} ops/s, {r['steps']} steps, "
              f"held over {float(r.get('held_over_s') or 'nan'):.0f} s"
              f"{' (confirmed by a second window)' if r.get('confirmed') == 'True' else ''}; "
              + "; ".join(checks)
              + f"; search {minutes.get((r['database'], 'search'), float('nan')):.1f} min, "
              f"checks {minutes.get((r['database'], 'checks'), float('nan')):.1f} min")
    print(f"chart: {report}/capacity-s4-update-heavy-threads-*.png")
    return 1 if wrong else 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="bench-capacity", description=__doc__.splitlines()[0])
    p.add_argument("--slo", default="p99<=20ms", help="the objective (default p99<=20ms)")
    p.add_argument("--db", default="both", choices=["cassandra", "hbase", "both"])
    p.add_argument("--scale", default="local", choices=["local", "ci"])
    p.add_argument("--out", type=Path, help="results directory (default "
                                            "results/bench-capacity/<UTC timestamp>)")
    p.add_argument("--warmup-max", type=float, metavar="SECONDS",
                   help="each step's longest warm-up (default: the scale's; S4 local: 120 s)")
    p.add_argument("--read", type=Path, metavar="DIR", help="print the figures of DIR again")
    args = p.parse_args(argv)
    if args.read:
        return print_figures(args.read)
    out = args.out or REPO_ROOT / "results" / "bench-capacity" / timestamp()
    _run(out, args.slo, args.db, args.scale, args.warmup_max)
    return print_figures(out)


if __name__ == "__main__":
    run_main(main)
