"""What a local Cassandra node's system.log says about its peers (S2's pause fault).

The gossiper logs each change of a peer's liveness (Gossiper.markDead / markAlive):
    INFO  [GossipTasks:1] 2026-12-06 21:30:02,120 Gossiper.java:1321 - InetAddress
    /127.0.0.53:7000 is now DOWN    (one line; "is now UP" when it is heard again)
and a node that was itself stopped does not convict its peers when it runs again
(FailureDetector: "Not marking nodes down due to local pause of ...").
"""
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import List, Optional, Tuple

_STAMP = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})")
_LOCAL_PAUSE = "Not marking nodes down due to local pause"


def _time(line: str) -> Optional[datetime]:
    m = _STAMP.search(line)
    if not m:
        return None
    # logback's ISO8601 stamps are in the node JVM's local time zone: this machine's
    return datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f").astimezone(timezone.utc)


def _lines_between(log: Path, since: str, until: Optional[str]) -> List[Tuple[float, str]]:
    """(seconds after `since`, line) of the log's stamped lines in (since, until]."""
    if not log.exists():
        return []
    t0 = datetime.fromisoformat(since)
    t1 = datetime.fromisoformat(until) if until else None
    out = []
    for line in log.read_text(errors="replace").splitlines():
        t = _time(line)
        if t is not None and t > t0 and (t1 is None or t <= t1):
            out.append((round((t - t0).total_seconds(), 1), line))
    return out


def liveness_marks(log: Path, address: str, since: str, until: Optional[str]) -> dict:
    """{"down_s", "up_s"}: when this node's gossiper first marked `address` DOWN after `since`
    and first UP after that (seconds after `since`; None when it did not)."""
    mark = re.compile(rf"InetAddress /{re.escape(address)}(?::\d+)? is now (DOWN|UP)")
    down = up = None
    for after, line in _lines_between(log, since, until):
        m = mark.search(line)
        if not m:
            continue
        if m.group(1) == "DOWN" and down is None:
            down = after
        elif m.group(1) == "UP" and down is not None and up is None:
            up = after
    return {"down_s": down, "up_s": up}


def local_pause_noticed(log: Path, since: str, until: Optional[str]) -> Optional[float]:
    """Seconds after `since` at which the node noticed its own pause (and did not convict its
    peers for it); None when it did not log it."""
    return next((after for after, line in _lines_between(log, since, until)
                 if _LOCAL_PAUSE in line), None)
