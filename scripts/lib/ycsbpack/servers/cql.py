"""CQL on one node, through the Python driver for Cassandra (cassandra-driver): a schema
statement (the runner drops a table between S1's table variants and truncates tables before a
trial on live servers) and the probe `cassandra-local` waits on (does the node serve CQL?).

Each use opens one short-lived session to that node only (no other node is contacted, no schema
or token metadata is read) and closes it. The driver is imported on first use: it takes a
quarter of a second to load, which the commands that need no CQL do not pay. Its log records
(a refused connection is a warning with a traceback) go nowhere: what went wrong is the
sentence of CqlError.
"""
import logging

from ..core.errors import ScriptError

CONNECT_TIMEOUT_S = 5.0

logging.getLogger("cassandra").addHandler(logging.NullHandler())
logging.getLogger("cassandra").propagate = False


class CqlError(ScriptError):
    """The node refused the statement, or could not be reached; the message says which."""


def _cluster(host: str, port: int, connect_timeout: float, request_timeout: float):
    """A driver Cluster that talks to host:port only, with the driver's newest protocol the
    node speaks (v5 on Cassandra 5.0)."""
    from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
    from cassandra.policies import WhiteListRoundRobinPolicy

    only_this_node = ExecutionProfile(load_balancing_policy=WhiteListRoundRobinPolicy([host]),
                                      request_timeout=request_timeout)
    return Cluster([host], port=port, execution_profiles={EXEC_PROFILE_DEFAULT: only_this_node},
                   connect_timeout=connect_timeout, control_connection_timeout=connect_timeout,
                   schema_metadata_enabled=False, token_metadata_enabled=False)


def execute(host: str, port: int, statement: str, timeout: float = 60.0) -> None:
    """Runs `statement` on host:port; returns when the node answered (and, for a schema
    change, once the nodes agree on the schema, as the driver waits for). Raises CqlError with
    one sentence naming the statement and the node."""
    from cassandra import AuthenticationFailed, DriverException
    from cassandra.cluster import NoHostAvailable
    from cassandra.protocol import ErrorMessage  # a server error the driver does not translate

    cluster = _cluster(host, port, min(CONNECT_TIMEOUT_S, timeout), timeout)
    try:
        session = cluster.connect()
        session.execute(statement)
    except NoHostAvailable as e:
        reasons = list(e.errors.values())
        if any(isinstance(r, AuthenticationFailed) for r in reasons):
            raise CqlError(f"{host}:{port} requires authentication; run `{statement}` "
                           "yourself (cqlsh), then start the runner again") from e
        why = "; ".join(str(r) for r in reasons) or str(e)
        raise CqlError(f"cannot run `{statement}` on {host}:{port}: {why}") from e
    except (DriverException, ErrorMessage, OSError) as e:
        raise CqlError(f"`{statement}` failed on {host}:{port}: {e}") from e
    finally:
        cluster.shutdown()


def cql_answers(host: str, port: int, timeout: float = 2.0) -> bool:
    """True when host:port serves CQL: a session opens (the driver's OPTIONS and STARTUP, then
    its queries of system.local and system.peers are answered). A listening port alone is not
    enough: Cassandra binds it before it can serve requests."""
    cluster = _cluster(host, port, timeout, timeout)
    try:
        cluster.connect()
        return True
    except Exception:  # noqa: BLE001 - any failure to connect means: not (yet) serving CQL
        return False
    finally:
        cluster.shutdown()
