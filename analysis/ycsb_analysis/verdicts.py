"""Comparisons a reviewer can accept: a ratio with its 95% interval and a verdict in words.

The unit of a comparison is the trial (trials.py): :func:`aggregate` merges the trials of a
phase (metadata "repeat") into one row. Two such rows are compared figure by figure, the
interval drawn from the spread between trials (paired by trial number within one results
directory, where the runner ran them A,B then B,A; unpaired against a baseline):

    "cassandra: throughput 12% higher than hbase (better) (95% CI +4% to +20%; 4 paired trials)"
    "no significant difference (95% CI -6% to +3%; 4 paired trials)"
    "one trial: no verdict (cassandra 9% higher in it; ...)"   a side has a single trial
    "not judged: hbase trial 2 NOT steady"                      a trial never became steady

One figure decides (``primary``); every other is "secondary": five figures judged at 95% are
five chances of a false call. In a closed loop (no -target) each side ran at its own saturation
point, so its latencies are service times there, and the mean is threads / throughput (Little's
law): it repeats the throughput verdict.

Within-run intervals (steady_state.py) stay on the figures of a single trial: they describe one
server lifetime, never a difference. Two comparisons: two sides within the same results
(:func:`between_databases`), and current vs ``--baseline`` (:func:`against_baseline`), another
session (day, machine) whose trials do not sample the spread between sessions.
"""

from __future__ import annotations

import math
import statistics

import polars as pl

from . import sides
from .model import PLAIN_FILES_SCENARIO
from .steady_state import FIGURES
from .tables import by_key, frame
from .trials import TrialRatio, mean_interval, paired_ratio, unpaired_ratio

GROUP = ["scenario", "timestamp", "phase", "database"]
# A phase is matched with its baseline on these (S2's ``load`` is not S3's ``load``; plain files
# on their label); where a side holds a phase several times, its latest run is compared.
BASELINE_KEY = ["scenario", "phase", "database"]
CAPACITY_GROUP = "capacity:"  # phase_group of a capacity search's steps (run-scenario --slo)
# figure, words, better when
COMPARED = [
    ("throughput_ops_per_s", "throughput", "higher"),
    ("records_per_s", "records/s", "higher"),
    ("average_latency_us", "mean latency", "lower"),
    ("p95_latency_us", "p95 latency", "lower"),
    ("p99_latency_us", "p99 latency", "lower"),
]
RATIO_COLUMNS = ["ratio", "ratio_low", "ratio_high", "precision", "trials"]
# the figure that decides a phase: the first of these both sides have (else the first compared)
PRIMARY = ["records_per_s", "throughput_ops_per_s"]
LATENCIES = {"average_latency_us": "mean service time", "p95_latency_us": "p95 service time",
             "p99_latency_us": "p99 service time"}
LITTLE = ("; in a closed loop mean service time is threads / throughput (Little's law): it "
          "repeats the throughput verdict")
NOT_SAMPLED = "sessions were not sampled"
GIVE_SPREAD = "give --session-spread, measured by an A/A run in each session"


def known(v) -> bool:
    """A figure that is there: not missing (None), not NaN."""
    return v is not None and v == v


def _trials(g: list[dict]) -> list[int]:
    """The runner's trial numbers (metadata "repeat"), else 1, 2, ... (plain files of a LABEL)."""
    numbers = [r.get("repeat") for r in g]
    if all(known(t) for t in numbers) and len(set(numbers)) == len(numbers):
        return [int(t) for t in numbers]
    return list(range(1, len(g) + 1))


def capacity_step(row: dict) -> bool:
    """A summary or phase row of a step of a capacity search."""
    return str(row.get("phase_group") or "").startswith(CAPACITY_GROUP)


def aggregate(summary: pl.DataFrame) -> list[dict]:
    """One row (a dict) per phase: its trials merged (mean, t-interval of the trials, median,
    count), each trial's figure kept in ``<figure>_trials`` ({trial: value}), ``trials``, and
    ``steady`` (every trial steady; ``unsteady`` names the ones that were not)."""
    return [_phase(g) for g in by_key(summary.to_dicts(), GROUP).values()]


def _phase(g: list[dict]) -> dict:
    row, n, trials = dict(g[0]), len(g), _trials(g)
    row["trials"] = n
    steady = [r.get("steady") is not False for r in g]
    row["steady"] = all(steady)
    row["unsteady"] = "; ".join((f"trial {t}: " if n > 1 else "") + str(r.get("window") or "")
                                for t, r, ok in zip(trials, g, steady) if not ok)
    row["unsteady_trials"] = [t for t, ok in zip(trials, steady) if not ok]
    for f in (f for f in FIGURES if f in row):
        values = {t: float(r[f]) for t, r in zip(trials, g) if known(r[f])}
        row[f"{f}_trials"] = values
        if n == 1:
            continue
        row[f], row[f"{f}_ci_low"], row[f"{f}_ci_high"] = mean_interval(values, first_stage(row))
        row[f"{f}_median"] = statistics.median(values.values()) if values else math.nan
    if n > 1:
        row["run"] = str(row["run"]).split(" #")[0] + f" ({n} trials)"
        row["window"] = f"{n} trials; each: {g[0]['window']}"
    return row


def closed_loop(row: dict) -> bool:
    """A phase whose clients ran without a -target (summary "target": the runner's metadata or
    a ``target`` property). Plain output files do not say: never taken for one."""
    scenario = row.get("scenario")
    if not isinstance(scenario, str) or scenario == PLAIN_FILES_SCENARIO:
        return False
    target = row.get("target")
    return not known(target) or not target


def primary_figure(a: dict, b: dict, compared: list) -> str | None:
    """The figure that decides the comparison of ``a`` and ``b``: records/s where both have it
    (a batched phase), else throughput; a comparison of neither (a capacity) its first."""
    have = [f for f, _, _ in compared if _trials_of(a, f) and _trials_of(b, f)]
    return next((f for f in PRIMARY if f in have), have[0] if have else None)


def _trials_of(row: dict, figure: str) -> dict:
    """{trial: value} of a figure of an aggregate row ({} when it has none)."""
    v = row.get(f"{figure}_trials")
    return v if isinstance(v, dict) else {}


def verdict(name_a: str, name_b: str, words: str, better: str, r: TrialRatio,
            how: str, sessions_sampled: bool = True) -> str:
    if r.ratio != r.ratio:
        return "no figure to compare"
    change = (r.ratio - 1) * 100
    if not r.known:
        return f"not judged: {words} {change:+.0f}% but no interval ({how})"
    ci = f"95% CI {(r.low - 1) * 100:+.0f}% to {(r.high - 1) * 100:+.0f}%; {how}"
    if not r.significant:
        return f"no significant difference ({ci})"
    if not sessions_sampled:
        # trials of one session each: the difference may be the sessions', not the change's
        return (f"within-session only: trials differ by {change:+.0f}% ({ci}, trials only), "
                f"but {NOT_SAMPLED}: {GIVE_SPREAD}")
    higher = r.ratio > 1
    good = higher == (better == "higher")
    return (f"{name_a}: {words} {abs(change):.0f}% {'higher' if higher else 'lower'} than "
            f"{name_b}{' (better)' if good else ' (worse)'} ({ci})")


def first_stage(row: dict) -> int | None:
    """The first stage of a two-stage run (metadata "trials_design"), else None."""
    n0 = row.get("first_stage")
    return int(n0) if known(n0) else None


def _trial_ratio(a: dict, b: dict, paired: bool, session_cv: float | None = None,
                 stage: int | None = None) -> tuple[TrialRatio, str]:
    if paired:
        r = paired_ratio(a, b, stage)
        if r.pairs >= 2:
            two = (f", the spread of the first {stage} (two-stage)"
                   if stage and stage < r.pairs else "")
            return r, f"{r.pairs} paired trials{two}"
    r = unpaired_ratio(a, b, session_cv)
    spread = (f"; between-session spread {session_cv * 100:g}% included"
              if session_cv is not None else "")
    return r, f"{r.trials_a} vs {r.trials_b} trials, unpaired{spread}"


def _listed(values: dict) -> str:
    """Each trial's figure, for a reviewer to recompute the interval: "1: 9,870; 2: 10,120"."""
    return "; ".join(f"{k}: {v:,.6g}" for k, v in sorted(values.items()))


def compare(a: dict, b: dict, name_a: str, name_b: str, key: dict,
            paired: bool, compared: list = COMPARED, aa: bool = False,
            session_cv: float | None = None, sessions_sampled: bool = True) -> list[dict]:
    """One row per figure of ``compared`` both rows have: a / b from their trials (paired by
    trial number, or unpaired, then with ``session_cv`` the between-session spread), its
    interval, the verdict in words and whether the figure is the phase's ``primary``; ``key``
    starts each. ``aa``: the two sides are one database (sides.py); ``sessions_sampled``: False
    for trials of two sessions whose spread between sessions is unknown."""
    rows = []
    unsteady = [f"{n} {r['unsteady']}" for n, r in ((name_a, a), (name_b, b))
                if not r.get("steady", True)]
    primary = primary_figure(a, b, compared)
    closed = closed_loop(a) and closed_loop(b)
    # a two-stage run's interval uses its first stage's spread: both sides ran that design
    stage = first_stage(a) if first_stage(a) == first_stage(b) else None
    for figure, label, better in compared:
        va, vb = _trials_of(a, figure), _trials_of(b, figure)
        if not va or not vb:
            continue
        # in a closed loop each side ran as fast as it could: its latency is its service time
        # there (the words only: the figure column keeps its name for the readers of the CSV)
        words = LATENCIES[figure] if closed and figure in LATENCIES else label
        r, how = _trial_ratio(va, vb, paired, session_cv, stage)
        if "warm" in (a.get("trial_servers"), b.get("trial_servers")):
            # the spread is that of trials within one server lifetime a side: a lifetime's own
            # offset is not in it (A/A across invocations measures it: docs/method.md)
            how += ", on one server lifetime a side (warm trials)"
        single = [n for n, v in ((name_a, va), (name_b, vb)) if len(v) < 2]
        if unsteady:
            # a figure that averages a climb says nothing about either database
            text = f"not judged: {' and '.join(unsteady)}"
        elif single:
            change = (r.ratio - 1) * 100
            text = (f"one trial: no verdict ({name_a} {abs(change):.0f}% "
                    f"{'higher' if change >= 0 else 'lower'} in it; one trial of "
                    f"{' and '.join(single)}: an interval within one run describes one server "
                    "lifetime, not a difference; run more trials: --repeat or --precision)")
            r = TrialRatio(r.ratio, trials_a=r.trials_a, trials_b=r.trials_b)
        elif aa:
            text = sides.aa_words(r, name_a, name_b, how)
        else:
            text = verdict(name_a, name_b, words, better, r, how, sessions_sampled)
        judged = not unsteady and not single
        if not sessions_sampled and not text.startswith("within-session only"):
            text += (f"; the interval covers trials only: {NOT_SAMPLED} ({GIVE_SPREAD})"
                     if r.known else f"; {NOT_SAMPLED} either ({GIVE_SPREAD})")
        if figure != primary:  # named, unless the sentence starts with the figure already
            named = text.startswith((f"{name_a}: {words} ", f"not judged: {words} "))
            text = "secondary: " + (text if named else f"{words}: {text}")
        if closed and figure == "average_latency_us":
            text += LITTLE
        resolves, power80 = sides.resolution(r) if aa and judged else (math.nan, math.nan)
        rows.append(key | {
            "figure": label, "primary": figure == primary, "side_a": name_a, "side_b": name_b,
            name_b: b.get(figure, math.nan), name_a: a.get(figure, math.nan),
            "ratio": r.ratio, "ratio_low": r.low, "ratio_high": r.high, "precision": r.precision,
            "trials": f"{len(va)}/{len(vb)}", f"{name_a}_trials": _listed(va),
            f"{name_b}_trials": _listed(vb), "pairs": r.pairs, "sd_log": r.sd_log,
            "significant": bool(r.significant) and judged and sessions_sampled,
            "within_session_only": bool(r.significant) and judged and not sessions_sampled,
            "aa": aa, "resolves_percent": resolves * 100, "detectable_80_percent": power80 * 100,
            "better_when": better, "verdict": text,
        })
    return rows


def between_databases(agg: list[dict], a: str | None = None,
                      b: str | None = None) -> pl.DataFrame:
    """The two sides of every phase both ran in the same results (scenario, timestamp), trials
    paired by number (the runner ran them in blocks A,B then B,A): Cassandra vs HBase, or the
    sides of an A/A test ("cassandra-A" vs "cassandra-B"), whichever are there (sides.py orders
    them; ``a`` and ``b`` choose instead). The value and trials columns are named after the
    sides; ``side_a``/``side_b`` say which they are."""
    known = sides.known_sides(agg)
    phases = ["scenario", "timestamp", "phase"]
    found: list[tuple[str, str]] = [(a, b)] if a and b else []
    if not found:  # (capacity steps too: their verdicts join these columns)
        for g in by_key(agg, phases).values():
            found += [p for p in sides.pairs([r["database"] for r in g], known) if p not in found]
    # a capacity search's steps ran at each database's own targets: their figures are not
    # comparable; the searches' capacities are (capacity.capacity_verdicts)
    agg = [r for r in agg if not capacity_step(r)]
    cols = [*phases, "figure", "primary", "side_a", "side_b",
            *dict.fromkeys(name for x, y in found for name in (y, x)), *RATIO_COLUMNS,
            *dict.fromkeys(f"{name}_trials" for p in found for name in p),
            "pairs", "sd_log", "significant", "aa", "resolves_percent", "detectable_80_percent",
            "verdict"]
    rows = []
    for key, g in by_key(agg, phases).items():
        by_db = {r["database"]: r for r in g}
        for x, y in found:
            if x in by_db and y in by_db:
                rows += compare(by_db[x], by_db[y], x, y, dict(zip(phases, key)),
                                paired=True, aa=sides.is_aa(x, y, known))
    return frame(rows, cols)


def _latest(phases: list[dict]) -> list[dict]:
    """Each phase's latest run (by timestamp)."""
    ordered = sorted(phases, key=lambda r: (r["timestamp"] is None, str(r["timestamp"])))
    last = {tuple(r[k] for k in BASELINE_KEY): i for i, r in enumerate(ordered)}
    return [r for i, r in enumerate(ordered) if last[tuple(r[k] for k in BASELINE_KEY)] == i]


def against_baseline(current: list[dict], baseline: list[dict],
                     session_spread: float | None = None) -> pl.DataFrame:
    """Current vs baseline per phase (matched on BASELINE_KEY; the latest timestamp of each
    side): the ratio current/baseline with its interval (unpaired trials: they were not run in
    alternating blocks) and verdict. ``session_spread`` is the between-session CV the user
    measured (0.2 for 20%; an A/A run in each session): the interval includes it (trials.py).
    Without it the interval covers the trials only, and a difference it finds is
    ``within_session_only``, not ``significant``: it may be the sessions'."""
    cols = BASELINE_KEY + ["figure", "primary", "baseline", "current", "change_percent",
                           *RATIO_COLUMNS, "current_trials", "baseline_trials", "pairs",
                           "sd_log", "session_spread_percent", "significant",
                           "within_session_only", "better_when", "verdict"]
    sampled = session_spread is not None
    base = {tuple(r[k] for k in BASELINE_KEY): r for r in _latest(baseline)}
    rows = []
    for c in _latest(current):
        key = {k: c[k] for k in BASELINE_KEY}
        if (b := base.get(tuple(key.values()))) is not None:
            for r in compare(c, b, "current", "baseline", key, paired=False,
                             session_cv=session_spread, sessions_sampled=sampled):
                rows.append(r | {"change_percent": (r["ratio"] - 1) * 100,
                                 "session_spread_percent": session_spread * 100 if sampled
                                 else math.nan})
    return frame(rows, cols)


def unmatched_phases(current: pl.DataFrame, baseline: pl.DataFrame) -> list[str]:
    """One sentence per phase found on one side only (and one saying so when no phase matches
    at all): the summaries of the results and of the baseline."""

    def keys(summary: pl.DataFrame) -> set[tuple]:
        return set() if summary.is_empty() else set(
            summary.select(pl.col(BASELINE_KEY).cast(pl.String)).iter_rows())

    cur, base = keys(current), keys(baseline)
    notes = []
    if not cur & base:
        notes.append(
            f"no phase of the baseline ({len(base)} phase(s)) matches a phase of these results "
            f"({len(cur)}) on scenario, phase and database: the comparison is empty"
        )
    notes += [f"phase {'/'.join(k)} is not in the baseline: not compared"
              for k in sorted(cur - base)]
    notes += [f"baseline phase {'/'.join(k)} is not in these results: not compared"
              for k in sorted(base - cur)]
    return notes
