"""The scenario runner's results layout, plain files, and what is wrong with bad input."""

import json
import shutil

import pytest
from conftest import RESULTS, SEED, phase_dir
from ycsb_analysis.errors import UnreadableInput
from ycsb_analysis.loader import load


def test_every_phase_of_the_layout_is_a_run_with_its_clients_and_hdr_logs():
    runs = load([str(RESULTS)])
    metas = sorted(RESULTS.rglob("metadata.json"))
    assert len(runs) == len(metas)
    for run in runs:
        assert len(run.clients) == run.metadata["clients"]
        assert not run.warnings
        for c in run.clients:
            assert c.output.has_report and c.output.status_entries.height
            assert c.hdr_logs, f"{run.path} client {c.index} has no .hdr logs"
    assert [r.metadata["phase_index"] for r in runs] == sorted(
        r.metadata["phase_index"] for r in runs
    )


def test_a_single_phase_directory_loads_alone():
    (run,) = load([str(phase_dir("run-clients-3"))])
    assert run.phase == "run-clients-3" and len(run.clients) == 3


def test_plain_files_take_their_label_and_one_client_per_output():
    runs = load(
        [f"hb={SEED / 'hbase-insert-4-clients.txt'}", str(SEED / "cassandra-insert-1-client.txt")]
    )
    by_phase = {r.phase: r for r in runs}
    assert len(by_phase["hb"].clients) == 4
    assert len(by_phase["cassandra-insert-1-client"].clients) == 1


def _copy_phase(tmp_path, phase="run-threads-1"):
    dst = tmp_path / "res" / "s" / "t" / phase
    shutil.copytree(phase_dir(phase), dst)
    return dst


def test_metadata_without_required_keys_is_an_error_naming_the_file(tmp_path):
    d = _copy_phase(tmp_path)
    meta = json.loads((d / "metadata.json").read_text())
    del meta["threads"]
    (d / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(UnreadableInput, match="threads") as e:
        load([str(tmp_path / "res")])
    assert e.value.path.endswith("metadata.json")


def test_a_client_without_a_final_report_keeps_its_status_lines_and_is_named_incomplete(tmp_path):
    d = _copy_phase(tmp_path)
    (d / "client-0.out").write_text("Exception in thread \"main\" java.lang.NoClassDefFoundError\n")
    (run,) = load([str(tmp_path / "res")])
    (client,) = run.clients
    assert not client.output.has_report and client.output.status_entries.height
    assert any("client-0.out" in u and "final figures are missing" in u for u in run.unused)


def test_a_directory_without_metadata_is_an_error(tmp_path):
    with pytest.raises(UnreadableInput, match="metadata.json"):
        load([str(tmp_path)])


def test_a_missing_path_is_an_error():
    with pytest.raises(UnreadableInput, match="does not exist"):
        load(["/nonexistent/ycsb.out"])
