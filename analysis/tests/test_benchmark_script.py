"""`benchmarks/parse_speed.py` runs end to end on small grown inputs and prints its table and
its verdicts (a script, not a test of speed: only that every row is there with its figures)."""

import re
import subprocess
import sys
from pathlib import Path

ANALYSIS = Path(__file__).resolve().parents[1]
SCRIPT = ANALYSIS / "benchmarks" / "parse_speed.py"
ROW = re.compile(r"^((?:raw|status) .+?)\s+(before|after)\s+(\d+\.\d\d)\s+(\d+)$")


def test_parse_speed_prints_before_and_after_of_each_input_and_judges_them(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--raw-mb", "1", "--clients", "2", "--hours", "0.05",
         "--before", str(ANALYSIS), "--keep", str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr + proc.stdout
    rows = {(m[1], m[2]): (float(m[3]), int(m[4]))
            for m in map(ROW.match, proc.stdout.splitlines()) if m}
    kinds = {kind for kind, _ in rows}
    assert len(kinds) == 2 and set(rows) == {(k, t) for k in kinds for t in ("before", "after")}
    assert all(cpu > 0 and peak > 0 for cpu, peak in rows.values())
    for kind in kinds:
        verdict = re.search(rf"^{re.escape(kind)}: after/before CPU (\d+\.\d\d)x <= 2x: "
                            r"(met|NOT met); peak (\d+) MiB <= 1024: (met|NOT met)$",
                            proc.stdout, re.M)
        assert verdict, proc.stdout
        # the verdict's ratio is of the unrounded CPU times; the rows print them to 0.01 s
        after, before = rows[(kind, "after")][0], rows[(kind, "before")][0]
        low, high = (after - 0.005) / (before + 0.005), (after + 0.005) / (before - 0.005)
        assert low - 0.005 <= float(verdict[1]) <= high + 0.005, (verdict[0], after, before)
    assert (tmp_path / "inputs" / "raw-1mb.out").stat().st_size > 900_000
    assert len(list((tmp_path / "inputs").glob("status-*/run/client-*.err"))) == 2
