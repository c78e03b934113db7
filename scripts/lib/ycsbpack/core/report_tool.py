"""The analysis package's `ycsb-report`, run as its own process: a report holds every figure and
chart of a results tree in memory, which the runner need not keep."""
import subprocess
import sys
from pathlib import Path

from .errors import ScriptError
from .paths import command

INCOMPLETE = 3   # ycsb-report's exit status: report written, some input skipped or incomplete


def write_report(results: Path, out: Path, baseline: Path = None) -> Path:
    """Runs ycsb-report on a results directory (against `baseline`: --baseline); returns the
    path of report.html."""
    compared = ["--baseline", str(baseline)] if baseline else []
    proc = subprocess.run([str(command("ycsb-report")), str(results), "-o", str(out)] + compared,
                          capture_output=True, text=True)
    if proc.returncode == INCOMPLETE:
        # Written, but something was not used or is incomplete: pass on what ycsb-report named.
        print(proc.stderr.strip(), file=sys.stderr, flush=True)
        return out / "report.html"
    if proc.returncode != 0:
        raise ScriptError(f"ycsb-report {results} failed (exit {proc.returncode}):\n"
                          f"{(proc.stdout + proc.stderr).strip()[-2000:]}")
    return out / "report.html"
