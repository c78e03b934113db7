"""What each side does with an acknowledged write, read from its servers' own settings
(metadata.json "servers": bin/ycsb servers) and the workload's properties. Recorded in every
phase's metadata.json as "durability"; ycsb-report shows it in "What ran" and holds it against
the other side (analysis/ycsb_analysis/comparability.py).

- Cassandra: `commitlog_sync` decides when a write reaches the disk. "periodic" acknowledges a
  write once it is in the commit log segment (memory-mapped: the OS holds it) and fsyncs every
  `commitlog_sync_period`, so a machine crash can lose up to that period of acknowledged writes
  and a server process crash none; "batch" fsyncs before it acknowledges; "group" fsyncs every
  `commitlog_sync_group_window` and acknowledges the window's writes after it. A keyspace with
  `durable_writes = false` skips the commit log.
- HBase: a write is acknowledged once its WAL edit is synced as its durability asks: the
  binding's `hbase.durability` per mutation, else the table's DURABILITY, else SYNC_WAL
  (ASYNC_WAL syncs after the acknowledgement, SKIP_WAL never writes one). A sync is an hflush
  (an hsync with FSYNC_WAL or `hbase.wal.hsync`), which HDFS does (into the DataNodes' memory)
  and the local filesystem of a standalone server cannot (`hbase.unsafe.stream.capability.
  enforce` false lets it run): there the edit is still in the region server's buffers.

`survives` puts both on one scale; `default` says whether each knob is the database's own
default: across databases a difference in `survives` between two defaults is inherent to what
is compared, one the user set is not.
"""
import re
from typing import Dict, Optional

MACHINE = "a machine crash"   # on disk (fsync) before the acknowledgement
PROCESS = "a server process crash"   # in the OS's or the DataNodes' memory, not yet on disk
NOTHING = "nothing beyond the server process"   # in the server's own memory only
_TABLE_DURABILITY = re.compile(r"DURABILITY\s*=>\s*'(\w+)'")
_DURABLE_WRITES = re.compile(r"durable_writes\s*=\s*(\w+)", re.I)


def _cassandra(settings: Dict[str, str], schema: str) -> dict:
    mode = settings.get("commitlog_sync", "")
    period = settings.get("commitlog_sync_period", "")
    window = settings.get("commitlog_sync_group_window", "")
    durable = _DURABLE_WRITES.findall(schema or "")
    skips = any(d.lower() == "false" for d in durable)
    if skips:
        survives, words = NOTHING, "not written to the commit log (keyspace durable_writes = false)"
    elif mode == "periodic":
        survives, words = PROCESS, (f"in the commit log, fsynced every {period} (periodic): a "
                                    f"machine crash can lose up to {period} of acknowledged writes")
    elif mode == "batch":
        survives, words = MACHINE, "in the commit log, fsynced before the acknowledgement (batch)"
    elif mode == "group":
        survives, words = MACHINE, (f"in the commit log, fsynced every {window} and acknowledged "
                                    "after it (group)")
    else:
        return {"unknown": f"commitlog_sync {mode or '(not in the settings read)'}"}
    knobs = {"commitlog_sync": mode, "commitlog_sync_period": period,
             "durable_writes": ", ".join(sorted(set(durable))) or "(no keyspace read)"}
    if mode == "group":
        knobs["commitlog_sync_group_window"] = window
    return {"survives": survives, "acknowledged_write": words, "settings": knobs,
            "default": mode == "periodic" and period in ("10000ms", "10s") and not skips}


def _hbase(settings: Dict[str, str], schema: str, properties: Dict[str, str]) -> dict:
    client = properties.get("hbase.durability", "USE_DEFAULT")
    tables = _TABLE_DURABILITY.findall(schema or "")
    table = tables[0] if tables else "USE_DEFAULT"
    used = client if client != "USE_DEFAULT" else table if table != "USE_DEFAULT" else "SYNC_WAL"
    hsync = settings.get("hbase.wal.hsync", "false").lower() == "true"
    wal_dir = settings.get("hbase.wal.dir") or settings.get("hbase.rootdir", "")
    scheme = wal_dir.split(":", 1)[0] if ":" in wal_dir else ""
    if not scheme:
        return {"unknown": "the WAL's filesystem: neither hbase.wal.dir nor hbase.rootdir was read"}
    where = (f"{scheme}: the local filesystem, which cannot hflush" if scheme == "file" else
             f"{scheme}: HDFS, which hflushes to the DataNodes" if scheme == "hdfs" else scheme)
    if used == "SKIP_WAL":
        survives, words = NOTHING, "in the memstore only: no WAL edit (SKIP_WAL)"
    elif used == "ASYNC_WAL":
        survives, words = NOTHING, "in the memstore; its WAL edit is synced later (ASYNC_WAL)"
    elif scheme == "file":
        survives, words = NOTHING, (f"in the WAL ({used}) on the local filesystem, which cannot "
                                    "hflush: the edit is in the region server's buffers")
    elif used == "FSYNC_WAL" or hsync:
        survives, words = MACHINE, f"in the WAL ({used}), hsynced before the acknowledgement"
    else:
        survives, words = PROCESS, (f"in the WAL ({used}), hflushed to the DataNodes' memory "
                                    "before the acknowledgement")
    return {"survives": survives, "acknowledged_write": words, "wal": where,
            "settings": {"hbase.durability": client, "table DURABILITY": table,
                         "hbase.wal.hsync": str(hsync).lower(), "WAL directory": wal_dir},
            "default": client == "USE_DEFAULT" and table == "USE_DEFAULT" and not hsync}


def durability(servers: Optional[dict], properties: Dict[str, str]) -> dict:
    """metadata.json "durability" of a phase whose servers describe themselves as `servers`
    (metadata "servers") and whose clients ran with `properties`."""
    servers = servers or {}
    settings = servers.get("settings") or {}
    database = str(servers.get("database") or "")
    if not settings:
        return {"unknown": "the servers' settings were not read"
                + (f" ({'; '.join(servers['skipped'])})" if servers.get("skipped") else "")}
    schema = str(servers.get("schema") or "")
    if database == "cassandra":
        record = _cassandra(settings, schema)
    elif database == "hbase":
        record = _hbase(settings, schema, properties)
    else:
        return {"unknown": f"what {database or 'this database'} does with an acknowledged "
                "write is not described"}
    return {"database": database, **record}
