"""What a user waits for: ``ycsb-report`` on a long run, before and after issue 32's rewrite.

    .venv/bin/python analysis/benchmarks/parse_speed.py              # main at 9d1b7d4 vs today
    .venv/bin/python analysis/benchmarks/parse_speed.py --before ../old-checkout --keep /tmp/in

Two inputs, grown from the fixtures in a temporary directory (``--keep DIR``: kept in DIR
and reused by later runs):

``raw``     a ``measurementtype=raw`` output of ``--raw-mb`` MB (1,000: about 40 million
            datapoints), the fixture's datapoints repeated with later timestamps, then its
            final report;
``status``  a phase of ``--clients`` clients (8) whose status lines cover ``--hours`` hours
            (24) at ``--interval`` s (2): READ and UPDATE with their percentiles, as the
            default ``hdrhistogram`` type prints them, and each client's final report.

Each input is given to the ``ycsb-report`` of both trees, each run in its own process, the
two trees interleaved over ``--repeat`` rounds; the figures are the median CPU time (user +
system of the process: the machine is shared, wall time says more about the neighbours than
about the code) and the peak resident memory (``os.wait4``). "Before" is the package at
9d1b7d4, the last commit before the rewrite, checked out with ``git worktree add`` into a
temporary directory and its C scanners compiled in place (``--before PATH``: another tree;
the repository root or its ``analysis`` folder). Then each input is judged against issue
32's targets: after at most twice the CPU time of before, and at most 1 GiB at its peak.
A script, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]
FIXTURES = HERE.parents[1] / "tests" / "fixtures" / "outputs"
BEFORE_COMMIT = "9d1b7d4"
MAX_CPU_RATIO = 2.0
MAX_PEAK_MIB = 1024.0

# The console script of the package on PYTHONPATH: the old tree's report_command (which
# imports the CLI its own way), or today's cli.
REPORT_CODE = """
import sys
try:
    from ycsb_analysis.report_command import main
except ImportError:
    from ycsb_analysis.cli import main
sys.exit(main(sys.argv[1:]))
"""


def raw_output(path: Path, mb: float) -> None:
    """A raw-type stdout of about ``mb`` MB: the fixture's datapoints repeated later."""
    text = (FIXTURES / "raw.out").read_text(encoding="utf-8").splitlines()
    is_raw = re.compile(r"[\w-]+,\d{10,},-?\d+").fullmatch
    raw = [ln.split(",") for ln in text if is_raw(ln)]
    head = [ln for ln in text if not is_raw(ln) and not ln.startswith("[")]
    report = [ln for ln in text if ln.startswith("[")]
    t0 = min(int(t) for _, t, _ in raw)
    span = max(int(t) for _, t, _ in raw) - t0 + 1
    per_rep = sum(len(m) + len(lat) + 16 for m, _, lat in raw)
    with path.open("w", encoding="utf-8") as f:
        f.write("\n".join(head) + "\n")
        for i in range(max(1, int(mb * 1e6 / per_rep))):
            f.write("".join(f"{m},{int(t) + i * span},{lat}\n" for m, t, lat in raw))
        f.write("\n".join(report) + "\n")


def _hdr_summary(rng: random.Random, name: str, count: int) -> str:
    lat = sorted(rng.lognormvariate(6.5, 0.6) for _ in range(8))
    return (f"[{name}: Count={count}, Max={int(lat[7] * 9)}, Min={int(lat[0] / 3)}, "
            f"Avg={lat[3]:.2f}, 90={int(lat[5])}, 99={int(lat[6] * 3)}, "
            f"99.9={int(lat[7] * 5)}, 99.99={int(lat[7] * 9)}]")


def status_phase(phase: Path, clients: int, hours: float, interval: float) -> None:
    """A results phase of ``clients`` clients with status lines every ``interval`` s."""
    phase.mkdir(parents=True, exist_ok=True)
    entries = int(hours * 3600 / interval)
    start = datetime(2026, 11, 1)
    for i in range(clients):
        rng = random.Random(i)
        ops = 0
        with (phase / f"client-{i}.err").open("w", encoding="utf-8") as f:
            f.write("Loading workload...\nStarting test.\n")
            for k in range(1, entries + 1):
                reads, updates = rng.randint(900, 1100), rng.randint(900, 1100)
                ops += reads + updates
                t = start + timedelta(seconds=k * interval, milliseconds=rng.randint(0, 30))
                f.write(f"{t:%Y-%m-%d %H:%M:%S}:{t.microsecond // 1000:03d} "
                        f"{int(k * interval)} sec: {ops} operations; "
                        f"{(reads + updates) / interval:.1f} current ops/sec; "
                        f"est completion in {entries - k} seconds "
                        f"{_hdr_summary(rng, 'READ', reads)} "
                        f"{_hdr_summary(rng, 'UPDATE', updates)}\n")
        runtime_ms = int(entries * interval * 1000)
        report = [f"[OVERALL], RunTime(ms), {runtime_ms}",
                  f"[OVERALL], Throughput(ops/sec), {ops / runtime_ms * 1000}"]
        for op in ("READ", "UPDATE"):
            report += [f"[{op}], Operations, {ops // 2}", f"[{op}], AverageLatency(us), 700.5",
                       f"[{op}], MinLatency(us), 120", f"[{op}], MaxLatency(us), 90111",
                       f"[{op}], 95thPercentileLatency(us), 1500",
                       f"[{op}], 99thPercentileLatency(us), 4100", f"[{op}], Return=OK, {ops // 2}"]
        (phase / f"client-{i}.out").write_text("\n".join(report) + "\n", encoding="utf-8")
    (phase / "metadata.json").write_text(json.dumps({
        "scenario": "bench", "phase": "run", "phase_index": 0, "database": "basic",
        "threads": 16, "clients": clients, "batchsize": 1,
    }))


def measure(tree: Path, args: list[str]) -> tuple[float, float]:
    """CPU seconds (user + system) and peak MiB of ``ycsb-report args`` with the package of
    ``tree`` (its analysis folder) first on the path."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.Popen([sys.executable, "-c", REPORT_CODE, *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) not in (0, 3):
        raise SystemExit(f"ycsb-report of {tree} failed on {args[0]}:\n{err[-2000:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def before_tree(given: str | None, work: Path) -> tuple[Path, Path | None]:
    """The analysis folder of "before", and the worktree to remove afterwards (if made)."""
    if given:
        path = Path(given).resolve()
        return (path / "analysis" if (path / "analysis").is_dir() else path), None
    tree = work / "before"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree),
                    BEFORE_COMMIT], check=True, capture_output=True)
    analysis = tree / "analysis"
    built = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                           cwd=analysis, capture_output=True)
    if built.returncode != 0:   # (without them its rows would not run its own scanners)
        print(f"note: the C scanners of {BEFORE_COMMIT} did not build: "
              f"{built.stderr.decode(errors='replace').strip()[-300:]}")
    return analysis, tree


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", help=f"the tree to compare with (default: {BEFORE_COMMIT})")
    p.add_argument("--raw-mb", type=float, default=1000.0)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--hours", type=float, default=24.0)
    p.add_argument("--interval", type=float, default=2.0)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--keep", type=Path, help="grow the inputs here and keep them")
    args = p.parse_args()
    work = Path(tempfile.mkdtemp(prefix="parse-speed-"))
    made = None
    try:
        inputs = (args.keep or work) / "inputs"
        inputs.mkdir(parents=True, exist_ok=True)
        raw = inputs / f"raw-{args.raw_mb:g}mb.out"
        status = inputs / f"status-{args.clients}x{args.hours:g}h-{args.interval:g}s"
        if not raw.exists():
            raw_output(raw, args.raw_mb)
        if not (status / "run" / "metadata.json").exists():
            status_phase(status / "run", args.clients, args.hours, args.interval)
        before, made = before_tree(args.before, work)
        trees = {"before": before, "after": HERE.parents[1]}
        kinds = {f"raw {raw.stat().st_size / 1e6:,.0f} MB": raw,
                 f"status {args.clients} clients x {args.hours:g} h / {args.interval:g} s": status}
        results: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(args.repeat):
            for kind, path in kinds.items():
                for name, tree in trees.items():
                    out = work / f"report-{name}"
                    shutil.rmtree(out, ignore_errors=True)
                    results.setdefault((kind, name), []).append(
                        measure(tree, [str(path), "-o", str(out)]))
        print(f"{'input':<34} {'tree':<7} {'CPU s':>8} {'peak MiB':>9}")
        medians = {}
        for (kind, name), runs in results.items():
            cpu = statistics.median(r[0] for r in runs)
            peak = statistics.median(r[1] for r in runs)
            medians[(kind, name)] = (cpu, peak)
            print(f"{kind:<34} {name:<7} {cpu:>8.2f} {peak:>9.0f}")
        for kind in kinds:
            (cpu_b, _), (cpu_a, peak_a) = medians[(kind, "before")], medians[(kind, "after")]
            ratio = cpu_a / cpu_b
            print(f"{kind}: after/before CPU {ratio:.2f}x <= {MAX_CPU_RATIO:g}x: "
                  f"{'met' if ratio <= MAX_CPU_RATIO else 'NOT met'}; peak {peak_a:.0f} MiB "
                  f"<= {MAX_PEAK_MIB:.0f}: {'met' if peak_a <= MAX_PEAK_MIB else 'NOT met'}")
    finally:
        if made is not None:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(made)],
                           capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
