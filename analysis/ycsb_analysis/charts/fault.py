"""S2's fault phase, both databases side by side: batches/s that succeeded and that failed over
time, the moment the node went down at 0.

Drawn from the runner's ``fault-verdict-<database>.json`` next to the phase directories: its
``client_timeline`` (the client's per-second status lines, failed batches counted under
``<OP>-FAILED``), ``events`` (when the node went down, when it was back) and, for HBase,
``regions`` (when the master noticed the crash and when the dead server's regions reopened).
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import matplotlib.pyplot as plt

from ..model import Run
from ..sides import side_of
from .common import Chart, save

FAULT_PHASE = "fault-node-down"
SERIES = (("BATCH_INSERT", "ok", "writes OK", "-", "tab:blue"),
          ("BATCH_READ", "ok", "reads OK", "-", "tab:green"),
          ("BATCH_INSERT", "failed", "writes failed", "--", "tab:red"),
          ("BATCH_READ", "failed", "reads failed", "--", "tab:orange"))


def fault_verdicts(runs: list[Run]) -> dict[str, dict]:
    """{database: verdict} of the fault phases among ``runs`` (latest run per database)."""
    found: dict[str, dict] = {}
    for r in sorted(runs, key=lambda r: r.timestamp):
        if r.phase != FAULT_PHASE:
            continue
        # named after the database; in an A/A test maybe after the side ("cassandra-A")
        names = dict.fromkeys((r.database, side_of(r.metadata).database))
        f = next((f for f in (Path(r.path).parent / f"fault-verdict-{n}.json" for n in names)
                  if f.exists()), None)
        if f is not None:
            verdict = json.loads(f.read_text())
            if verdict.get("client_timeline") and (verdict.get("events") or {}).get("node_down"):
                found[r.database] = verdict
    return found


def _per_second(timeline: list[dict], t0: datetime):
    """x (s after the node went down) and {(op, kind): batches/s} per status interval."""
    xs, ys = [], {(op, kind): [] for op, kind, *_ in SERIES}
    previous = None
    for row in timeline:
        t = datetime.fromisoformat(row["time"])
        span = (t - previous).total_seconds() if previous else 1.0
        previous = t
        xs.append((t - t0).total_seconds())
        for op, kind, *_ in SERIES:
            ys[(op, kind)].append(row[kind][op] / span if span > 0 else 0.0)
    return xs, ys


def fault_timelines(runs: list[Run], out_dir: Path) -> list[Chart]:
    verdicts = fault_verdicts(runs)
    if not verdicts:
        return []
    names = sorted(verdicts)
    # constrained layout, as every chart of the package: the figure title never covers a panel's
    fig, axes = plt.subplots(1, len(names), figsize=(6.0 * len(names), 4.2), sharey=True,
                             squeeze=False, layout="constrained")
    for ax, db in zip(axes[0], names):
        v = verdicts[db]
        t0 = datetime.fromisoformat(v["events"]["node_down"])
        xs, ys = _per_second(v["client_timeline"], t0)
        for op, kind, label, style, colour in SERIES:
            ax.plot(xs, ys[(op, kind)], style, color=colour, label=label, marker=".", markersize=3)
        how = f"{v.get('node_failure', 'down')} ({v.get('signal', '?')})"
        ax.axvline(0, color="black", linewidth=1.5)
        ax.annotate(f"node {v.get('node', '')} {how}", (0, 1), xycoords=("data", "axes fraction"),
                    xytext=(3, -12), textcoords="offset points", fontsize=8)
        regions = v.get("regions") or {}
        if regions.get("crash_noticed_s") is not None:
            ax.axvline(regions["crash_noticed_s"], color="grey", linestyle=":")
        if regions.get("max_s") is not None:
            ax.axvspan(regions.get("min_s") or 0, regions["max_s"], color="grey", alpha=0.15,
                       label=f"dead server's {len(regions.get('regions', {}))} regions reopening")
        ax.set_title(f"{db}: {len(v.get('failed', []))} failed checks, keys acknowledged "
                     f"{v.get('keys_acknowledged')}, found {v.get('keys_found')}", fontsize=9)
        ax.set_xlabel("seconds after the node went down")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper right")
    axes[0][0].set_ylabel("batches/s (10 records each)")
    return [save(fig, out_dir, "fault-timelines",
                 "S2 fault phase: a node down mid-run, batches/s OK and failed")]
