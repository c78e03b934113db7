"""Where things live in a checkout of this project."""
import os
import sys
from pathlib import Path

# the pack is installed editable (pyproject.toml), so its modules stay in the checkout
REPO_ROOT = Path(__file__).resolve().parents[4]
LOCAL_SERVERS = REPO_ROOT / "local-servers"


def command(name: str) -> Path:
    """One of the pack's console scripts (pyproject.toml: `ycsb-report`, `cassandra-local`,
    ...) in the environment that runs this Python: .venv/bin/<name>."""
    return Path(sys.executable).parent / name


def run_dir(name: str) -> Path:
    """Default run directory of a local server (git-ignored): data, logs and PID files."""
    base = Path(os.environ.get("YCSBPACK_RUN_DIR", REPO_ROOT / "run"))
    return base / name
