"""Without servers: which trials start from saved data, how a plan splits into the load done once
and the measured steps, what a save and a restore copy, and the CPU sets of servers and clients.
(The same on real servers: test_s4_trials_on_own_servers.py.)"""
import os
from pathlib import Path

import pytest
from ycsbpack.core import cpu_sets
from ycsbpack.core.errors import ScriptError
from ycsbpack.databases import database
from ycsbpack.runner import saved_data
from ycsbpack.runner.scenario_args import Settings
from ycsbpack.scenarios import scenario_s4
from ycsbpack.scenarios.scenario_plan import Context
from ycsbpack.servers import saved_state
from ycsbpack.servers.local_servers import LocalCassandra, LocalHBase


def test_the_cores_split_in_halves_servers_first_and_one_core_is_not_split():
    assert cpu_sets.split(frozenset({0, 1})) == cpu_sets.CpuSets(frozenset({0}), frozenset({1}))
    four = cpu_sets.split(frozenset({0, 1, 2, 3}))
    assert four.servers == {0, 1} and four.clients == {2, 3}
    assert cpu_sets.split(frozenset({3})) is None
    assert "servers on CPU 0, clients on CPU 1" in cpu_sets.split(frozenset({0, 1})).describe()


def test_auto_splits_from_four_cores_and_split_or_shared_are_what_they_say():
    two, four = frozenset({0, 1}), frozenset({0, 1, 2, 3})
    assert cpu_sets.choose("auto", two) is None  # one core a side: a fresh JVM warms up slowly
    assert cpu_sets.choose("auto", four).servers == {0, 1}
    assert cpu_sets.choose("split", two).clients == {1}
    assert cpu_sets.choose("shared", four) is None


def test_a_confined_block_restores_this_process_affinity():
    before = os.sched_getaffinity(0)
    with cpu_sets.confined(frozenset({min(before)})):
        assert os.sched_getaffinity(0) == {min(before)}
    assert os.sched_getaffinity(0) == before
    assert cpu_sets.affinity(os.getpid()) == sorted(before)


def _s4_steps(tmp_path, db="cassandra"):
    server = LocalCassandra(tmp_path / "c", 1) if db == "cassandra" else LocalHBase(tmp_path / "h")
    ctx = Context("s4", database(db, server), "local", connection={}, out_dir=tmp_path)
    return [(ctx, st) for st in scenario_s4.plan(ctx)], server


def test_s4_splits_into_its_load_and_the_measured_phases(tmp_path):
    steps, _ = _s4_steps(tmp_path)
    prepare, measured = saved_data.split(steps)
    assert [st.name for _, st in prepare] == ["load"]
    assert [st.name for _, st in measured] == ["update-heavy-threads-8", "short-range-threads-8"]


def test_which_trials_load_and_why(tmp_path):
    _, server = _s4_steps(tmp_path)
    settings = Settings()
    assert saved_data.why_not(["s4"], "cassandra", settings, server) is None
    assert "own servers" in saved_data.why_not(["s4"], "cassandra", settings, None)
    assert "loads in every trial" in saved_data.why_not(["s2"], "cassandra", settings, server)
    assert saved_data.why_not(["s4"], "cassandra", Settings(saved_data=False), server) == \
        "--load-each-trial"
    assert "N-node HBase" in saved_data.why_not(["s4"], "hbase", settings,
                                                LocalHBase(tmp_path / "h", nodes=3))


def test_servers_already_running_in_the_run_directory_load_in_every_trial(tmp_path,
                                                                          monkeypatch):
    """The runner uses such servers as they are (the scenario tests' shared servers, a server
    the user left running): it can neither restart them per trial nor copy their data."""
    _, server = _s4_steps(tmp_path)
    monkeypatch.setattr(LocalCassandra, "pids", lambda self: {"cassandra-node1": os.getpid()})
    assert "already running" in saved_data.why_not(["s4"], "cassandra", Settings(), server)


def test_save_and_restore_copy_the_state_not_the_logs(tmp_path):
    server = LocalCassandra(tmp_path / "run", 1)
    node = server.run_dir / "node1"
    for sub in ("data/ks", "commitlog", "logs"):
        (node / sub).mkdir(parents=True)
    (node / "data/ks/table.db").write_bytes(b"x" * 1000)
    (node / "commitlog/seg.log").write_bytes(b"y" * 10)
    (node / "logs/system.log").write_text("first start")
    (server.run_dir / "cluster.json").write_text("{}")
    saved = saved_state.save(server, tmp_path / "saved")
    assert saved["bytes"] == 1012 and not (tmp_path / "saved/node1/logs").exists()
    # a trial changes the data; the restore brings back exactly what was saved
    (node / "data/ks/table.db").write_bytes(b"changed")
    (node / "data/ks/new.db").write_bytes(b"new")
    restored = saved_state.restore(server, tmp_path / "saved")
    assert (node / "data/ks/table.db").read_bytes() == b"x" * 1000
    assert not (node / "data/ks/new.db").exists()
    assert (node / "logs/system.log").read_text() == "first start"
    assert restored["fingerprint"] == saved["fingerprint"] and server.keep_data


def test_restore_without_saved_data_says_so(tmp_path):
    with pytest.raises(ScriptError, match="no saved data"):
        saved_state.restore(LocalCassandra(tmp_path / "run", 1), tmp_path / "nothing")


def test_a_standalone_hbase_saves_its_data_directory():
    assert LocalHBase(Path("/x")).data_dirs() == ["hbase.json", "data"]
    with pytest.raises(ScriptError, match="standalone"):
        LocalHBase(Path("/x"), nodes=3).data_dirs()
