"""Availability during a fault, from the client's per-second status lines (fault_timeline.py:
status.interval=1, `[OP: Count=n]` succeeded and `[OP-FAILED: Count=n]` failed in that second).

A second is one status line; its throughput is the operations that succeeded in it, all
operations together. Per fault window (from the fault's start to the next fault's start or the
end of the phase):

  pre-fault rate   the median throughput of the seconds before the first fault (the client's
                   first second with operations left out: it started mid-interval)
  pre-fault band   the 10th to 90th percentile of those seconds' throughput (nearest rank);
                   of their p99 of intended latency likewise (a second's p99: the slower
                   operation's, of the batches that succeeded)
  outage           the longest run of consecutive seconds with no successful operation
  below half       the seconds whose throughput was under half the pre-fault rate
  first bad second the first second after the fault began with a failed operation or no
                   successful one (none: the client never noticed the fault)
  recovery         from the end of the first bad second's predecessor to the end of the first
                   later second with no failure in which every operation that failed since
                   has succeeded (`to_success_s`: a second of reads alone while every write
                   still fails is not a recovery), and to the end of the first such second whose
                   throughput is inside the pre-fault band and whose p99 of intended latency is
                   not above that band (`to_band_s`; a catch-up burst above the band does not
                   count, nor a second whose batches still waited behind the stall)
  worst p99        the highest per-second p99 of intended latency in the window: how long a
                   batch the schedule meant to start then waited for its answer

Durations are the status lines' own time stamps, so a client that stalled (a line late) counts
its real length. Standard library only, like fault_timeline.py.
"""
import statistics
from datetime import datetime
from typing import List, Optional

DEFINITIONS = {
    "pre_fault_band": "10th-90th percentile (nearest rank) of the successful operations per "
                      "second before the first fault",
    "outage_s": "longest run of seconds with no successful operation",
    "below_half_s": "seconds with fewer successes than half the pre-fault median",
    "recovery_to_success_s": "first second with a failure or no success -> first later second "
                             "with no failure in which every operation that failed since "
                             "succeeded",
    "recovery_to_band_s": "the same start -> the first such second with throughput inside the "
                          "pre-fault band and p99 of intended latency not above its band",
    "worst_p99_us": "highest per-second p99 of intended latency (the batches that succeeded; "
                    "of the slower operation) in the window",
}


def _t(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def per_second(rows: List[dict]) -> List[dict]:
    """[{"time", "ok", "failed", "ok_by_op", "failed_by_op", "p99_us"}] with every operation
    summed (p99_us: the highest of the operations' p99 of intended latency, None without one),
    from the first second with operations to the first in which the client's threads ended
    (the seconds of its start-up and shut-down are not the database's)."""
    out = []
    for r in rows:
        ok, failed = sum(r["ok"].values()), sum(r["failed"].values())
        if out or ok or failed:
            p99 = (r.get("intended_p99_us") or {}).values()
            out.append({"time": r["time"], "ok": ok, "failed": failed,
                        "ok_by_op": r["ok"], "failed_by_op": r["failed"],
                        "p99_us": max(p99, default=None)})
        if out and r.get("cleanup"):
            break
    return out


def percentile(values: List[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def pre_fault(series: List[dict], fault_start: str) -> Optional[dict]:
    """The pre-fault rate and bands from the seconds before `fault_start` (the first one left
    out); None with fewer than 3 such seconds (the latency band None with fewer than 3 seconds
    that have a p99 of intended latency: a run without measurement.interval=both)."""
    seconds = [s for s in series[1:] if _t(s["time"]) <= _t(fault_start)]
    before = [s["ok"] for s in seconds]
    if len(before) < 3:
        return None
    p99 = [s["p99_us"] for s in seconds if s["p99_us"] is not None]
    return {"seconds": len(before), "rate": statistics.median(before),
            "band": [percentile(before, 10), percentile(before, 90)],
            "p99_band_us": [percentile(p99, 10), percentile(p99, 90)] if len(p99) >= 3 else None}


def _length(series: List[dict], i: int) -> float:
    """Seconds covered by status line i (its stamp minus the previous one's; 1 for the first)."""
    if i == 0:
        return 1.0
    return (_t(series[i]["time"]) - _t(series[i - 1]["time"])).total_seconds()


def window(series: List[dict], fault_start: str, end: Optional[str], pre: Optional[dict]) -> dict:
    """The measures of one fault window (module docstring), in seconds."""
    idx = [i for i, s in enumerate(series)
           if _t(s["time"]) > _t(fault_start) and (end is None or _t(s["time"]) <= _t(end))]
    result = {"seconds": len(idx), "ok": sum(series[i]["ok"] for i in idx),
              "failed": sum(series[i]["failed"] for i in idx), "outage_s": 0.0,
              "below_half_s": None, "first_bad_s": None, "recovery_to_success_s": None,
              "recovery_to_band_s": None, "worst_p99_us": None}
    if not idx:
        return result
    result["worst_p99_us"] = max((series[i]["p99_us"] for i in idx
                                  if series[i]["p99_us"] is not None), default=None)
    run = longest = 0.0
    for i in idx:
        run = run + _length(series, i) if series[i]["ok"] == 0 else 0.0
        longest = max(longest, run)
    result["outage_s"] = round(longest, 1)
    if pre is not None:
        result["below_half_s"] = round(sum(_length(series, i) for i in idx
                                           if series[i]["ok"] < pre["rate"] / 2), 1)
    bad = next((i for i in idx if series[i]["failed"] or not series[i]["ok"]), None)
    if bad is None:
        return result
    t0 = _t(series[bad - 1]["time"]) if bad > 0 else _t(series[bad]["time"])
    result["first_bad_s"] = round((_t(series[bad]["time"]) - _t(fault_start)).total_seconds(), 1)
    failed_ops = set()
    later = []
    for i in (i for i in idx if i >= bad):
        failed_ops |= {op for op, n in series[i]["failed_by_op"].items() if n}
        if i > bad and series[i]["ok"] and not series[i]["failed"] \
                and all(series[i]["ok_by_op"].get(op) for op in failed_ops):
            later.append(i)
    if later:
        result["recovery_to_success_s"] = _since(series, later[0], t0)
        if pre is not None:
            inside = [i for i in later if _in_band(series[i], pre)]
            if inside:
                result["recovery_to_band_s"] = _since(series, inside[0], t0)
    return result


def _in_band(second: dict, pre: dict) -> bool:
    """Throughput inside the pre-fault band, and p99 of intended latency not above its band
    (where the pre-fault seconds had one)."""
    low, high = pre["band"]
    latency = pre.get("p99_band_us")
    slow = latency is not None and (second["p99_us"] is None or second["p99_us"] > latency[1])
    return low <= second["ok"] <= high and not slow


def back_in_band(rows: List[dict], fault_start: str) -> bool:
    """Whether the client's newest second is inside the pre-fault band of the seconds before
    `fault_start` (throughput, and p99 of intended latency: _in_band); True when there is no
    band to wait for (too few seconds before the fault)."""
    series = per_second(rows)
    pre = pre_fault(series, fault_start)
    return pre is None or (bool(series) and _in_band(series[-1], pre))


def _since(series: List[dict], i: int, t0: datetime) -> float:
    return round((_t(series[i]["time"]) - t0).total_seconds(), 1)


def measures(rows: List[dict], faults: List[dict]) -> dict:
    """{"pre_fault": rate and band, "faults": [window measures + the fault's own keys]} for the
    faults [{"start": UTC ISO, ...}] of one phase, in order; each window ends where the next
    fault starts."""
    series = per_second(rows)
    pre = pre_fault(series, faults[0]["start"]) if faults else None
    out = []
    for k, f in enumerate(faults):
        end = faults[k + 1]["start"] if k + 1 < len(faults) else None
        out.append({**f, **window(series, f["start"], end, pre)})
    return {"pre_fault": pre, "faults": out, "definitions": DEFINITIONS}


def _s(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:g} s"


def _ms(us: Optional[float]) -> str:
    return "-" if us is None else f"{us / 1000:,.1f} ms"


def line(fault: str, what: str, m: dict, lost: Optional[int], pre: Optional[dict] = None) -> str:
    """One sentence per fault window: 'pause 20 s of node3: outage 0 s, 3 s below half rate,
    recovered in 4 s (back in the band after 6 s), worst second's p99 of intended latency 2,103.2
    ms (before the fault up to 6.1 ms); acknowledged writes lost: 0'."""
    if m.get("first_bad_s") is None:
        recovered = "no failed or empty second"
    elif m.get("recovery_to_success_s") is None:
        recovered = "not recovered within the phase"
    else:
        recovered = (f"recovered in {_s(m['recovery_to_success_s'])} (back in the pre-fault "
                     f"band after {_s(m['recovery_to_band_s'])})")
    below = ("? s" if m.get("below_half_s") is None else _s(m["below_half_s"]))
    lost_text = "not read back" if lost is None else str(lost)
    latency = ""
    if m.get("worst_p99_us") is not None:
        band = (pre or {}).get("p99_band_us")
        latency = (f", worst second's p99 of intended latency {_ms(m['worst_p99_us'])}"
                   + (f" (before the fault up to {_ms(band[1])})" if band else ""))
    return (f"{fault} {what}: outage {_s(m['outage_s'])}, {below} below half rate, {recovered}"
            f"{latency}; acknowledged writes lost: {lost_text}")
