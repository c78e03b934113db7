"""MySQL or MariaDB through the jdbc binding: the relational side of S1 (the anti-fraud report
measured MySQL), on a local MariaDB (scripts/mysql-local) or your server (--mysql-url, a
db.url). It runs S1 only; the runner drives no compaction and no fault on it, and its
durability is not described.
"""
from ..servers.local_servers import LocalMySQL
from .base import Database


class MySQL(Database):
    """MySQL/MariaDB: a local MariaDB, or your server given as a JDBC URL."""
    name = "mysql"
    title = "MySQL"
    binding = "jdbc"
    hosts_property = "db.url"
    takes_hosts = False  # --mysql-url
    start_s = {1: 20}
    scenarios = ("s1",)  # the anti-fraud report's comparison

    def local_server(self, run_dir, nodes, settings, cpus=None) -> LocalMySQL:
        return LocalMySQL(run_dir, settings.mysql_port)
