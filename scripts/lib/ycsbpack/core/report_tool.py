"""The analysis package's `ycsb-report`, in the project's .venv (created as scripts/test does)."""
import subprocess
import sys
from pathlib import Path

from .errors import ScriptError
from .paths import REPO_ROOT

VENV = REPO_ROOT / ".venv"
YCSB_REPORT = VENV / "bin" / "ycsb-report"
INCOMPLETE = 3   # ycsb-report's exit status: report written, some input skipped or incomplete


def ensure_report_tool() -> Path:
    if YCSB_REPORT.exists():
        return YCSB_REPORT
    print("creating .venv with the analysis package (first run only, needs PyPI)...",
          file=sys.stderr, flush=True)
    steps = [[sys.executable, "-m", "venv", str(VENV)],
             [str(VENV / "bin" / "pip"), "install", "-q", "-e", str(REPO_ROOT / "analysis")]]
    for cmd in steps:
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise ScriptError(f"`{' '.join(cmd)}` failed:\n{proc.stderr.strip()[-1500:]}\n"
                              "Install it yourself: python3 -m venv .venv && "
                              ".venv/bin/pip install -e analysis")
    return YCSB_REPORT


def write_report(results: Path, out: Path, baseline: Path = None) -> Path:
    """Runs ycsb-report on a results directory (against `baseline`: --baseline); returns the
    path of report.html."""
    tool = ensure_report_tool()
    compared = ["--baseline", str(baseline)] if baseline else []
    proc = subprocess.run([str(tool), str(results), "-o", str(out)] + compared,
                          capture_output=True, text=True)
    if proc.returncode == INCOMPLETE:
        # Written, but something was not used or is incomplete: pass on what ycsb-report named.
        print(proc.stderr.strip(), file=sys.stderr, flush=True)
        return out / "report.html"
    if proc.returncode != 0:
        raise ScriptError(f"ycsb-report {results} failed (exit {proc.returncode}):\n"
                          f"{(proc.stdout + proc.stderr).strip()[-2000:]}")
    return out / "report.html"
