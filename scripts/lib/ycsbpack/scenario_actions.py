"""Actions between phases: drop a Cassandra table (S1's table variants), a major compaction."""

from .cql_schema import CqlError, execute
from .errors import ScriptError
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
        try:
            execute(host, port, statement)
        except CqlError as e:
            raise ScriptError(str(e))
    return Action(f"drop {keyspace}.{table}", statement, run, estimate_s=3)


def major_compaction(ctx: Context, keyspace: str, table: str) -> Action:
    """`nodetool compact` on every local node (blocks until done), as S1 does before reads."""
    def run():
        for node in range(1, ctx.cassandra.nodes + 1):
            ctx.cassandra.nodetool(node, ["flush", keyspace, table])
            ctx.cassandra.nodetool(node, ["compact", keyspace, table])
    return Action(f"compact {keyspace}.{table}",
                  f"nodetool flush + compact {keyspace} {table} (forced major compaction)", run,
                  estimate_s=12)
