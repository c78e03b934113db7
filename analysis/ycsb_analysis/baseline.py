"""Comparison mode: each phase of the results against the same phase of a baseline.

A phase is matched on scenario, phase and database (S2's ``load`` is not S3's ``load``; plain
files on their label); when either side holds a phase several times (a directory with several
timestamps), its latest run is compared.
"""

from __future__ import annotations

import math

import pandas as pd

COMPARED_FIGURES = [
    ("throughput_ops_per_s", "throughput (ops/s)", "higher"),
    ("records_per_s", "records/s", "higher"),
    ("average_latency_us", "average latency (µs)", "lower"),
    ("p95_latency_us", "p95 latency (µs)", "lower"),
    ("p99_latency_us", "p99 latency (µs)", "lower"),
    ("runtime_ms", "run time (ms)", "lower"),
    ("errors", "errors", "lower"),
]

COMPARISON_KEY = ["scenario", "phase", "database"]


def comparison_table(current: pd.DataFrame, baseline: pd.DataFrame) -> pd.DataFrame:
    """Baseline vs current per phase, change in percent.

    Phases are matched on scenario, phase and database (S2's ``load`` is not S3's ``load``);
    when one side holds a phase several times (several timestamps), its latest run is used.
    """
    def latest(summary: pd.DataFrame) -> pd.DataFrame:
        if summary.empty:
            return summary.reindex(columns=COMPARISON_KEY)
        return summary.sort_values("timestamp", kind="stable").drop_duplicates(
            COMPARISON_KEY, keep="last"
        )

    merged = latest(baseline).merge(
        latest(current), on=COMPARISON_KEY, suffixes=(" baseline", " current")
    )
    rows = []
    for _, r in merged.iterrows():
        for col, title, better in COMPARED_FIGURES:
            b, c = r.get(f"{col} baseline"), r.get(f"{col} current")
            if b is None or c is None or (isinstance(b, float) and math.isnan(b)) or \
                    (isinstance(c, float) and math.isnan(c)):
                continue
            # From 0 to 0 is no change; from 0 to something has no percentage.
            change = (c - b) / b * 100.0 if b else (0.0 if c == b else float("nan"))
            rows.append(
                {
                    "scenario": r["scenario"],
                    "phase": r["phase"],
                    "database": r["database"],
                    "figure": title,
                    "baseline": float(b),
                    "current": float(c),
                    "change_percent": change,
                    "better_when": better,
                }
            )
    return pd.DataFrame(
        rows,
        columns=COMPARISON_KEY + ["figure", "baseline", "current", "change_percent", "better_when"],
    )


def comparison_table_and_unmatched(
    current: pd.DataFrame, baseline: pd.DataFrame
) -> tuple[pd.DataFrame, list[str]]:
    """:func:`comparison_table`, plus one sentence per phase found on one side only (and one
    saying so when no phase matches at all)."""
    table = comparison_table(current, baseline)

    def keys(summary: pd.DataFrame) -> set[tuple]:
        if summary.empty:
            return set()
        return set(map(tuple, summary[COMPARISON_KEY].astype(str).itertuples(index=False)))

    cur, base = keys(current), keys(baseline)
    notes = []
    if not cur & base:
        notes.append(
            f"no phase of the baseline ({len(base)} phase(s)) matches a phase of these results "
            f"({len(cur)}) on scenario, phase and database: the comparison is empty"
        )
    for k in sorted(cur - base):
        notes.append(f"phase {'/'.join(k)} is not in the baseline: not compared")
    for k in sorted(base - cur):
        notes.append(f"baseline phase {'/'.join(k)} is not in these results: not compared")
    return table, notes
