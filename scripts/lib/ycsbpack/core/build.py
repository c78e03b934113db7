"""Building this project's Maven modules when their output is missing or older than the sources."""
import subprocess
import sys

from . import maven
from .bindings import PROJECT_BINDINGS
from .errors import ScriptError
from .paths import REPO_ROOT, RUNTIME_LIB, binding_release_dir


def _stale() -> list:
    missing = []
    if not RUNTIME_LIB.is_dir():
        missing.append("ycsb-runtime")
    for b in PROJECT_BINDINGS:
        lib = binding_release_dir(b.module, b.name) / "lib"
        jars = list(lib.glob(f"{b.module}-*.jar"))
        sources = [p for p in (REPO_ROOT / b.module / "src" / "main").rglob("*") if p.is_file()]
        sources += [p for p in (REPO_ROOT / "binding-common" / "src" / "main").rglob("*")
                    if p.is_file()]
        newest = max((p.stat().st_mtime for p in sources), default=0)
        # the dependency list is what install-into-ycsb declares in a source checkout
        listing = REPO_ROOT / b.module / "target" / "runtime-dependencies.txt"
        if not jars or jars[0].stat().st_mtime < newest or not listing.exists():
            missing.append(b.module)
    return missing


def ensure_built() -> None:
    stale = _stale()
    if not stale:
        return
    print(f"building {', '.join(stale)} (mvn -q -DskipTests package)...", file=sys.stderr,
          flush=True)
    proc = subprocess.run([maven.mvn(), "-q", "-B", "-ntp", "-DskipTests", "package"],
                          cwd=REPO_ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
        raise ScriptError(f"the build failed (mvn -DskipTests package in {REPO_ROOT}):\n{tail}")
