"""The databases the pack benchmarks, each behind the Database interface (base.py): Cassandra
(cassandra.py), HBase (hbase.py) and MySQL/MariaDB (mysql.py). Everything that differs between
them lives here; the runner, the scenarios and the bench scripts ask `database(name)`.
"""
from typing import Optional

from ..core.errors import ScriptError
from .base import Database
from .cassandra import Cassandra
from .hbase import HBase
from .mysql import MySQL

_CLASSES = {c.name: c for c in (Cassandra, HBase, MySQL)}
NAMES = tuple(_CLASSES)  # --db's databases, in the order --db all runs them


def database(name: str, server: Optional[object] = None) -> Database:
    """The database called `name` (--db), with the local server this run runs (None: yours)."""
    if name not in _CLASSES:
        raise ScriptError(f"unknown database {name!r}: the pack knows {', '.join(NAMES)}")
    return _CLASSES[name](server)
