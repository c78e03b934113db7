"""scripts/bench-aa: is a verdict's error rate what it says? A/A experiments on real databases.

An experiment is one `scripts/quickstart --db DB --aa` invocation from scratch: its own servers, its
own load and saved data, pairs A,B, B,A, B,A, A,B, ... of one configuration until the two-stage
rule's plan (or the budget) ends, its own report. Experiments are independent: no trial is reused by
another, and re-splitting one set of trials into A and B many ways (what this script did before) is
not an experiment: for interchangeable trials such splits come out "significant" about 5% of the
time whatever the interval's real error rate.

  scripts/bench-aa --db hbase --experiments 2 --out /work/aa-experiments   # 2 more, ~15 min each
  scripts/bench-aa --db hbase --power --out /work/aa-experiments           # a known difference
  scripts/bench-aa --out /work/aa-experiments --read                       # tally what is there
  scripts/bench-aa ... --ledger docs/benchmarks/aa-ledger.csv              # the pack's own record

Each experiment stays in OUT/<db>/<UTC time>/ (its results, report and console log) and its figures
go to a ledger, one CSV row each (aa_ledger.py; OUT/ledger.csv unless --ledger names another, the
pack's own is docs/benchmarks/aa-ledger.csv), so the figures accumulate over sessions and machines:
the raw results stay on the machine that ran them. The tally reads the ledger, after adding to it
what OUT holds that it lacks. Per database: the experiments, how many called the same configuration
different on the primary figure (a false call), that rate with its exact (Clopper-Pearson) 95%
interval, and per experiment its ratio, interval, pairs, the smallest difference it resolves, the
trials' between-trial CV and its duration. The method promises at most 5% false calls; the
acceptance asks for at most 10% with the interval quoted.

Between invocations: within one invocation the A/A verdict sees only the spread between its
trials (with warm trials, the quickstart's default, all on one server lifetime). Side A of
experiments 1 and 2, 3 and 4, ... (disjoint: independent pairs, per trial-server design) is
compared as `ycsb-report --baseline` does without --session-spread; the tally gives how often
the trials' spread alone calls two invocations different, and the spread between invocations
beyond the trials' own, the value for --session-spread.

The power check (--power): the same invocation with side B held to POWER_SHARE of the rate the
database's A/A experiments on disk reached (`--b-property target=...`): a real difference, which
must be called with the right sign (A higher) in at least 9 of 10 experiments. Those experiments
go to OUT/<db>-power/.
"""
import argparse
import csv
import json
import math
import subprocess
import time
from pathlib import Path

import numpy as np

from ..core.errors import ScriptError
from ..core.paths import command
from ..core.report_tool import write_report
from ..phases.provenance import pack
from ..runner.run_scenario import timestamp
from . import aa_ledger
from .bench_spread import spread

DATABASES = ("cassandra", "hbase")
POWER_SHARE = 0.7  # side B's -target in a power experiment, as a share of the A/A rate


def run_experiment(db: str, root: Path, target: int | None = None) -> Path:
    """One quickstart --aa invocation into root/<db>/<UTC time>/ (with `target`: side B held to
    it, into root/<db>-power/); its console log beside it."""
    out = root / (f"{db}-power" if target else db) / timestamp()
    out.parent.mkdir(parents=True, exist_ok=True)
    log = out.with_suffix(".log")
    commit = pack()["commit"]
    t0 = time.monotonic()
    cmd = [str(command("quickstart")), "--db", db, "--aa", "--out", str(out)] + (
        ["--b-property", f"target={target}"] if target else [])
    with open(log, "w") as f:
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    took = time.monotonic() - t0
    (out / "bench-aa.json").write_text(json.dumps({"seconds": round(took), "exit": p.returncode,
                                                       "commit": commit})
                                       + "\n")
    if p.returncode != 0:
        raise ScriptError(f"A/A experiment {out} failed (exit {p.returncode}): see {log}")
    print(f"{db}: experiment {out.name} done in {took:.0f} s", flush=True)
    return out


def read_experiment(out: Path) -> dict:
    """What one experiment found: its primary A/A verdict (report/verdicts.csv, written again
    when missing), the design it ran, its trials' figures and the commit that ran it; named
    as the ledger names it (database, kind, experiment: its directory's name)."""
    verdicts = out / "report" / "verdicts.csv"
    if not verdicts.exists():
        write_report(out, out / "report")
    with open(verdicts, newline="") as f:
        primary = [r for r in csv.DictReader(f) if r.get("primary") == "True"
                   and r.get("side_a", "").endswith("-A") and r.get("side_b", "").endswith("-B")]
    if len(primary) != 1:
        raise ScriptError(f"{verdicts}: expected one primary verdict of sides A and B, found "
                          f"{len(primary)}; is it a quickstart --aa result?")
    r = primary[0]
    run = json.loads((out / "scenario-run.json").read_text())
    extra = out / "bench-aa.json"
    extra = json.loads(extra.read_text()) if extra.exists() else {}
    sides = {s["side"]: s["figures"] for s in spread(out) if s["phase"] == r["phase"]}
    figures = sides.get(r["side_a"], []) + sides.get(r["side_b"], [])
    power = out.parent.name.endswith("-power")  # (where run_experiment puts a power check)
    return {"db": r["side_a"].removesuffix("-A"), "kind": "power" if power else "aa",
            "experiment": out.name, "commit": extra.get("commit"), "dir": out,
            "phase": r["phase"], "significant": r["significant"] == "True",
            "judged": judged(r),
            "ratio": _num(r["ratio"]), "low": _num(r["ratio_low"]),
            "high": _num(r["ratio_high"]), "pairs": int(_num(r["pairs"]) or 0),
            "resolves": _num(r["resolves_percent"]), "cv": _cv(figures),
            "design": _design(run.get("trials_design") or {}),
            "figures": figures, "a_figures": sides.get(r["side_a"], []),
            "b_figures": sides.get(r["side_b"], []), "source": "bench-aa",
            "trial_servers": run.get("trial_servers", "fresh"),
            "seconds": extra.get("seconds"),
            "verdict": r["verdict"]}


def judged(row: dict) -> bool:
    """A verdicts.csv row drawn from steady trials, with an interval: not "not judged" (a trial
    not steady: an interval alone may come from such trials), not one trial a side. (What an
    A/A verdict resolves is there only for A/A: a power check's side B differs, so it cannot
    tell a power verdict apart.)"""
    low = _num(row["ratio_low"])
    return low == low and not str(row["verdict"]).startswith(("not judged", "one trial"))


def _design(recorded: dict) -> str:
    """The stopping rule and the order of the pairs (A,B,B,A repeated before "order" was
    recorded)."""
    return (f"{recorded.get('rule', 'stop when narrow, floor 6')}, "
            f"{recorded.get('order', 'A,B,B,A repeated')}")


def _num(text: str) -> float:
    """A number of verdicts.csv; nan where it has none (an empty cell)."""
    return float(text) if text not in ("", None) else math.nan


def _cv(values: list) -> float:
    return float(np.std(values, ddof=1) / np.mean(values)) if len(values) > 1 else math.nan


def clopper_pearson(k: int, n: int) -> tuple:
    """The exact 95% interval of a binomial proportion k/n."""
    from scipy.stats import beta
    low = 0.0 if k == 0 else float(beta.ppf(0.025, k, n - k + 1))
    high = 1.0 if k == n else float(beta.ppf(0.975, k + 1, n - k))
    return low, high


def _raw(root: Path, db: str, kind: str) -> tuple:
    """The experiment directories of OUT for one database and kind: (those that ended well,
    those not tallied: the invocation failed (bench-aa.json's exit) or never ended (no
    bench-aa.json: still running, or cut short by hand), each with why)."""
    where = root / (f"{db}-power" if kind == "power" else db)
    ended, left = [], []
    for d in sorted(p for p in where.glob("*") if p.is_dir()):
        extra = d / "bench-aa.json"
        if not extra.exists():
            left.append((d, "never ended (running, or cut short)"))
        elif json.loads(extra.read_text()).get("exit") != 0:
            left.append((d, "failed (see its .log)"))
        elif (d / "scenario-run.json").exists():
            ended.append(d)
    return ended, left


def experiments(root: Path, ledger: Path, db: str, kind: str = "aa") -> list:
    """The ledger's experiments of one database and kind, after adding those of OUT it lacks;
    each with its raw directory ("dir") where this machine still has it, else None."""
    raw = {d.name: d for d in _raw(root, db, kind)[0]}
    held = [e for e in aa_ledger.read(ledger) if e["db"] == db and e["kind"] == kind]
    known = {e["experiment"] for e in held}
    new = [read_experiment(d) for name, d in raw.items() if name not in known]
    aa_ledger.add(ledger, new)
    return [e | {"dir": raw.get(e["experiment"])} for e in held + new]


def between_invocations(found: list) -> list:
    """Side A of experiments 1 and 2, 3 and 4, ... (disjoint pairs: independent), compared as
    `ycsb-report NEWER --baseline OLDER` does without a session spread: each pair is two
    invocations (two server lifetimes, two sessions), and a difference the trials' own spread
    calls there ("within-session only") is one between invocations that a verdict within one
    invocation cannot see. Only experiments whose raw results are on this machine take part.
    One dict per pair: both names, whether it was called, the ratio."""
    found, pairs = [e for e in found if e["judged"] and e["dir"]], []
    for older, newer in zip(found[0::2], found[1::2]):
        out = newer["dir"] / f"against-{older['dir'].name}"
        if not (out / "comparison.csv").exists():
            write_report(newer["dir"], out, baseline=older["dir"])
        with open(out / "comparison.csv", newline="") as f:
            rows = [r for r in csv.DictReader(f) if r.get("primary") == "True"
                    and r.get("database", "").endswith("-A") and r["phase"] == newer["phase"]]
        if rows:
            r = rows[0]
            pairs.append({"older": older["experiment"], "newer": newer["experiment"],
                          "called": r["within_session_only"] == "True"
                          or r["significant"] == "True", "ratio": _num(r["ratio"]),
                          "low": _num(r["ratio_low"]), "high": _num(r["ratio_high"])})
    return pairs


def session_cv(found: list) -> float:
    """The spread between invocations beyond the trials': sqrt(var of the invocations' mean
    log A figure - mean of (trial variance / trials)), from experiments with 2+ A trials; nan
    with fewer than 3 such experiments. What `ycsb-report --session-spread` takes."""
    logs = [np.log(e["a_figures"]) for e in found if len(e["a_figures"]) >= 2]
    if len(logs) < 3:
        return math.nan
    between = np.var([x.mean() for x in logs], ddof=1)
    within = np.mean([x.var(ddof=1) / len(x) for x in logs])
    return float(math.sqrt(max(0.0, between - within)))


def power_target(root: Path, ledger: Path, db: str) -> int:
    """POWER_SHARE of the mean throughput of `db`'s A/A trials run on this machine (their raw
    results in OUT): a rate from another machine would not be 70% of this one's (the same
    configuration ran 8,000-9,000 ops/s on one machine and 12,000 on another)."""
    figures = [f for e in experiments(root, ledger, db) if e["dir"] for f in e["figures"]]
    if not figures:
        raise ScriptError(f"--power needs the rate of {db}'s A/A experiments on this machine "
                          f"(none in {root / db}): run one first (--db {db} --experiments 1)")
    return int(POWER_SHARE * sum(figures) / len(figures))


def tally(root: Path, ledger: Path) -> str:
    lines = []
    for db in DATABASES:
        lines += _power_lines(experiments(root, ledger, db, "power"), db,
                              _left_lines(root, db, "power"))
        found = experiments(root, ledger, db)
        if not found:
            continue
        judged = [e for e in found if e["judged"]]
        k, n = sum(e["significant"] for e in judged), len(judged)
        rate = (f"{k / n:.0%} (95% CI {clopper_pearson(k, n)[0]:.0%} to "
                f"{clopper_pearson(k, n)[1]:.0%})" if n else "no rate yet")
        unjudged = len(found) - n
        lines.append(f"{db}: {k} false call(s) in {n} independent A/A experiment(s) with a "
                     f"verdict = {rate}" + (f"; {unjudged} more drew no verdict (a trial not "
                                            "steady): not counted" if unjudged else ""))
        lines += _between_lines(found)
        lines += _left_lines(root, db, "aa")
        for e in found:
            took = f"{e['seconds']:,} s" if e["seconds"] else "time not recorded"
            said = ("SIGNIFICANT" if e["significant"] else "no difference") if e["judged"] \
                else "NO VERDICT: " + e["verdict"][:160]
            lines.append(f"  {e['experiment']}: A/B {e['ratio']:.3f} (95% CI {e['low']:.3f} to "
                         f"{e['high']:.3f}), {e['pairs']} pairs, resolves +-{e['resolves']:.1f}%,"
                         f" CV {e['cv']:.1%} over {2 * e['pairs']} trials, {said}; {took}; "
                         f"{e['design']}, {e['trial_servers']} servers"
                         + ("" if e["source"] == "bench-aa" else f"; {e['source']}"))
    if not lines:
        raise ScriptError(f"no A/A experiment in {ledger} nor in {root} (expected "
                          f"{root}/<db>/<time>/ with a scenario-run.json): run some first, "
                          "--db DB --experiments N")
    return "\n".join(lines)


def _between_lines(found: list) -> list:
    """Per trial-server design (warm, fresh): the pairs of invocations and their spread."""
    lines, lost = [], sum(e["dir"] is None for e in found)
    if lost:
        lines.append(f"  between invocations: {lost} experiment(s) with no raw results on this "
                     "machine take no part in the pairs; the spread uses the trials' figures of "
                     "those that have them")
    for design in sorted({e["trial_servers"] for e in found}):
        same = [e for e in found if e["trial_servers"] == design]
        pairs = between_invocations(same)
        if not pairs:
            continue
        k, n = sum(p["called"] for p in pairs), len(pairs)
        low, high = clopper_pearson(k, n)
        cv = session_cv(same)
        lines.append(f"  between invocations, {design} servers (side A of experiments 1 v 2, 3 v "
                     f"4, ... as --baseline compares them): {k} of {n} called different by the "
                     f"trials' spread alone (95% CI {low:.0%} to {high:.0%}); spread between "
                     "invocations beyond the trials': "
                     + (f"{cv:.1%} (--session-spread)" if cv == cv else "needs 3 experiments"))
        lines += [f"    {p['newer']} vs {p['older']}: {p['ratio']:.3f} (95% CI {p['low']:.3f} "
                  f"to {p['high']:.3f}){', CALLED' if p['called'] else ''}" for p in pairs]
    return lines


def _left_lines(root: Path, db: str, kind: str) -> list:
    """One line per experiment directory of OUT that the tally leaves out, and why."""
    return [f"  not counted: {d.name}: its invocation {why}" for d, why in _raw(root, db, kind)[1]]


def _power_lines(found: list, db: str, left: list) -> list:
    found = [e for e in found if e["judged"]]
    if not found:
        return left
    right = sum(e["significant"] and e["ratio"] > 1 for e in found)
    low, high = clopper_pearson(right, len(found))
    lines = [f"{db} power (side B held to {POWER_SHARE:.0%} of the A/A rate): {right} of "
             f"{len(found)} experiment(s) called A higher, the right sign (95% CI {low:.0%} to "
             f"{high:.0%})"]
    lines += [f"  {e['experiment']}: A/B {e['ratio']:.3f} (95% CI {e['low']:.3f} to "
              f"{e['high']:.3f}), {e['pairs']} pairs; {e['verdict'][:120]}" for e in found]
    return lines + left


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench-aa", description=__doc__.splitlines()[0])
    ap.add_argument("--db", choices=DATABASES, help="the database of the new experiments")
    ap.add_argument("--experiments", type=int, default=1, metavar="N",
                    help="run N more experiments (default 1)")
    ap.add_argument("--out", type=Path, required=True,
                    help="where the experiments are kept (they accumulate)")
    ap.add_argument("--power", action="store_true",
                    help=f"the power check: side B held to {POWER_SHARE * 100:.0f}%% of the rate "
                         "of the database's A/A experiments in --out")
    ap.add_argument("--ledger", type=Path,
                    help="the CSV of every experiment's figures, added to after each one (default "
                         "OUT/ledger.csv; the pack's own: docs/benchmarks/aa-ledger.csv)")
    ap.add_argument("--read", action="store_true",
                    help="tally the ledger (and what --out holds) only")
    args = ap.parse_args(argv)
    root = args.out.resolve()
    ledger = (args.ledger or root / "ledger.csv").resolve()
    if not args.read:
        if not args.db:
            ap.error("give --db cassandra or --db hbase (or --read to tally)")
        if args.experiments < 1:
            ap.error(f"--experiments {args.experiments}: give 1 or more")
        print("A benchmark: run it on an otherwise idle machine (no build, test or second "
              "benchmark beside it).", flush=True)
        target = power_target(root, ledger, args.db) if args.power else None
        for _ in range(args.experiments):
            out = run_experiment(args.db, root, target)
            aa_ledger.add(ledger, [read_experiment(out)])
    print(tally(root, ledger), flush=True)
    return 0
