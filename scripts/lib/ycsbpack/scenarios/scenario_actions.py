"""Actions between phases: drop a Cassandra table (S1's table variants), a major compaction,
and the same on-disk state for every trial after a load (settle_after_load)."""
from typing import Optional

from ..servers import cql
from .scenario_plan import Action, Context

NATIVE_PORT = 9042


def _first_host(ctx: Context):
    host = ctx.connection.get("hosts", "127.0.0.1").split(",")[0].strip()
    name, _, port = host.partition(":")
    return name, int(port or ctx.connection.get("port", NATIVE_PORT))


def drop_table(ctx: Context, keyspace: str, table: str) -> Action:
    """The next phase recreates it (cassandra.createschema=true) with the variant's options."""
    statement = f"DROP TABLE IF EXISTS {keyspace}.{table}"

    def run():
        host, port = _first_host(ctx)
        cql.execute(host, port, statement)  # CqlError: one sentence naming statement and node
    return Action(f"drop {keyspace}.{table}", statement, run, estimate_s=3)


def major_compaction(ctx: Context, keyspace: str, table: str) -> Action:
    """A flush and major compaction on the local servers (blocks until done), as S1 does
    before reads."""
    return Action(f"compact {keyspace}.{table}",
                  f"{ctx.database.compaction(keyspace, table)} (forced major compaction)",
                  lambda: ctx.database.compact(keyspace, table), estimate_s=12)


def settle_after_load(ctx: Context, table: str = "usertable") -> Optional[Action]:
    """After a load, flush the memtables (memstores) and major-compact the table, so that each
    trial measures the same on-disk layout rather than whatever the load's flushes and the
    compactions still running left (a source of spread between trials). Local servers only:
    on your own cluster the runner cannot run nodetool or HBase's admin for you. None for a
    database without a compaction the runner drives."""
    keyspace = ctx.merged([]).get("cassandra.keyspace", "ycsb")
    what = ctx.database.compaction(keyspace, table)
    if what is None:
        return None

    def run():
        if ctx.local:
            ctx.database.compact(keyspace, table)
        else:
            print(f"  (not settled: {ctx.database.name} is not a local server of this run; flush "
                  "and compact it yourself for the same on-disk state in every trial)", flush=True)
    return Action(f"settle {table}", f"{what}: every trial reads the same on-disk layout", run,
                  estimate_s=10)
