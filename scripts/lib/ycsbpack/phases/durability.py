"""What each side does with an acknowledged write, read from its servers' own settings
(metadata.json "servers": bin/ycsb servers) and the workload's properties. Recorded in every
phase's metadata.json as "durability"; ycsb-report shows it in "What ran" and holds it against
the other side (analysis/ycsb_analysis/comparability.py).

Each database describes its own (Database.durability: Cassandra's commit log sync, HBase's WAL
durability and filesystem) on one scale, `survives` (databases/base.py: a machine crash, a
server process crash, nothing beyond the server process); `default` says whether each knob is
the database's own default: across databases a difference in `survives` between two defaults is
inherent to what is compared, one the user set is not.
"""
from typing import Dict, Optional

from ..databases import NAMES, database


def durability(servers: Optional[dict], properties: Dict[str, str]) -> dict:
    """metadata.json "durability" of a phase whose servers describe themselves as `servers`
    (metadata "servers") and whose clients ran with `properties`."""
    servers = servers or {}
    settings = servers.get("settings") or {}
    name = str(servers.get("database") or "")
    if not settings:
        return {"unknown": "the servers' settings were not read"
                + (f" ({'; '.join(servers['skipped'])})" if servers.get("skipped") else "")}
    schema = str(servers.get("schema") or "")
    record = database(name).durability(settings, schema, properties) if name in NAMES else None
    if record is None:
        return {"unknown": f"what {name or 'this database'} does with an acknowledged "
                "write is not described"}
    return {"database": name, **record}
