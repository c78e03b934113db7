"""Trials on running servers from the same data (the runner's --trial-servers warm): the loaded
state kept with the databases' own snapshots, and put back under the running servers before
each trial, so a trial costs a restore and a client's warm-up instead of a server's start and
its JIT's climb.

- Cassandra: `nodetool snapshot` of every user keyspace after the load; each node's SSTables
  of it copied out of the data directory (dest/node<i>/<keyspace>/<table>/); before a trial,
  `TRUNCATE` of each table, then `nodetool import --copy-data` of that node's copy on each node,
  then `nodetool clearsnapshot --all` (the truncate's own snapshots; the saved copy lives
  outside the data directory). Import invalidates the row and key caches.
- HBase: a snapshot of every user table (scripts/hbase-local snapshot), and before a trial
  restore_snapshot of each (disable, restore, enable: scripts/hbase-local restore).

Against your own cluster the same commands work (`nodetool snapshot`/`import` on each node,
HBase's `snapshot`/`restore_snapshot`); the runner drives them on its local servers only.
"""
import shutil
import time
from pathlib import Path

from ..core.errors import ScriptError
from . import cql
from .cassandra_local import NATIVE_PORT
from .saved_state import fingerprint

NAME = "ycsbpack-saved"


def save(server, dest: Path) -> dict:
    """Saves the running `server`'s user tables (replacing `dest`); returns what was saved."""
    t0 = time.monotonic()
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    files = server.save_live(dest, NAME)
    return {"saved_in": str(dest), "bytes": sum(p.stat().st_size for p in files),
            "fingerprint": fingerprint(files), "copy_s": round(time.monotonic() - t0, 1)}


def restore(server, src: Path) -> dict:
    """Puts the saved tables back under the running `server`; returns what was restored."""
    t0 = time.monotonic()
    files = server.restore_live(src, NAME)
    return {"from": str(src), "fingerprint": fingerprint(files),
            "copy_s": round(time.monotonic() - t0, 1)}


def cassandra_save(cluster, dest: Path, name: str) -> list:
    """`cluster`: a LocalCassandra whose nodes run; returns the copied files."""
    copied = []
    for node in range(1, cluster.nodes + 1):
        data = cluster.run_dir / f"node{node}" / "data"
        keyspaces = sorted(d.name for d in data.iterdir()
                           if d.is_dir() and not d.name.startswith("system"))
        if not keyspaces:
            raise ScriptError(f"no user keyspace in {data} to save")
        clear = ["clearsnapshot", "-t", name]  # an older one of that name, then this one
        _checked(cluster.nodetool(node, clear, capture=True))
        _checked(cluster.nodetool(node, ["snapshot", "-t", name] + keyspaces, capture=True))
        for snap in sorted(data.glob(f"*/*/snapshots/{name}")):
            keyspace, table = snap.parent.parent.parent.name, snap.parent.parent.name
            target = dest / f"node{node}" / keyspace / table.rsplit("-", 1)[0]
            target.mkdir(parents=True)
            for f in snap.iterdir():
                if f.is_file() and f.name not in ("manifest.json", "schema.cql"):
                    shutil.copy2(f, target / f.name)
                    copied.append(target / f.name)
        _checked(cluster.nodetool(node, clear, capture=True))
    return copied


def cassandra_restore(cluster, src: Path, name: str) -> list:
    tables = sorted({(d.parent.name, d.name) for d in src.glob("node*/*/*") if d.is_dir()})
    if not tables:
        raise ScriptError(f"no saved Cassandra tables in {src} to restore")
    for keyspace, table in tables:
        cql.execute(cluster.address(1), NATIVE_PORT, f"TRUNCATE {keyspace}.{table}")
    files = []
    for node in range(1, cluster.nodes + 1):
        for keyspace, table in tables:
            copy = src / f"node{node}" / keyspace / table
            if copy.is_dir():
                _checked(cluster.nodetool(node, ["import", "--copy-data", keyspace, table,
                                                 str(copy)], capture=True))
                files += [f for f in copy.iterdir() if f.is_file()]
        _checked(cluster.nodetool(node, ["clearsnapshot", "--all"], capture=True))
    return files


def _checked(proc) -> None:
    """nodetool import reports a failed directory on stdout with exit 0 on some versions."""
    text = (proc.stdout or "") + (proc.stderr or "")
    if proc.returncode != 0 or "failed" in text.lower():
        raise ScriptError(f"`nodetool {' '.join(proc.args[-6:])}` failed (exit "
                          f"{proc.returncode}): {text.strip()[-600:]}")
