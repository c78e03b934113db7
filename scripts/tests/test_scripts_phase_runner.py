"""How a phase becomes a bin/ycsb command and a metadata record."""
import subprocess
import sys
from pathlib import Path

from ycsbpack.phases import cpu
from ycsbpack.phases.phase_runner import Phase, with_part, ycsb_command
from ycsbpack.phases.properties import read_property_files, ycsb_props


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


def test_a_processs_cpu_counts_its_ended_children_only_when_asked():
    """The HBase probe's facts are read by a child JVM that exits (HBaseWatch): the probe's cost
    counts it (children=True); a server's CPU is its own."""
    burn = "x = 0\nfor i in range(4_000_000): x += i"
    parent = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys; subprocess.run([sys.executable, '-c', "
         f"{burn!r}]); print('ended', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout.readline().strip() == "ended"
        own, with_children = cpu.process_cpu_s(parent.pid), cpu.process_cpu_s(parent.pid, True)
    finally:
        parent.stdin.close()
        parent.wait()
    assert with_children - own >= 0.1, (own, with_children)


def test_a_status_line_shows_the_part_that_runs_instead_of_ycsbs_estimate():
    """A time-bound phase never reaches YCSB's operation count: its "est completion" (a real
    line of a capacity step's client-0.err) gives way to the part that runs, the rest kept."""
    line = ("2026-11-28 18:39:47:179 1 sec: 0 operations; est completion in 106751991167300 days "
            "15 hours [READ: Count=3]\n")
    shown = with_part(line, "warm-up 1 s of at most 120 s")
    assert shown == ("2026-11-28 18:39:47:179 1 sec: 0 operations; [warm-up 1 s of at most 120 s] "
                     "[READ: Count=3]\n")
    assert with_part("no estimate here\n", "x") == "no estimate here\n"
    # an estimate at the end of the line (no measurements yet): the line still ends
    assert with_part("t 1 sec: 5 operations; 5 current ops/sec; est completion in 3 minutes\n",
                     "x") == "t 1 sec: 5 operations; 5 current ops/sec; [x]\n"
