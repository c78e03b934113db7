"""The runner's metadata.json writer against the reader's declared layout (one definition).

phase_runner writes the layout without importing ycsb_analysis.layout; this test holds the
two together: the keys written are exactly the keys the analysis package declares.
"""
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from ycsbpack.databases import database
from ycsbpack.phases.phase_metadata import phase_metadata
from ycsbpack.phases.phase_runner import Phase, client_split, ycsb_command
from ycsbpack.phases.properties import read_property_files
from ycsbpack.scenarios.catalogue import SCENARIOS
from ycsbpack.scenarios.scenario_plan import Context
from ycsbpack.servers.local_servers import LocalCassandra

layout = pytest.importorskip("ycsb_analysis.layout")
loader = pytest.importorskip("ycsb_analysis.loader")

T0 = datetime(2026, 11, 24, 1, 0, tzinfo=timezone.utc)


def written_metadata(scenario, clients, tmp_path):
    server = LocalCassandra(Path("/nonexistent"), SCENARIOS[scenario].CASSANDRA_NODES)
    ctx = Context(scenario, database("cassandra", server), "ci", clients, {"hosts": "127.0.0.1"},
                  out_dir=tmp_path)
    phase = next(s for s in SCENARIOS[scenario].plan(ctx)
                 if isinstance(s, Phase) and s.clients == clients)
    commands = []
    for i in range(phase.clients):
        merged = read_property_files(phase.files_of(i))
        merged.update(phase.properties)
        commands.append(ycsb_command(phase, tmp_path / phase.directory, i,
                                     client_split(phase.command, merged, phase.clients, i)))
    return phase, phase_metadata(phase, commands, [0] * clients, T0, T0)


def test_one_client_phase_writes_exactly_the_declared_keys(tmp_path):
    phase, meta = written_metadata("s4", 1, tmp_path)
    expected = set(layout.METADATA_KEYS)
    if phase.phase_group:
        expected |= set(layout.GROUP_METADATA_KEYS)
    assert set(meta) == expected


def test_several_clients_add_exactly_the_declared_multi_client_keys(tmp_path):
    phase, meta = written_metadata("s3", 2, tmp_path)
    assert phase.phase_group, "S3's sweep phases belong to a group"
    assert set(meta) == (set(layout.METADATA_KEYS) | set(layout.GROUP_METADATA_KEYS)
                         | set(layout.MULTI_CLIENT_METADATA_KEYS))
    assert set(layout.REQUIRED_METADATA_KEYS) <= set(meta)


def test_the_loader_reads_what_the_writer_wrote(tmp_path):
    phase, meta = written_metadata("s3", 2, tmp_path)
    d = tmp_path / "phase"
    d.mkdir()
    (d / layout.METADATA_FILE).write_text(json.dumps(meta))
    with pytest.raises(loader.UnreadableInput, match="no client-<i>.out files"):
        loader.load_phase_dir(d)   # the metadata itself was accepted; only the outputs miss


def test_a_capacity_step_adds_exactly_the_declared_capacity_key(tmp_path):
    from ycsbpack.runner.capacity import CapacitySearch, parse_objective
    phase, _ = written_metadata("s4", 1, tmp_path)
    step = CapacitySearch(phase, parse_objective("p99<=10ms"), 2).step_phase(1, 500.0)
    meta = phase_metadata(step, [ycsb_command(step, tmp_path / step.directory, 0, {})], [0],
                          T0, T0)
    assert set(meta) == (set(layout.METADATA_KEYS) | set(layout.GROUP_METADATA_KEYS)
                         | set(layout.CAPACITY_METADATA_KEYS))
    assert meta["target"] == 500 and meta["capacity"]["step"] == 1


def test_every_version_a_phase_records_is_resolved_and_the_client_libraries_are_the_jars_that_ran(
        tmp_path):
    phase, meta = written_metadata("s4", 1, tmp_path)
    assert "${" not in json.dumps(meta), "an unresolved Maven property in metadata.json"
    libraries = meta["provenance"]["libraries"]
    # the pins are what the build resolved: the driver jar on the binding's classpath
    assert libraries["java-driver-core"] == meta["versions"]["cassandra_java_driver"]
    assert meta["provenance"]["jdk"]["java.version"].startswith("17")
