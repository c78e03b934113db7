"""S2's faults, one chart per fault, both databases side by side: batches/s that succeeded and
that failed over time, and below them each second's p99 of intended latency; time 0 is when the
fault began (the node went down, or its first pause), the pauses shaded.

Drawn from the runner's verdicts next to the phase directories (``fault-verdict-<database>.json``
for the crash, ``...-<fault>.json`` for the others): their ``client_timeline`` (the client's
per-second status lines, failed batches counted under ``<OP>-FAILED``; with
measurement.interval=both each operation's p99 of intended latency, ``intended_p99_us``),
``events`` (when the node went down), ``pauses`` (when each pause began and ended) and, for
HBase, ``regions`` (when the master noticed the crash and when the dead server's regions
reopened).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import matplotlib.pyplot as plt

from ..model import Run
from ..readers.fault_verdicts import read_verdict
from ..sides import side_of
from .common import Chart, save

# fault: (its phase with the traffic, the suffix of its verdict file, chart name, title)
FAULTS = {
    "crash": ("fault-node-down", "", "fault-timelines", "S2 crash: a node down mid-run"),
    "drain": ("fault-drain-node-down", "-drain", "fault-drain-timelines",
              "S2 drain: a node stopped (SIGTERM) mid-run"),
    "pause": ("fault-pause", "-pause", "fault-pause-timelines",
              "S2 pause: a node stopped (SIGSTOP) twice"),
    "partition": ("fault-partition", "-partition", "fault-partition-timelines",
                  "S2 partition: a node cut off from its clients, then from its peers"),
    "slow-disk": ("fault-slow-disk", "-slow-disk", "fault-slow-disk-timelines",
                  "S2 slow disk: a node's log writes slowed, then stalled"),
}
SERIES = (("BATCH_INSERT", "ok", "writes OK", "-", "tab:blue"),
          ("BATCH_READ", "ok", "reads OK", "-", "tab:green"),
          ("BATCH_INSERT", "failed", "writes failed", "--", "tab:red"),
          ("BATCH_READ", "failed", "reads failed", "--", "tab:orange"))


def _start(verdict: dict) -> str | None:
    """When the fault began: the node went down, or its first pause."""
    pauses = verdict.get("pauses") or []
    return (verdict.get("events") or {}).get("node_down") or (
        pauses[0].get("paused") if pauses else None)


def fault_verdicts(runs: list[Run], fault: str = "crash") -> dict[str, dict]:
    """{database: verdict} of ``fault``'s phases among ``runs`` (latest run per database; of
    several repeats, the last). A verdict that cannot be read is left out here (the summary
    across repeats names it as skipped: faults.py)."""
    phase, suffix = FAULTS[fault][:2]
    found: dict[str, dict] = {}
    for r in sorted(runs, key=lambda r: r.timestamp):
        if r.phase != phase:
            continue
        # named after the database; in an A/A test maybe after the side ("cassandra-A")
        names = dict.fromkeys((r.database, side_of(r.metadata).database))
        repeat = r.metadata.get("repeat")
        tail = f"{suffix}-repeat-{repeat}" if repeat else suffix
        f = next((f for f in (Path(r.path).parent / f"fault-verdict-{n}{tail}.json"
                              for n in names) if f.exists()), None)
        if f is not None:
            try:
                verdict = read_verdict(f)
            except ValueError:
                continue
            if verdict.get("client_timeline") and _start(verdict):
                found[r.database] = verdict
    return found


def _seconds(iso: str, t0: datetime) -> float:
    return (datetime.fromisoformat(iso) - t0).total_seconds()


def _per_second(timeline: list[dict], t0: datetime):
    """x (s after the fault began) and {(op, kind): batches/s} per status interval (the first
    taken as 1 s long)."""
    times = [datetime.fromisoformat(row["time"]) for row in timeline]
    spans = [1.0] + [(b - a).total_seconds() for a, b in zip(times, times[1:])]
    ys = {(op, kind): [row[kind][op] / span if span > 0 else 0.0
                       for row, span in zip(timeline, spans)]
          for op, kind, *_ in SERIES}
    return [(t - t0).total_seconds() for t in times], ys


def _fault_marks(ax, v: dict, t0: datetime, text: bool) -> None:
    """The fault's start as a line; each pause, and HBase's regions reopening, shaded."""
    ax.axvline(0, color="black", linewidth=1.5)
    for p in v.get("pauses") or []:
        ax.axvspan(_seconds(p["paused"], t0), _seconds(p["resumed"], t0), color="tab:purple",
                   alpha=0.12,
                   label=(p.get("what") or f"paused {p['length_s']} s") if text else None)
    if "pauses" in v:
        return
    if text:
        how = f"{v.get('node_failure', 'down')} ({v.get('signal', '?')})"
        ax.annotate(f"node {v.get('node', '')} {how}", (0, 1), xycoords=("data", "axes fraction"),
                    xytext=(3, -12), textcoords="offset points", fontsize=8)
    regions = v.get("regions") or {}
    if regions.get("crash_noticed_s") is not None:
        ax.axvline(regions["crash_noticed_s"], color="grey", linestyle=":")
    if regions.get("max_s") is not None:
        ax.axvspan(regions.get("min_s") or 0, regions["max_s"], color="grey", alpha=0.15,
                   label=f"dead server's {len(regions.get('regions', {}))} regions reopening"
                   if text else None)


def _latency(ax, timeline: list[dict], t0: datetime) -> None:
    """Each operation's p99 of intended latency per second (ms, log scale); a second without
    one (nothing succeeded in it) is a gap."""
    xs = [_seconds(r["time"], t0) for r in timeline]
    for op, label, colour in (("BATCH_INSERT", "writes", "tab:blue"),
                              ("BATCH_READ", "reads", "tab:green")):
        ys = [(r.get("intended_p99_us") or {}).get(op) for r in timeline]
        ax.plot(xs, [float("nan") if y is None else y / 1000 for y in ys], "-", color=colour,
                marker=".", markersize=3, label=f"{label}: p99 of intended latency")
    ax.set_yscale("log")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper right")


def _chart(verdicts: dict[str, dict], out_dir: Path, name: str, title: str) -> Chart:
    names = sorted(verdicts)
    # a second row when the clients measured intended latency (measurement.interval=both)
    latency = any(r.get("intended_p99_us") for v in verdicts.values()
                  for r in v["client_timeline"])
    rows = 2 if latency else 1
    # constrained layout, as every chart of the package: the figure title never covers a panel's
    fig, axes = plt.subplots(rows, len(names), figsize=(max(7.5, 6.0 * len(names)), 4.2 * rows),
                             sharey="row", sharex="col", squeeze=False, layout="constrained")
    for k, db in enumerate(names):
        v = verdicts[db]
        t0 = datetime.fromisoformat(_start(v))
        ax = axes[0][k]
        xs, ys = _per_second(v["client_timeline"], t0)
        for op, kind, label, style, colour in SERIES:
            ax.plot(xs, ys[(op, kind)], style, color=colour, label=label, marker=".", markersize=3)
        _fault_marks(ax, v, t0, text=True)
        ax.set_title(f"{db}: {len(v.get('failed', []))} failed checks, keys acknowledged "
                     f"{v.get('keys_acknowledged')}, found {v.get('keys_found')}", fontsize=9)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper right")
        if latency:
            _latency(axes[1][k], v["client_timeline"], t0)
            _fault_marks(axes[1][k], v, t0, text=False)
        axes[-1][k].set_xlabel("seconds after the fault began")
    axes[0][0].set_ylabel("batches/s (10 records each)")
    if latency:
        axes[1][0].set_ylabel("p99 of intended latency (ms)")
    return save(fig, out_dir, name,
                title + (": batches/s, p99 of intended latency" if latency else ": batches/s"))


def fault_timelines(runs: list[Run], out_dir: Path) -> list[Chart]:
    """One chart per fault that ran (crash, drain, pause), its databases side by side."""
    charts = []
    for fault, (_, _, name, title) in FAULTS.items():
        verdicts = fault_verdicts(runs, fault)
        if verdicts:
            charts.append(_chart(verdicts, out_dir, name, title))
    return charts
