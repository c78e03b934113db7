"""`benchmarks/parse_speed.py` runs end to end on small grown files and prints its table (a
script, not a test of speed: only that every row is there with its figures)."""

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "parse_speed.py"
ROW = re.compile(
    r"^(status|raw)\s+(.+?)\s+(\d+\.\d)\s+(\d+\.\d\d)\s+(\d+\.\d\d)\s+(\d+)\s+(\d+\.\d\d)$"
)


def test_parse_speed_prints_every_row_before_and_after(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--mb", "1", "--keep", str(tmp_path), "--before", "HEAD"],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr + proc.stdout
    rows = {(m[1], m[2]): m.groups()[2:] for m in map(ROW.match, proc.stdout.splitlines()) if m}
    tools = ["tool parse (HEAD)", "ycsb-report (HEAD)", "tool parse", "ycsb-report",
             "one regex", "grep -c"]
    assert sorted(rows) == sorted((kind, t) for kind in ("status", "raw") for t in tools)
    for (kind, tool), (speed, cpu, system, peak, ratio) in rows.items():
        assert float(speed) > 0 and int(peak) > 0 and float(ratio) > 0, (kind, tool)
        assert 0 <= float(system) <= float(cpu), (kind, tool)
        if tool != "grep -c":   # (grep reads 1 MB in less than 0.005 CPU-s)
            assert float(cpu) > 0, (kind, tool)
    for kind in ("status", "raw"):   # the files each report wrote, before and after
        for suffix in ("-before", ""):
            assert re.search(rf"^report-{kind}{suffix}, largest files: \S+ \d", proc.stdout,
                             re.M), proc.stdout
    # each of today's tool rows against the targets, absolute and relative (1 MB
    # files: no memory target, and the verdicts are whatever this machine gives)
    verdicts = re.findall(
        r"^(status|raw) +(tool parse|ycsb-report) +(\d+\.\d) MB/CPU-s >= (100|50): (met|NOT met); "
        r"(\d+\.\d\d)x >= (0\.91|0\.45)x: (met|NOT met)$", proc.stdout, re.M)
    assert sorted((v[0], v[1]) for v in verdicts) == sorted(
        (kind, t) for kind in ("status", "raw") for t in ("tool parse", "ycsb-report")), proc.stdout
    for kind, tool, speed, target, met, ratio, want, met_relative in verdicts:
        assert rows[(kind, tool)][0] == speed and rows[(kind, tool)][4] == ratio
        # (judged on the unrounded figure: a printed figure within rounding of its target
        # may show either verdict)
        if abs(float(speed) - float(target)) > 0.05:
            assert (met == "met") == (float(speed) >= float(target))
        if abs(float(ratio) - float(want)) > 0.005:
            assert (met_relative == "met") == (float(ratio) >= float(want))
    # the files were grown in --keep and are there for the next run
    assert (tmp_path / "1mb" / "client-0.err").stat().st_size > 500_000
    assert (tmp_path / "1mb" / "client-0.out").stat().st_size > 500_000
