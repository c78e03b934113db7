"""Where things live in a checkout of this project."""
import os
import sys
from pathlib import Path

# the pack is installed editable (pyproject.toml), so its modules stay in the checkout
REPO_ROOT = Path(__file__).resolve().parents[4]
LOCAL_SERVERS = REPO_ROOT / "local-servers"
# what `mvn package` builds: YCSB core and its dependencies (ycsb-runtime), and each binding's
# release directory (binding_release_dir)
RUNTIME_LIB = REPO_ROOT / "ycsb-runtime" / "target" / "lib"


def binding_release_dir(module: str, name: str) -> Path:
    """The binding `name`'s release as its Maven module builds it: conf/ and lib/."""
    return REPO_ROOT / module / "target" / f"{name}-binding"


def command(name: str) -> Path:
    """One of the pack's console scripts (pyproject.toml: `ycsb-report`, `cassandra-local`,
    ...) in the environment that runs this Python: .venv/bin/<name>."""
    return Path(sys.executable).parent / name


def run_dir(name: str) -> Path:
    """Default run directory of a local server (git-ignored): data, logs and PID files."""
    base = Path(os.environ.get("YCSBPACK_RUN_DIR", REPO_ROOT / "run"))
    return base / name
