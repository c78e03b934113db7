"""What the local HBase master's log says about a dead region server (S2's fault phase).

The master writes every region's state into hbase:meta and logs it (RegionStateStore):
    pid=57 updating hbase:meta row=<encoded region>, regionState=OPEN, repBarrier=.., openSeqNum=..,
    regionLocation=127.0.0.1,23022,1764000000000
and names the table of each region it moves (TransitRegionStateProcedure table=t2, region=<enc>).
So the regions the dead server held are those whose last OPEN before the failure was on it, and
each was available again at its first OPEN elsewhere afterwards. The crash is noticed when the
master starts a ServerCrashProcedure for it (its ZooKeeper session expired).
"""
import json
import re
import statistics
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, Optional

_LINE_TIME = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d,\d{3})")
# an encoded region name: 32 hex digits, or 1588230740 for hbase:meta
_OPEN = re.compile(r"row=(\w+), regionState=OPEN\b.*?regionLocation=(\S+?,\d+,\d+)")
_TABLE = re.compile(r"table=([^,\s]+), region=(\w+)")


def _time(line: str) -> Optional[datetime]:
    m = _LINE_TIME.match(line)
    if not m:
        return None
    # log4j's ISO8601 stamps are in the server JVM's local time zone: this machine's
    return datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S,%f").astimezone(timezone.utc)


def region_recovery(run_dir: Path, node: int, node_down: str) -> Dict:
    """{"server", "crash_noticed_s", "crash_procedure_done_s", "regions": {encoded: {"table",
    "reopened_s", "on"}}, "min_s", "median_s", "max_s", "by_table"} in seconds after node_down."""
    saved = json.loads((run_dir / "hbase.json").read_text())
    port = saved["regionserver_port"] + node - 1
    log = run_dir / "logs" / "master.log"
    if not log.exists():
        return {"error": f"{log} not found"}
    t0 = datetime.fromisoformat(node_down)
    location: Dict[str, str] = {}       # region -> server of its last OPEN before the failure
    tables: Dict[str, str] = {}
    dead = None
    reopened: Dict[str, dict] = {}
    noticed = done = None
    for line in log.read_text(errors="replace").splitlines():
        for table, region in _TABLE.findall(line):
            tables[region] = table
        t = _time(line)
        if t is None:
            continue
        m = _OPEN.search(line)
        if t <= t0:
            if m:
                location[m.group(1)] = m.group(2)
            continue
        if dead is None:
            candidates = {s for s in location.values() if s.split(",")[1] == str(port)}
            dead = max(candidates, key=lambda s: int(s.split(",")[2])) if candidates else None
            if dead is None:
                return {"error": f"no region was open on the region server of port {port} "
                                 "before the failure"}
        after = round((t - t0).total_seconds(), 1)
        if dead in line and "ServerCrashProcedure" in line:
            noticed = after if noticed is None else noticed
            if "Finished pid=" in line:
                done = after
        if m and location.get(m.group(1)) == dead and m.group(2) != dead \
                and m.group(1) not in reopened:
            reopened[m.group(1)] = {"reopened_s": after, "on": m.group(2)}
    held = [r for r, s in location.items() if s == dead]
    for r in held:
        reopened.setdefault(r, {"reopened_s": None, "on": None})
        reopened[r]["table"] = tables.get(r, "?")
    times = [v["reopened_s"] for v in reopened.values() if v["reopened_s"] is not None]
    by_table: Dict[str, int] = {}
    for v in reopened.values():
        by_table[v["table"]] = by_table.get(v["table"], 0) + 1
    return {"server": dead, "crash_noticed_s": noticed, "crash_procedure_done_s": done,
            "regions": reopened, "by_table": by_table,
            "not_reopened": sum(1 for v in reopened.values() if v["reopened_s"] is None),
            "min_s": min(times) if times else None, "max_s": max(times) if times else None,
            "median_s": statistics.median(times) if times else None}


def _stamped_after(log: Path, since: str, until: Optional[str]):
    t0 = datetime.fromisoformat(since)
    t1 = datetime.fromisoformat(until) if until else None
    if not log.exists():
        return
    for line in log.read_text(errors="replace").splitlines():
        t = _time(line)
        if t is not None and t > t0 and (t1 is None or t <= t1):
            yield round((t - t0).total_seconds(), 1), line


def declared_dead(master_log: Path, port: int, since: str, until: Optional[str]) -> Optional[float]:
    """Seconds after `since` at which the master declared the region server of RPC port `port`
    dead (its ZooKeeper node expired: "processing expiration", or a ServerCrashProcedure for
    it); None when it did not before `until`."""
    server = re.compile(rf"127\.0\.0\.1,{port},\d+")
    for after, line in _stamped_after(master_log, since, until):
        if server.search(line) and ("expiration" in line or "ServerCrashProcedure" in line):
            return after
    return None


def fencing(regionserver_log: Path, since: str) -> dict:
    """What the region server's own log says after `since` (its resume): {"you_are_dead_s",
    "session_expired_s", "aborting_s", "abort_reason"} (seconds after `since`, None: not
    logged)."""
    found = {"you_are_dead_s": None, "session_expired_s": None, "aborting_s": None,
             "abort_reason": None}
    for after, line in _stamped_after(regionserver_log, since, None):
        if "YouAreDeadException" in line and found["you_are_dead_s"] is None:
            found["you_are_dead_s"] = after
        if ("SessionExpired" in line or "expired from ZooKeeper" in line) \
                and found["session_expired_s"] is None:
            found["session_expired_s"] = after
        if "ABORTING region server" in line and found["aborting_s"] is None:
            found["aborting_s"] = after
            found["abort_reason"] = line.split("ABORTING region server", 1)[1].strip()[:300]
    return found
