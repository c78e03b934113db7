"""Capacity under a latency objective: the steps of a search (``run-scenario --slo``) judged,
each search's capacity, and the capacities compared across trials and databases.

A step is a phase whose metadata.json has ``capacity`` (scripts/lib/ycsbpack/runner/capacity.py:
the phase searched, step 0 for the unthrottled probe, the objective, the keep-up share) and
``target`` (ops/s; none for the probe). Over its measured window (steady_state.window) it has an
achieved rate and, per operation, service-time and intended percentiles from the clients' .hdr
logs (``<OP>`` and ``Intended-<OP>``, YCSB's measurement.interval=both). It HOLDS when the
objective's percentile of intended latency is within the bound for the operation named (every
operation when none is) and the achieved rate is at least keep-up x target. Where intended
latency exceeds service time by more than FELL_BEHIND_MARGIN the client fell behind its
schedule: its service times hide the queueing (coordinated omission); believe the intended.
A step that failed although the server's own latency (service time) kept the objective, while
the client's threads were busy more than CLIENT_LIMITED of the window (Little's law: operations
in flight on average over threads), failed for the client: an operation often found its own
thread still busy with the one before and waited. It is client-limited, said so, and a capacity
it bounds is bounded by "client threads" (the runner sizes each step's threads for its target
to keep them at most 25% busy: scripts/lib/ycsbpack/runner/capacity.py). Busy threads alone
say nothing: a server that slows down fills them too, and then its service time breaks the
objective as well.

A search's capacity is the highest target at which every step held (the runner runs the rate
found again to confirm it); the unthrottled probe only gives the ceiling (without a schedule
its intended latency is its service time). Where no step held on latency, the objective lies
below the latency floor (the lowest of the paced steps' objective figures), and the search says
so with that floor instead of "0 ops/s". Trials give the capacity an interval and two databases
a ratio, as every comparison of the pack (verdicts.compare: trials paired A,B then B,A).

``judge_step_dir(STEP_DIR)`` judges one step: what the runner reads to choose its next rate.
"""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from . import sides
from .errors import UnreadableInput
from .loader import load_phase_dir
from .model import Run, is_workload_operation, run_label
from .readers.final_report import split_metric
from .steady_state import (
    _in,
    interval_throughput,
    values,
    window,
    window_busy,
    window_percentiles,
)
from .tables import by_key, frame
from .trials import mean_interval
from .uncertainty import within_run
from .verdicts import compare, known

# the client fell behind when intended latency is above service time by more than this share
# and this many microseconds (a paced client's scheduling jitter alone adds about a millisecond
# on a busy 2-core machine)
FELL_BEHIND_MARGIN, FELL_BEHIND_MIN_US = 0.25, 1000.0
# a step whose client threads were busy more than this share of its window was client-limited
# (module docstring): 8 threads busy half the time make about 6% of operations wait for one
# (Erlang C), more than a p99 objective's 1% tail
CLIENT_LIMITED = 0.5
RESOLUTION = 0.10  # a capacity within this share of the ceiling is bounded by the ceiling
INTENDED = "Intended-"
BELOW_FLOOR = "the objective lies below the latency floor at every rate tried"


def capacity_words(found: float, floor_us: float, bound_us: float, key: str) -> str:
    """A search's capacity in words: "9,200 ops/s", or why there is none (``floor_us``: the
    lowest intended figure of its paced steps, the deciding operation's)."""
    if found > 0:
        return f"{found:,.0f} ops/s"
    if floor_us > bound_us:
        return f"none: {BELOW_FLOOR} (floor: {key} {floor_us / 1000:,.1f} ms, intended)"
    return ("none: no step held, though its latency kept the objective at some rate tried (the "
            "client fell short of the target: capacity-steps.csv says why)"
            if floor_us == floor_us else "none: no paced step was measured")


def objective_key(objective: dict) -> str:
    return f"p{float(objective['percentile']):g}"


def _operations(run: Run, named: str) -> list[str]:
    """The one named, or every measured one (.hdr logs and final reports: never left out)."""
    if named:
        return [named]
    metrics = set()
    for c in run.clients:
        report = c.output.report
        metrics |= set(c.hdr_logs)
        metrics |= set(report.filter(pl.col("measurement") == "Operations")["metric"])
    names = {m: split_metric(m) for m in metrics}
    return sorted(m for m, n in names.items()
                  if not n.intended and not n.failed and is_workload_operation(n.operation))


def judge(run: Run) -> dict:
    """One step: its figures over the measured window and whether it held (module docstring)."""
    cap = run.metadata["capacity"]
    objective, target = cap["objective"], run.metadata.get("target")
    key = objective_key(objective)
    series = interval_throughput(run)
    start, end, _, how, steady = window(run, series, None)
    thr = _in(series, start, end)
    achieved = within_run(values(thr["ops_per_s"])) if thr.height else None
    levels = tuple(sorted({50.0, 99.0, float(objective["percentile"])}))
    ops, why, fell_behind = {}, [], []
    for op in _operations(run, objective.get("operation", "")):
        service = window_percentiles(run, op, start, end, levels)
        intended = window_percentiles(run, INTENDED + op, start, end, levels)
        if key not in intended:
            why.append(f"no intended latency of {op} in the window (its Intended-{op} .hdr log "
                       "is missing or unreadable (the report's skipped inputs say which): was "
                       "measurement.interval=both set?)")
            continue
        ops[op] = {kind: {n: {"us": e.value, "low": e.low, "high": e.high} for n, e in est.items()}
                   for kind, est in (("service", service), ("intended", intended))}
        worst = intended[key].value
        if not worst <= objective["bound_us"]:
            why.append(f"{op} intended {key} {worst / 1000:,.1f} ms > {objective['text']}")
        served = service.get(key)
        if served is not None and worst > max(served.value * (1 + FELL_BEHIND_MARGIN),
                                              served.value + FELL_BEHIND_MIN_US):
            fell_behind.append(op)
    rate, low, high = (achieved.value, achieved.low, achieved.high) if achieved else [math.nan] * 3
    threads = (run.threads or 0) * len(run.clients)
    busy = window_busy(run, list(ops), start, end) / threads if threads else math.nan
    server_kept = bool(ops) and all(
        o["service"].get(key, {}).get("us", math.inf) <= objective["bound_us"]
        for o in ops.values())
    client_limited = bool(target) and bool(why) and server_kept and busy > CLIENT_LIMITED
    if not target:
        # a closed loop has no schedule: its intended latency is its service time
        why.append("the unthrottled probe gives the ceiling and decides nothing")
    elif not rate >= cap["keep_up"] * target:
        why.append(f"achieved {rate:,.0f} ops/s < {cap['keep_up']:.0%} of the target {target:,}")
    if not ops and not why:
        why.append("no operation measured in the window")
    seconds = end - start if math.isfinite(end) else math.nan
    return {
        "run": run_label(run), "search": cap["search"], "step": cap["step"], "target": target,
        "objective": objective["text"], "achieved_ops_per_s": rate, "achieved_low": low,
        "achieved_high": high, "window": how, "window_s": seconds, "steady": bool(steady),
        "operations": ops, "held": not why, "why": why, "fell_behind": fell_behind,
        "client_busy": busy, "client_limited": client_limited,
        "summary": _summary(rate, target, key, ops, why, fell_behind, seconds, busy,
                            client_limited),
    }


def _summary(rate, target, key, ops, why, fell_behind, seconds, busy, limited) -> str:
    lat = "; ".join(f"{op} {key} intended {o['intended'][key]['us'] / 1000:,.1f} ms, service "
                    f"{o['service'].get(key, {}).get('us', math.nan) / 1000:,.1f} ms"
                    for op, o in ops.items())
    text = (f"achieved {rate:,.0f} ops/s" + (f" of {target:,}" if target else "")
            + (f" over {seconds:.0f} s" if math.isfinite(seconds) else "") + f"; {lat}")
    if fell_behind:
        text += (f"; the client fell behind its schedule on {', '.join(fell_behind)} (intended "
                 f"> service by more than {FELL_BEHIND_MARGIN:.0%} and "
                 f"{FELL_BEHIND_MIN_US / 1000:g} ms): believe the intended "
                 "latency, the service time hides the queueing")
    if limited:
        text += (f"; CLIENT-LIMITED: the service time kept the objective but the client's "
                 f"threads were {busy:.0%} busy (Little's law), so operations waited for a "
                 "thread of the client: more threads (-threads)")
    elif math.isfinite(busy):
        text += f"; client threads {busy:.0%} busy"
    return text + (f"; fails: {'; '.join(why)}" if why else "")


def steps_table(runs: list[Run]) -> pl.DataFrame:
    """One row per step and operation: target, achieved (with its within-run interval), p50
    and p99 of service and intended latency, the objective's figure, held, fell behind."""
    rows = []
    for run in (r for r in runs if r.metadata.get("capacity")):
        j, cap = judge(run), run.metadata["capacity"]
        key = objective_key(cap["objective"])
        base = {"scenario": run.scenario, "timestamp": run.timestamp, "database": run.database,
                "search": j["search"], "repeat": int(run.metadata.get("repeat") or 0),
                "step": j["step"], "target": j["target"], "objective": j["objective"],
                "objective_key": key, "bound_us": cap["objective"]["bound_us"],
                "keep_up": cap["keep_up"]}
        base |= {k: j[k] for k in ("achieved_ops_per_s", "achieved_low", "achieved_high",
                                   "window_s", "steady", "held", "client_busy",
                                   "client_limited")}
        base |= {"why": "; ".join(j["why"]), "check": cap.get("check", math.nan)}
        for op, o in (j["operations"] or {"": {}}).items():
            row = dict(base, operation=op, fell_behind=op in j["fell_behind"])
            for kind in ("service", "intended"):
                for level in ("p50", "p99", key):
                    e = o.get(kind, {}).get(level, {})
                    for bound, suffix in (("us", ""), ("low", "_low"), ("high", "_high")):
                        row[f"{kind}_{level}{suffix}_us"] = e.get(bound, math.nan)
            rows.append(row)
    return frame(rows)


def capacities(steps: pl.DataFrame) -> pl.DataFrame:
    """One row per search and trial: the highest target at which every step held, whether a
    second step confirmed it, the seconds it held over (its windows together), whether those
    windows were steady, what bounded it, the steps run."""
    keys = ["scenario", "timestamp", "database", "search", "repeat"]
    rows = []
    for key, trial in by_key(steps.to_dicts(), keys).items():
        # each step once (a row per operation: its worst decides its objective figure)
        per_step = [ops[0] | {"figure": _objective_figure(ops)}
                    for ops in by_key(trial, ["step"]).values()]
        checks = [s for s in per_step if known(s["check"])]
        g = [s for s in per_step if not known(s["check"])]
        probe = [s for s in g if s["step"] == 0]
        paced = [s for s in g if s["step"] > 0]
        failed = {s["target"] for s in paced if not s["held"]}
        found = float(max((s["target"] for s in paced if s["target"] not in failed), default=0.0))
        ceiling = float(probe[0]["achieved_ops_per_s"]) if probe else math.nan
        floor = min((s["figure"] for s in paced), default=math.nan)
        # the search climbed to within RESOLUTION of the ceiling: throughput bounds it there
        bounded = ("nothing held" if not found else "ceiling"
                   if found >= (1 - RESOLUTION) * ceiling else "objective")
        # the lowest target that failed above it: failed for the client's threads?
        above = min((s["target"] for s in paced if s["target"] in failed and s["target"] > found),
                    default=None)
        if any(s.get("client_limited") for s in paced if s["target"] == above):
            bounded = "client threads"
        at_found = [s for s in paced if found and s["target"] == found]
        first = g[0]
        row = dict(zip(keys, key), objective=first["objective"],
                   capacity=capacity_words(found, floor, first.get("bound_us", math.nan),
                                           first.get("objective_key", "")),
                   capacity_ops_per_s=found, broken_ops_per_s=math.nan if above is None
                   else float(above), floor_us=floor, bounded_by=bounded, steps=len(g),
                   confirmed=len(at_found) > 1,
                   held_over_s=float(sum(s["window_s"] for s in at_found)) if found else math.nan,
                   steady=all(bool(s["steady"]) for s in at_found), ceiling_ops_per_s=ceiling)
        for c in checks:  # run-scenario --slo-check: held at 0.9x, not at 1.25x?
            row[f"check_{c['check']:g}x_held"] = bool(c["held"])
            row[f"check_{c['check']:g}x_achieved_ops_per_s"] = c["achieved_ops_per_s"]
        rows.append(row)
    return frame(rows)


def _trial(row: dict) -> int:
    """A capacity row's trial number (1 for the only trial of a run without --repeat)."""
    return int(row["repeat"]) or 1


def _capacities(rows: list[dict]) -> dict[int, float]:
    """{trial: capacity (ops/s)} of one database's capacity rows."""
    return {_trial(r): float(r["capacity_ops_per_s"]) for r in rows}


def across_trials(found: pl.DataFrame) -> pl.DataFrame:
    """Per database and search: the capacity's mean over its trials with the 95% t-interval
    (none with one trial), and each trial's bracket: the highest target held, the lowest
    above it that broke ("-": none broke above it)."""
    rows = []
    keys = ["scenario", "timestamp", "database", "search"]
    for key, g in by_key(found.to_dicts(), keys).items():
        trials = _capacities(g)
        mean, low, high = mean_interval(trials)
        brackets = "; ".join(
            f"trial {_trial(r)}: {r['capacity_ops_per_s']:,.0f}-"
            + (f"{r['broken_ops_per_s']:,.0f}" if known(r["broken_ops_per_s"]) else "-")
            for r in g)
        rows.append(dict(zip(keys, key), objective=g[0]["objective"], trials=len(trials),
                         capacity_ops_per_s=mean, ci_low=low, ci_high=high,
                         steady=all(r["steady"] is not False for r in g), brackets=brackets))
    return frame(rows)


def _objective_figure(operations: list[dict]) -> float:
    """One step's figure for its objective: its worst operation's intended latency (µs)."""
    figures = [r.get(f"intended_{r.get('objective_key')}_us") for r in operations]
    return max((v for v in figures if known(v)), default=math.nan)


def capacity_verdicts(found: pl.DataFrame, known_sides: dict | None = None) -> pl.DataFrame:
    """Per search: each side's capacity over its trials, and a/b with its interval from the
    trials paired by number (the rows of verdicts.csv; phase = the phase searched). The sides
    are the search's two databases, or an A/A test's two sides (``known_sides``:
    sides.known_sides of the phases)."""
    rows = []
    for (scenario, ts, search), g in by_key(found.to_dicts(),
                                            ["scenario", "timestamp", "search"]).items():
        per_side = {}
        for (db,), d in by_key(g, ["database"]).items():
            trials = _capacities(d)
            # a capacity whose steps were not steady is not judged, as any figure
            shaky = [f"trial {_trial(r)}" for r in d if r.get("steady") is False]
            per_side[db] = {"capacity_ops_per_s_trials": trials,
                            "capacity_ops_per_s": mean_interval(trials)[0], "steady": not shaky,
                            "unsteady": "the steps that set its capacity NOT steady in "
                                        + ", ".join(shaky)}
        words = f"max sustainable throughput at {g[0]['objective']} (intended)"
        for a, b in sides.pairs([r["database"] for r in g], known_sides):
            compared = compare(per_side[a], per_side[b], a, b,
                               {"scenario": scenario, "timestamp": ts, "phase": search},
                               paired=True, compared=[("capacity_ops_per_s", words, "higher")],
                               aa=sides.is_aa(a, b, known_sides))
            none = [f"{db} trial {t}" for db in (a, b)
                    for t, v in per_side[db]["capacity_ops_per_s_trials"].items() if not v > 0]
            if none:  # a ratio of nothing is no ratio
                for row in compared:
                    row["verdict"] = (f"no ratio: nothing held in {', '.join(none)} (why: "
                                      "capacity.csv; a looser objective or more steps)")
                    row["significant"] = False
            rows += compared
    return frame(rows)


def judge_step_dir(step_dir: Path) -> dict:
    """judge() of the capacity step in a results directory; UnreadableInput if it is not one."""
    run = load_phase_dir(Path(step_dir))
    if not run.metadata.get("capacity"):
        raise UnreadableInput(str(step_dir), "not a capacity step (its metadata.json has no "
                              "'capacity'; run-scenario --slo writes it)")
    return judge(run)
