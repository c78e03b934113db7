"""Comparisons a reviewer can accept: a ratio with its 95% interval and a verdict in words.

Repeats first: the runs of one phase made by ``run-scenario --repeat N`` (same scenario,
timestamp, phase and database, metadata "repeat") become one row: the mean of the repeats with
its t-interval (and their median, for the table); a phase run once keeps its within-run
interval (steady_state.py). Then two such rows are compared figure by figure: A/B with the
interval of uncertainty.ratio, and

    "cassandra: throughput 12% higher (95% CI +4% to +20%)"   the interval excludes 1
    "no significant difference (95% CI -6% to +3%)"           it does not
    "no interval: ..."                                          a side has no interval

Two comparisons: Cassandra vs HBase within the same results (:func:`between_databases`), and
current vs ``--baseline`` (:func:`against_baseline`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .steady_state import FIGURES
from .uncertainty import Estimate, across_repeats, ratio

GROUP = ["scenario", "timestamp", "phase", "database"]
# figure, words, better when
COMPARED = [
    ("throughput_ops_per_s", "throughput", "higher"),
    ("records_per_s", "records/s", "higher"),
    ("average_latency_us", "mean latency", "lower"),
    ("p95_latency_us", "p95 latency", "lower"),
    ("p99_latency_us", "p99 latency", "lower"),
]


def _estimate(row: pd.Series, figure: str) -> Estimate:
    v = row.get(figure, math.nan)
    return Estimate(
        float(v) if v is not None and v == v else math.nan,
        float(row.get(f"{figure}_se", math.nan)),
        float(row.get(f"{figure}_df", math.nan)),
    )


def aggregate(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per phase: repeats merged (mean, t-interval of the repeats, median, count)."""
    if summary.empty or "repeat" not in summary or summary["repeat"].isna().all():
        out = summary.copy()
        if not out.empty:
            out["repeats"] = 1
        return out
    rows = []
    for _, g in summary.groupby(GROUP, sort=False, dropna=False):
        if len(g) == 1:
            rows.append(g.iloc[0].to_dict() | {"repeats": 1})
            continue
        row = g.iloc[0].to_dict()
        row["run"] = str(row["run"]).split(" #")[0] + f" (x{len(g)})"
        row["repeats"] = len(g)
        for f in FIGURES:
            if f not in g:
                continue
            e = across_repeats(g[f].to_list())
            row[f], row[f"{f}_se"], row[f"{f}_df"] = e.value, e.se, e.df
            row[f"{f}_ci_low"], row[f"{f}_ci_high"] = e.low, e.high
            row[f"{f}_median"] = float(np.nanmedian(g[f])) if g[f].notna().any() else math.nan
        row["window"] = f"{len(g)} repeats; each: {g.iloc[0]['window']}"
        rows.append(row)
    return pd.DataFrame(rows)


def verdict(name_a: str, name_b: str, words: str, better: str, r) -> str:
    if r.ratio != r.ratio:
        return "no figure to compare"
    change = (r.ratio - 1) * 100
    if r.low != r.low:
        return (
            f"not judged: {words} {change:+.0f}% but no 95% interval (percentiles without .hdr "
            "logs, or too few intervals)"
        )
    ci = f"95% CI {(r.low - 1) * 100:+.0f}% to {(r.high - 1) * 100:+.0f}%"
    if not r.significant:
        return f"no significant difference ({ci})"
    higher = r.ratio > 1
    good = higher == (better == "higher")
    return (
        f"{name_a}: {words} {abs(change):.0f}% {'higher' if higher else 'lower'} than "
        f"{name_b}{' (better)' if good else ' (worse)'} ({ci})"
    )


def _unsteady(row: pd.Series) -> bool:
    return "NO steady window" in str(row.get("window", ""))


def _compare(a: pd.Series, b: pd.Series, name_a: str, name_b: str, key: dict) -> list[dict]:
    rows = []
    unsteady = [n for n, r in ((name_a, a), (name_b, b)) if _unsteady(r)]
    for figure, words, better in COMPARED:
        ea, eb = _estimate(a, figure), _estimate(b, figure)
        if ea.value != ea.value or eb.value != eb.value:
            continue
        r = ratio(ea, eb)
        text = verdict(name_a, name_b, words, better, r)
        if unsteady:
            # a figure that averages a climb says nothing about either database
            text = f"not judged: {' and '.join(unsteady)} never reached a steady state"
        rows.append(
            key
            | {
                "figure": words,
                name_b: eb.value,
                name_a: ea.value,
                "ratio": r.ratio,
                "ratio_low": r.low,
                "ratio_high": r.high,
                "significant": bool(r.significant) and not unsteady,
                "better_when": better,
                "verdict": text,
            }
        )
    return rows


def between_databases(agg: pd.DataFrame, a: str = "cassandra", b: str = "hbase") -> pd.DataFrame:
    """Cassandra vs HBase for every phase both ran in the same results (scenario, timestamp)."""
    cols = [
        "scenario",
        "timestamp",
        "phase",
        "figure",
        b,
        a,
        "ratio",
        "ratio_low",
        "ratio_high",
        "significant",
        "verdict",
    ]
    if agg.empty or not {a, b} <= set(agg["database"]):
        return pd.DataFrame(columns=cols)
    rows = []
    for (scenario, ts, phase), g in agg.groupby(["scenario", "timestamp", "phase"], sort=False):
        by_db = {r["database"]: r for _, r in g.iterrows()}
        if a in by_db and b in by_db:
            rows += _compare(
                by_db[a], by_db[b], a, b, {"scenario": scenario, "timestamp": ts, "phase": phase}
            )
    return pd.DataFrame(rows, columns=cols)


def against_baseline(current: pd.DataFrame, baseline: pd.DataFrame) -> pd.DataFrame:
    """Current vs baseline per phase (matched on scenario, phase and database; the latest
    timestamp of each side): the ratio current/baseline with its interval and verdict."""
    key = ["scenario", "phase", "database"]
    cols = key + [
        "figure",
        "baseline",
        "current",
        "change_percent",
        "ratio",
        "ratio_low",
        "ratio_high",
        "significant",
        "better_when",
        "verdict",
    ]

    def latest(s: pd.DataFrame) -> pd.DataFrame:
        return (
            s.sort_values("timestamp", kind="stable").drop_duplicates(key, keep="last")
            if not s.empty
            else s
        )

    cur, base = latest(current), latest(baseline)
    rows = []
    for _, c in cur.iterrows():
        m = (
            base[
                (base["scenario"] == c["scenario"])
                & (base["phase"] == c["phase"])
                & (base["database"] == c["database"])
            ]
            if not base.empty
            else base
        )
        if m.empty:
            continue
        for r in _compare(c, m.iloc[0], "current", "baseline", {k: c[k] for k in key}):
            r["change_percent"] = (r["ratio"] - 1) * 100
            rows.append(r)
    return pd.DataFrame(rows, columns=cols)
