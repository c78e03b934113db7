"""How a phase becomes a bin/ycsb command and a metadata record."""
from pathlib import Path

from ycsbpack.runner.phase_runner import Phase, read_property_files, ycsb_command, ycsb_props


def test_property_files_merge_in_order_like_ycsb(tmp_path):
    a = tmp_path / "a.properties"
    b = tmp_path / "b.properties"
    a.write_text("# comment\nrecordcount=100\nfieldcount : 10\n! also a comment\n")
    b.write_text("recordcount=20\nworkload=site.ycsb.workloads.CoreWorkload\n")
    assert read_property_files([str(a), str(b)]) == {
        "recordcount": "20", "fieldcount": "10", "workload": "site.ycsb.workloads.CoreWorkload"}


def test_every_phase_writes_hdr_logs_and_status_lines(tmp_path):
    phase = Phase("s4", "run", "cassandra", "cassandra4", "run", ["w.properties"],
                  {"maxexecutiontime": "30"}, threads=8, target=1000)
    cmd = ycsb_command(phase, tmp_path / "run")
    props = ycsb_props(cmd)
    assert props["hdrhistogram.fileoutput"] == "true"
    assert props["hdrhistogram.output.path"] == str(tmp_path / "run" / "hdr" / "client-0-")
    assert props["maxexecutiontime"] == "30"
    assert cmd[1:3] == ["run", "cassandra4"]
    assert cmd[-5:] == ["-s", "-threads", "8", "-target", "1000"]
    assert Path(cmd[0]).name == "ycsb"
