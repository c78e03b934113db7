"""scripts/bench-aa: does a verdict hold up? The A/A test (and a power check) on real databases.

Per database: N independent trials of one configuration (S4 update-heavy at local scale), each
its own `scripts/run-scenario` invocation in the same run directory (fresh servers, load, flush
and compact, warm-up, measured window: also the back-to-back check of the servers' start and
stop), interleaved with a few trials of a known difference: the same workload held to 60% of the
unthrottled rate (YCSB's `target`). Then, from the trials' figures:

  A/A, after (the pack's comparisons now): the unthrottled trials split into two halves A and B
      (1) as the runner pairs them: consecutive trials form blocks, each block gives one trial
      to A and one to B in either order, pairs compared by trials.paired_ratio; (2) every split,
      unpaired, as --baseline compares (trials.unpaired_ratio): the share of splits called
      "significant" must stay near 5% (at most 10%);
  A/A, before (one trial a side with its within-run interval, the comparison before trials
      were the unit): every pair of trials compared with uncertainty.ratio on their within-run
      estimates, as `ycsb-report --baseline` did;
  power: throttled vs unthrottled trials (Welch on the trials, as --baseline compares): called
      lower, with its interval;
  the between-trial coefficient of variation of each figure.

Prints the figures; the results stay in --out for ycsb-report. Runs in .venv's Python (the
analysis package does the statistics; scripts/test makes .venv). About 2 minutes per trial on
2 cores.
"""
import argparse
import itertools
import math
import subprocess
import sys
from pathlib import Path

from ..core.errors import ScriptError, run_main
from ..core.paths import REPO_ROOT
from ..runner.run_scenario import timestamp

FIGURES = ["throughput_ops_per_s", "average_latency_us", "p99_latency_us"]
PHASE = "update-heavy-threads-8"


def _done(root: Path, kind: str) -> list:
    """The finished trials of one kind (u: unthrottled, t: throttled), in time order."""
    return sorted(d for d in root.glob(f"{kind}-*") if (d / "scenario-run.json").exists())


def _trial(db: str, out: Path, run_dir: Path, seconds: int, target=None) -> Path:
    props = ["-p", f"maxexecutiontime={seconds}"] + (["-p", f"target={target}"] if target else [])
    cmd = [sys.executable, str(REPO_ROOT / "scripts" / "run-scenario"), "S4", "--db", db,
           "--only", "update-heavy", "--no-build", "--out", str(out), "--run-dir", str(run_dir),
           *props]
    log = out.with_suffix(".log")
    with open(log, "w") as f:
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise ScriptError(f"trial {out.name} failed (exit {p.returncode}): see {log}")
    return out


def _figures(results: list) -> list:
    """Per trial: {phase: {figure: value, <figure>_se/_df (within-run), steady, ...}} from the
    analysis package's summary (ycsb_analysis.summary), as ycsb-report computes them."""
    from ycsb_analysis.loader import load
    from ycsb_analysis.summary import runs_summary
    out = []
    for d in results:
        s = runs_summary(load([str(d)], skipped=[]))
        out.append({r["phase"]: {k: v for k, v in r.items()
                                 if isinstance(v, (int, float, bool)) and v == v}
                    for _, r in s.iterrows()})
    return out


def order(trials: int, power: int) -> list:
    """'u' (unthrottled) and 't' (throttled) trials interleaved: t after every few u."""
    seq, every = [], max(1, trials // max(1, power))
    for i in range(trials):
        seq.append("u")
        if power and (i + 1) % every == 0 and seq.count("t") < power:
            seq.append("t")
    return seq + ["t"] * (power - seq.count("t"))


def splits(n: int) -> list:
    """Every split of n trials (in time order) into two halves A, B, each once (A holds trial 0),
    as index lists; a --baseline comparison does not pair them (Welch)."""
    half = n // 2
    out = []
    for a in itertools.combinations(range(n), half):
        if 0 not in a:
            continue
        out.append((list(a), [i for i in range(n) if i not in a][:half]))
    return out


def block_splits(n: int) -> list:
    """The runner's design: trials in time order form blocks of two (0,1), (2,3), ...; each
    block gives one trial to A and one to B, in either order (A,B or B,A): every assignment,
    each once (block 0 gives A its first trial), as index lists paired by block."""
    blocks = [(i, i + 1) for i in range(0, n - 1, 2)]
    out = []
    for flips in itertools.product((0, 1), repeat=len(blocks) - 1):
        chosen = [blocks[0]] + [b[::-1] if f else b for b, f in zip(blocks[1:], flips)]
        out.append(([b[0] for b in chosen], [b[1] for b in chosen]))
    return out


def report(db: str, unthrottled: list, throttled: list, phase: str) -> None:
    from ycsb_analysis import trials, uncertainty
    u = [t[phase] for t in unthrottled if phase in t]
    print(f"\n{db} {phase}: {len(u)} unthrottled trials, {len(throttled)} at 60% of the rate")
    for f in FIGURES:
        vals = [t.get(f) for t in u if t.get(f)]
        if len(vals) < 2:
            continue
        mean = sum(vals) / len(vals)
        cv = math.sqrt(sum((v - mean) ** 2 for v in vals) / (len(vals) - 1)) / mean
        steady = sum(1 for t in u if t.get("steady"))
        print(f"  {f}: trials {', '.join(f'{v:,.0f}' for v in vals)}; between-trial CV "
              f"{cv:.1%} ({steady} of {len(u)} trials steady)")
        steady_at = [bool(t.get("steady")) for t in u if t.get(f)]
        for name, designs, compare in (
                ("paired by block, as the runner runs Cassandra vs HBase", block_splits,
                 trials.paired_ratio),
                ("unpaired (Welch), as --baseline compares", splits, trials.unpaired_ratio)):
            n = bad = judged = bad_judged = 0
            for a, b in designs(len(vals)):
                r = compare({k: vals[i] for k, i in enumerate(a)},
                            {k: vals[i] for k, i in enumerate(b)})
                n, bad = n + 1, bad + r.significant
                if all(steady_at[i] for i in a + b):
                    judged, bad_judged = judged + 1, bad_judged + r.significant
            print(f"    A/A {name}, {len(vals) // 2} a side: {bad} of {n} splits called "
                  f"different = {bad / n:.0%} (the interval alone; with every trial steady, as "
                  f"the pack judges: {bad_judged} of {judged})")
        before = bad_before = 0
        for x, y in itertools.combinations(u, 2):
            if f"{f}_se" not in x or f"{f}_se" not in y:
                continue
            r = uncertainty.ratio(*(uncertainty.Estimate(z[f], z[f"{f}_se"], z[f"{f}_df"])
                                    for z in (x, y)))
            before += 1
            bad_before += r.significant
        if before:
            print(f"    A/A before (one trial a side, within-run intervals): {bad_before} of "
                  f"{before} pairs called different = {bad_before / before:.0%}")
        t = [x[phase].get(f) for x in throttled if phase in x and x[phase].get(f)]
        if len(t) >= 2:
            r = trials.unpaired_ratio(dict(enumerate(t)), dict(enumerate(vals)))
            print(f"    power: throttled/unthrottled {r.ratio:.2f} (95% CI {r.low:.2f} to "
                  f"{r.high:.2f}): {'called different' if r.significant else 'NOT different'}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench-aa", description=__doc__.splitlines()[0])
    ap.add_argument("--db", default="cassandra,hbase", help="databases (default both)")
    ap.add_argument("--trials", type=int, default=8, help="unthrottled trials (default 8)")
    ap.add_argument("--power-trials", type=int, default=3,
                    help="trials at 60%% of the unthrottled rate (default 3)")
    ap.add_argument("--seconds", type=int, default=20, help="measured seconds (default 20)")
    ap.add_argument("--out", type=Path, help="default results/bench-aa/<UTC time>")
    ap.add_argument("--read", action="store_true",
                    help="only analyse the trials already in --out (without it, an interrupted "
                         "run goes on where it stopped)")
    args = ap.parse_args(argv)
    if args.trials < 4 or args.power_trials < 0:
        raise ScriptError("--trials must be 4 or more (two a side), --power-trials 0 or more")
    out = (args.out or REPO_ROOT / "results" / "bench-aa" / timestamp()).resolve()
    for db in [d.strip() for d in args.db.split(",")]:
        root = out / db
        root.mkdir(parents=True, exist_ok=True)
        if not args.read:
            rate = None
            for i, kind in enumerate(order(args.trials, args.power_trials)):
                if kind == "t" and rate is None:
                    rates = sorted(f[PHASE]["throughput_ops_per_s"]
                                   for f in _figures(_done(root, "u")))
                    rate = int(0.6 * rates[len(rates) // 2])
                trial = root / f"{kind}-{i + 1:02d}"
                if (trial / "scenario-run.json").exists():
                    continue  # done by an earlier, interrupted run of this script
                print(f"{db} trial {i + 1}: {'unthrottled' if kind == 'u' else f'target {rate}'}",
                      flush=True)
                _trial(db, trial, out / "run", args.seconds, rate if kind == "t" else None)
        u, t = _figures(_done(root, "u")), _figures(_done(root, "t"))
        for phase in (PHASE, "load"):
            report(db, u, t if phase != "load" else [], phase)
    return 0


if __name__ == "__main__":
    run_main(main)
