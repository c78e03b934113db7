"""The bindings bin/ycsb knows: name -> DB class, server probe and the Maven module that builds it.

The single list of binding names for the launcher and scripts/install-into-ycsb (each
database's binding: Database.binding, databases/).
"""
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Binding:
    name: str
    db_class: str
    module: Optional[str]  # Maven module of this project; None for YCSB core's own
    # the name scripts/install-into-ycsb registers it under, when it must differ: YCSB 0.17
    # ships its own `jdbc` binding in jdbc-binding/, where users also drop their driver jars
    install_name: Optional[str] = None
    # main class of `bin/ycsb servers <binding>` (versions, settings, schema, servers' samples)
    probe_class: Optional[str] = None


BINDINGS = {
    b.name: b for b in (
        Binding("basic", "site.ycsb.BasicDB", None),
        Binding("cassandra4", "org.ycsbpack.cassandra4.Cassandra4Client", "cassandra4-binding",
                probe_class="org.ycsbpack.cassandra4.ServerProbe"),
        Binding("hbase-salted", "org.ycsbpack.hbase.HBaseSaltedClient", "hbase-salted-binding",
                probe_class="org.ycsbpack.hbase.ServerProbe"),
        Binding("jdbc", "org.ycsbpack.jdbc.JdbcClient", "jdbc-binding", install_name="mysql-jdbc",
                probe_class="org.ycsbpack.jdbc.ServerProbe"),
    )
}

PROJECT_BINDINGS = [b for b in BINDINGS.values() if b.module]
