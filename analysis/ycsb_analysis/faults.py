"""S2's faults across repeats: each measure of each fault, database and episode (the crash's
node down; each of the pause's two pauses) over the trials of ``run-scenario S2 --faults ...
--repeat N``, with its mean and 95% t-interval across the repeats (trials.mean_interval).

One fault phase is one server lifetime: its outage or recovery time says what happened once;
a comparison of the databases under a fault rests on the interval across repeats (each on
fresh servers, loaded anew). A measure a repeat did not reach (no recovery before the phase
ended: ``null`` in the verdict) is counted (``not_reached``) and said, not averaged in; nor is
a recovery in a window with no failed or empty second (nothing to recover from: ``no_failure``).
Acknowledged writes lost are summed over the repeats: any is a failure, whatever the others did.
Beside them, what an acknowledged write survives on each database (metadata.json "durability"
of its fault phases): every fault here acts on processes or the network, not on the machine.
"""

from __future__ import annotations

from collections import defaultdict

import polars as pl

from .readers.fault_verdicts import FaultVerdict
from .trials import mean_interval

# measure in the verdict's measures.faults entries: (words, unit shown, divisor to that unit)
MEASURES = {
    "outage_s": ("outage", "s", 1),
    "below_half_s": ("below half rate", "s", 1),
    "recovery_to_success_s": ("recovered in", "s", 1),
    "recovery_to_band_s": ("back in the pre-fault band in", "s", 1),
    "worst_p99_us": ("worst second's p99 of intended latency", "ms", 1000),
}
RECOVERY = ("recovery_to_success_s", "recovery_to_band_s")
NO_FAILURE = "no failed or empty second"   # a window's recovery with nothing to recover from
COLUMNS = ["database", "fault", "episode", "measure", "unit", "repeats", "not_reached", "mean",
           "low", "high", "acknowledged_writes_lost", "no_failure"]


def episode(entry: dict) -> str:
    """What one entry of a verdict's measures.faults describes: the crash's "node3 down", a
    pause's "25 s pause"."""
    return str(entry.get("what") or f"{entry.get('length_s', '?')} s pause")


def across_repeats(verdicts: list[FaultVerdict]) -> pl.DataFrame:
    """One row per database, fault, episode and measure (COLUMNS): repeats that measured the
    episode, how many of them did not reach the measure, its mean and 95% interval across the
    repeats that did (in the unit shown), and the acknowledged writes lost in all repeats."""
    values: dict[tuple, dict[int, float | None]] = defaultdict(dict)
    lost: dict[tuple, int] = defaultdict(int)
    for v in verdicts:
        if v.data.get("skipped"):
            continue
        lost[(v.database, v.fault)] += v.acknowledged_writes_lost
        for entry in (v.data.get("measures") or {}).get("faults") or []:
            for measure in MEASURES:
                nothing = measure in RECOVERY and "first_bad_s" in entry and (
                    entry["first_bad_s"] is None)
                values[(v.database, v.fault, episode(entry), measure)][v.repeat] = (
                    NO_FAILURE if nothing else entry.get(measure))
    rows = []
    # a fault's episodes in the order they happened (the short pause before the long one)
    order = list(dict.fromkeys((fault, ep) for _, fault, ep, _ in values))
    for (db, fault, ep, measure), by_repeat in sorted(
            values.items(), key=lambda kv: (kv[0][1], order.index(kv[0][1:3]), kv[0][0])):
        _, unit, divisor = MEASURES[measure]
        reached = {r: x / divisor for r, x in by_repeat.items()
                   if x is not None and x != NO_FAILURE}
        calm = sum(x == NO_FAILURE for x in by_repeat.values())
        mean, low, high = mean_interval(reached)
        rows.append({"database": db, "fault": fault, "episode": ep, "measure": measure,
                     "unit": unit, "repeats": len(by_repeat),
                     "not_reached": len(by_repeat) - len(reached) - calm, "mean": mean,
                     "low": low, "high": high, "acknowledged_writes_lost": lost[(db, fault)],
                     "no_failure": calm})
    if not rows:
        return pl.DataFrame(schema={c: pl.String for c in COLUMNS})
    return pl.DataFrame(rows).select(COLUMNS)


def _figure(row: dict) -> str:
    words = MEASURES[row["measure"]][0]
    if row["no_failure"] == row["repeats"]:
        return f"{words} - ({NO_FAILURE})"
    if row["not_reached"] + row["no_failure"] == row["repeats"]:
        return f"{words} - (not within the phase)"
    text = f"{words} {row['mean']:,.1f} {row['unit']}"
    if row["low"] == row["low"]:  # two repeats or more reached it: an interval
        text += f" (95% CI {row['low']:,.1f} to {row['high']:,.1f})"
    if row["not_reached"]:
        text += f" [not within the phase in {row['not_reached']} of {row['repeats']}]"
    if row["no_failure"]:
        text += f" [{NO_FAILURE} in {row['no_failure']} of {row['repeats']}]"
    return text


def lines(table: pl.DataFrame, verdicts: list[FaultVerdict]) -> list[str]:
    """One sentence per fault, episode and database, the databases of a fault side by side;
    then each fault skipped, with its reason."""
    out = []
    for (fault, ep, db), group in table.group_by(["fault", "episode", "database"],
                                                 maintain_order=True):
        rows = group.to_dicts()
        out.append(f"{fault}, {ep}: {db} ({rows[0]['repeats']} repeat(s)): "
                   + ", ".join(_figure(r) for r in rows)
                   + f"; acknowledged writes lost: {rows[0]['acknowledged_writes_lost']}")
    skipped: dict[tuple, list[str]] = defaultdict(list)
    for v in verdicts:
        if v.data.get("skipped"):
            skipped[(v.fault, v.database)].append(str(v.data["skipped"]))
    for (fault, db), why in skipped.items():
        out.append(f"{fault}: {db}: skipped in {len(why)} repeat(s): {why[0]}")
    return out


def lost_lines(verdicts: list[FaultVerdict]) -> list[str]:
    """One sentence per fault phase whose read-back did not find every acknowledged write: the
    first lines of answer.txt, faults.txt and the report (no fault may lose one)."""
    return [f"ACKNOWLEDGED WRITES LOST: {v.acknowledged_writes_lost:,} on {v.database} in its "
            f"{v.fault} fault" + (f" (repeat {v.repeat})" if v.repeat else "")
            + f": {int(v.data.get('keys_acknowledged') or 0):,} keys acknowledged, "
            f"{int(v.data.get('keys_found') or 0):,} found by the read-back; " + _lost_keys(v)
            for v in verdicts if v.acknowledged_writes_lost > 0]


def _lost_keys(v: FaultVerdict) -> str:
    """The lost keys the verdict names (its key logs: scripts' scenarios/fault_keys.py)."""
    keys = v.data.get("keys")
    if not isinstance(keys, dict) or not keys.get("judged"):
        return (f"which keys is not recorded ({v.path.name} has no key-by-key judgement: a run "
                "from before the key logs, or its logs were missing)")
    listed = keys.get("lost_keys") or []
    more = int(keys.get("lost") or 0) - len(listed)
    return (f"keys {' '.join(listed)}" + (f" and {more:,} more" if more > 0 else "")
            + f" ({v.path.name}, keys.lost_keys)")


def durability_lines(runs) -> list[str]:
    """What an acknowledged write survives on each database whose fault phases ran (their
    metadata.json "durability"), and what the faults do not test."""
    said = {}
    for r in runs:
        record = r.metadata.get("durability")
        if r.phase.startswith("fault") and isinstance(record, dict) and record.get("survives"):
            default = "; the database's default" if record.get("default") else ""
            said.setdefault(r.database, f"durability: {r.database}: an acknowledged write "
                                        f"survives {record['survives']} ("
                                        f"{record.get('acknowledged_write', '')}{default})")
    if not said:
        return []
    return [*said.values(), "durability: every fault here acts on server processes or the "
            "network, not on the machine: a SIGKILL ends a process and the page cache survives "
            "it, so no fault here tests a power loss"]
