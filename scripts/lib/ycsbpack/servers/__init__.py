"""Local databases on loopback: scripts/cassandra-local, scripts/hbase-local (standalone or a
cluster on HDFS), scripts/mysql-local, and the set of them a scenario run starts
(local_servers.py)."""
