"""scripts/cassandra-local decisions that need no running Cassandra."""
import socket
import time

import pytest
from ycsbpack.core.errors import ScriptError
from ycsbpack.servers import cassandra_local
from ycsbpack.servers.cql import CqlError, cql_answers, execute


def test_three_nodes_get_the_evenly_spaced_tokens_of_local_servers_md():
    assert cassandra_local.node_tokens(3) == [
        -9223372036854775808, -3074457345618258603, 3074457345618258602]


def test_node_addresses_and_jmx_ports_follow_node1(tmp_path):
    c = cassandra_local.Cluster(tmp_path, 3, "127.0.0.1", 7199, "1G")
    assert [c.address(i) for i in (1, 2, 3)] == ["127.0.0.1", "127.0.0.2", "127.0.0.3"]
    assert [c.jmx(i) for i in (1, 2, 3)] == [7199, 7299, 7399]
    assert c.hosts() == "127.0.0.1,127.0.0.2,127.0.0.3"


def test_a_port_held_by_another_process_is_refused_by_name(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.43", 9042))
        s.listen()
        c = cassandra_local.Cluster(tmp_path, 1, "127.0.0.43", 7243, "1G")
        with pytest.raises(ScriptError) as e:
            cassandra_local._refuse_taken_ports(c, [1])
    assert "something else already listens on 127.0.0.43:9042 (node1 CQL)" in str(e.value)


def test_a_listener_that_does_not_speak_cql_is_not_ready():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert cql_answers("127.0.0.1", port, timeout=0.5) is False


def test_a_statement_for_a_node_that_is_not_there_is_one_sentence_naming_both():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: refused
        with pytest.raises(CqlError) as e:
            execute("127.0.0.1", port, "DROP TABLE IF EXISTS ycsb.history")
    assert isinstance(e.value, ScriptError)  # the scripts print it as one line
    message = str(e.value)
    assert message.startswith(
        f"cannot run `DROP TABLE IF EXISTS ycsb.history` on 127.0.0.1:{port}: ")
    assert "Connection refused" in message and "\n" not in message


def test_a_statement_for_a_listener_that_does_not_speak_cql_gives_up_within_its_timeout():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        t0 = time.monotonic()
        with pytest.raises(CqlError) as e:
            execute("127.0.0.1", port, "TRUNCATE ycsb.usertable", timeout=1)
    assert time.monotonic() - t0 < 10
    assert f"cannot run `TRUNCATE ycsb.usertable` on 127.0.0.1:{port}: " in str(e.value)


def test_addresses_outside_loopback_are_refused(tmp_path):
    with pytest.raises(ScriptError) as e:
        cassandra_local.main(["status", "--run-dir", str(tmp_path), "--first-address", "10.1.2.3"])
    assert "--first-address 10.1.2.3: local servers listen on loopback only" in str(e.value)
