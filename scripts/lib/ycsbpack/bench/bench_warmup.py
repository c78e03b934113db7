"""scripts/bench-warmup: does the quickstart's S4 figure match what the database sustains?

Per database and mode, on a freshly started local server (as the quickstart has):
  1. the quickstart's S4 selection (load 20,000 records, update-heavy with 8 threads for
     --seconds), with the warm-up (mode `warm`, today's quickstart) or without (`cold`, the
     quickstart before warm-ups existed), through the same runner;
  2. then, on the same loaded data, a plain `bin/ycsb run` of the same workload for --reference
     seconds (default 180); its rate over the last 60 s is what the server sustains.
Prints the quickstart's figure as its report headlines it (ycsb-report's summary: before the
warm-up existed that was YCSB's [OVERALL] Throughput of the whole phase, shown for both modes;
now it is the steady window after the warm-up), the reference rate and their ratio; the
acceptance band is 0.8-1.25.
Benchmarks, not tests: run it under the server lock on an otherwise idle machine.
"""

import argparse
import csv
import json
import statistics
import subprocess
import time
from pathlib import Path

from ycsb_analysis.readers.line_formats import report_value, status_line

from ..core.build import ensure_built
from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT, run_dir
from ..core.report_tool import write_report
from ..databases import database
from ..phases.phase_runner import YCSB
from ..runner.run_scenario import Settings, local_server, run_scenarios, timestamp
from ..scenarios.scenario_plan import Context
from ..servers.local_servers import ServerSet

BAND = (0.8, 1.25)


def reference_rate(stderr: str, last_s: float, total_s: float) -> float:
    """Mean of the status lines' current ops/sec over the last `last_s` seconds of the run."""
    points = [(s.elapsed_s, s.current_ops_per_s) for s in map(status_line, stderr.splitlines())
              if s and s.current_ops_per_s is not None]
    # the final entry repeats; entries past total_s are the shutdown
    keep = sorted({s: r for s, r in points if total_s - last_s < s <= total_s}.items())
    if len(keep) < 3:
        raise ScriptError(
            f"the reference run printed {len(keep)} status lines in its last "
            f"{last_s:.0f} s; see its output"
        )
    return statistics.mean(r for _, r in keep)


def one(db: str, warm: bool, seconds: int, reference_s: int, out: Path) -> dict:
    settings = Settings(
        scale="local",
        run_root=run_dir("bench-warmup"),
        warmup=warm,
        user_properties={"maxexecutiontime": str(seconds)},
    )
    server = local_server(db, 1, settings)
    servers = ServerSet()
    try:
        servers.start(server)  # the runner below uses it and leaves it running
        t0 = time.monotonic()
        failed = run_scenarios(["s4"], [db], settings, out, quick=True)
        took = time.monotonic() - t0
        if failed:
            raise ScriptError(f"the quickstart's S4 phases failed on {db}; see above")
        phase = out / f"{db}-update-heavy-threads-8"
        overall = report_value((phase / "client-0.out").read_text(), "OVERALL",
                               "Throughput(ops/sec)")
        meta = json.loads((phase / "metadata.json").read_text())
        write_report(out, out / "report")
        with open(out / "report" / "summary.csv") as f:
            row = next(r for r in csv.DictReader(f) if r["phase"] == phase.name[len(db) + 1 :])
        quick = float(row["throughput_ops_per_s"])
        target = database(db, server)
        ctx = Context("s4", target, "local", connection=target.connection())
        files = ctx.files(["update-heavy"])
        cmd = [str(YCSB), "run", ctx.binding] + [a for f in files for a in ("-P", f)]
        for k, v in ctx.connection.items():
            cmd += ["-p", f"{k}={v}"]
        cmd += [
            "-p",
            f"maxexecutiontime={reference_s}",
            "-p",
            "status.interval=5",
            "-s",
            "-threads",
            "8",
        ]
        print(f"== reference: bin/ycsb run for {reference_s} s on the same data", flush=True)
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO_ROOT)
        (out / f"{db}-reference.err").write_text(proc.stderr)
        (out / f"{db}-reference.out").write_text(proc.stdout)
        if proc.returncode != 0:
            raise ScriptError(
                f"the reference run failed (exit {proc.returncode}): {proc.stderr[-1500:]}"
            )
        ref = reference_rate(proc.stderr, 60, reference_s)
    finally:
        servers.stop_started()
    w = meta.get("warmup", {})
    return {
        "database": db,
        "mode": "warm" if warm else "cold",
        "quickstart_ops_per_s": quick,
        "quickstart_ci": [row["throughput_ops_per_s_ci_low"], row["throughput_ops_per_s_ci_high"]],
        "ycsb_overall_ops_per_s": overall,
        "ratio_ycsb_overall": round(overall / ref, 3),
        "window": row["window"],
        "reference_last_60s_ops_per_s": round(ref, 1),
        "ratio": round(quick / ref, 3),
        "within_band": BAND[0] <= quick / ref <= BAND[1],
        "warmup_s": w.get("end_s"),
        "warmup_stable": w.get("stable"),
        "s4_seconds_incl_load": round(took, 1),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench-warmup", description=__doc__.splitlines()[0])
    ap.add_argument("--db", choices=["cassandra", "hbase", "both"], default="both")
    ap.add_argument(
        "--modes",
        default="cold,warm",
        help="cold (no warm-up, the old quickstart), warm (today's), or both",
    )
    ap.add_argument("--seconds", type=int, default=30, help="measured phase (quickstart: 30)")
    ap.add_argument("--reference", type=int, default=180, help="reference run length (s)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    modes = [m.strip() for m in args.modes.split(",")]
    if not set(modes) <= {"cold", "warm"}:
        raise ScriptError(f"--modes {args.modes}: give cold, warm or cold,warm")
    out = (args.out or REPO_ROOT / "results" / "bench-warmup" / timestamp()).resolve()
    ensure_built()
    dbs = ["cassandra", "hbase"] if args.db == "both" else [args.db]
    rows = []
    for db in dbs:
        for mode in modes:
            rows.append(one(db, mode == "warm", args.seconds, args.reference, out / f"{db}-{mode}"))
            print(json.dumps(rows[-1]), flush=True)
    (out / "bench-warmup.json").write_text(json.dumps(rows, indent=2) + "\n")
    print(
        f"\n{'database':10} {'mode':5} {'YCSB overall':>12} {'report':>8} {'reference':>10} "
        f"{'ratio':>6}  in {BAND[0]}-{BAND[1]}  warm-up"
    )
    for r in rows:
        print(
            f"{r['database']:10} {r['mode']:5} {r['ycsb_overall_ops_per_s']:12,.0f} "
            f"{r['quickstart_ops_per_s']:8,.0f} "
            f"{r['reference_last_60s_ops_per_s']:10,.0f} {r['ratio']:6.2f}  "
            f"{'yes' if r['within_band'] else 'NO':>9}  "
            f"{'-' if r['warmup_s'] is None else str(r['warmup_s']) + ' s'}"
            + ("" if r["warmup_s"] is None
               else " steady" if r["warmup_stable"] else " not steady")
        )
    print(f"figures: {out / 'bench-warmup.json'}")
    return 0 if all(r["within_band"] for r in rows if r["mode"] == "warm") else 1


if __name__ == "__main__":
    run_main(main)
