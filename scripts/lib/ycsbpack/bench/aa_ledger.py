"""The A/A ledger: one CSV row per experiment of scripts/bench-aa, kept where raw results are not.

An experiment's directory (its results, .hdr logs and report) stays on the machine that ran it,
and a session's machine does not outlive the session. The ledger holds what the tally needs of
each experiment in one row: the primary verdict (ratio, interval, pairs, what it resolves), the
trials' figures of each side, the commit, the design and the time it took. The tally (false
calls, power, spread between invocations) reads the ledger only, so it accumulates over machines
and sessions. The pack's own record is docs/benchmarks/aa-ledger.csv, the tally behind
docs/benchmarks/trials.md; rows whose raw results were lost before the ledger existed say so in
their `source` (their figures come from that page, and some lack the trials' figures).
"""
import csv
import math
from pathlib import Path

from ..core.errors import ScriptError

FIELDS = ("db", "kind", "experiment", "commit", "phase", "ratio", "low", "high", "pairs",
          "resolves", "cv", "significant", "judged", "seconds", "design", "trial_servers",
          "a_figures", "b_figures", "verdict", "source")
KINDS = ("aa", "power")


def to_row(e: dict) -> dict:
    """An experiment as bench_aa.read_experiment gives it (plus db, kind, experiment, commit,
    source) as the ledger's strings; a missing number is an empty cell."""
    def num(x, digits):
        return "" if x is None or x != x else f"{x:.{digits}f}"
    return {"db": e["db"], "kind": e["kind"], "experiment": e["experiment"],
            "commit": e.get("commit") or "", "phase": e["phase"],
            "ratio": num(e["ratio"], 4), "low": num(e["low"], 4), "high": num(e["high"], 4),
            "pairs": str(e["pairs"]), "resolves": num(e["resolves"], 2), "cv": num(e["cv"], 4),
            "significant": str(e["significant"]), "judged": str(e["judged"]),
            "seconds": "" if e.get("seconds") is None else str(e["seconds"]),
            "design": e["design"], "trial_servers": e["trial_servers"],
            "a_figures": " ".join(f"{x:.1f}" for x in e["a_figures"]),
            "b_figures": " ".join(f"{x:.1f}" for x in e["b_figures"]),
            "verdict": e["verdict"], "source": e.get("source") or "bench-aa"}


def _from_row(r: dict, where: str) -> dict:
    def num(key):
        text = r[key].strip()
        try:
            return float(text) if text else math.nan
        except ValueError:
            raise ScriptError(f"{where}: {key} {text!r} is not a number; fix or remove the "
                              "row") from None
    if r["kind"] not in KINDS or r["significant"] not in ("True", "False") \
            or r["judged"] not in ("True", "False"):
        raise ScriptError(f"{where}: kind must be one of {', '.join(KINDS)} and significant, "
                          f"judged True or False (found {r['kind']!r}, {r['significant']!r}, "
                          f"{r['judged']!r}); fix or remove the row")
    a = [float(x) for x in r["a_figures"].split()]
    b = [float(x) for x in r["b_figures"].split()]
    seconds = num("seconds")
    return {"db": r["db"], "kind": r["kind"], "experiment": r["experiment"],
            "commit": r["commit"], "phase": r["phase"], "ratio": num("ratio"),
            "low": num("low"), "high": num("high"), "pairs": int(num("pairs")),
            "resolves": num("resolves"), "cv": num("cv"),
            "significant": r["significant"] == "True", "judged": r["judged"] == "True",
            "seconds": None if seconds != seconds else int(seconds),
            "design": r["design"], "trial_servers": r["trial_servers"], "a_figures": a,
            "b_figures": b, "figures": a + b, "verdict": r["verdict"], "source": r["source"]}


def read(path: Path) -> list:
    """Every experiment of the ledger, in its order; [] when it does not exist yet. A row that
    does not parse is named by its line."""
    if not path.exists():
        return []
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = set(FIELDS) - set(reader.fieldnames or ())
        if missing:
            raise ScriptError(f"{path}: not an A/A ledger (no column {', '.join(sorted(missing))});"
                              " give another --ledger or move this file away")
        return [_from_row(r, f"{path} line {reader.line_num}") for r in reader]


def add(path: Path, experiments: list) -> int:
    """Append the experiments the ledger does not hold yet (by database, kind and name); the
    number appended."""
    held = {(e["db"], e["kind"], e["experiment"]) for e in read(path)}
    new = [e for e in experiments if (e["db"], e["kind"], e["experiment"]) not in held]
    if not new:
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = not path.exists()
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        if fresh:
            w.writeheader()
        w.writerows(to_row(e) for e in new)
    return len(new)
