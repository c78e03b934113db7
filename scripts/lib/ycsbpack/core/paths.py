"""Where things live in a checkout of this project."""
import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[4]
LOCAL_SERVERS = REPO_ROOT / "local-servers"
# the analysis package's directory: on sys.path (ycsbpack/__init__.py) for the shared rules
ANALYSIS = REPO_ROOT / "analysis"


def run_dir(name: str) -> Path:
    """Default run directory of a local server (git-ignored): data, logs and PID files."""
    base = Path(os.environ.get("YCSBPACK_RUN_DIR", REPO_ROOT / "run"))
    return base / name
