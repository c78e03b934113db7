"""Classpaths resolved from Maven Central through the project's own small POMs."""
import shutil
import subprocess
import sys
from pathlib import Path

from .errors import ScriptError


def mvn() -> str:
    found = shutil.which("mvn")
    if not found:
        raise ScriptError("Maven (mvn) is not on the PATH: install it (e.g. apt-get install maven)")
    return found


def classpath(pom: Path, what: str) -> list:
    """Jars of the POM's dependencies, resolved once and cached in its target/ directory."""
    cache = pom.parent / "target" / "classpath.txt"
    if not cache.exists() or cache.stat().st_mtime < pom.stat().st_mtime:
        print(f"resolving {what} from Maven Central (the first time downloads it)...",
              file=sys.stderr, flush=True)
        cache.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(
            [mvn(), "-q", "-B", "-f", str(pom), "dependency:build-classpath",
             f"-Dmdep.outputFile={cache}"],
            capture_output=True, text=True)
        if proc.returncode != 0 or not cache.exists():
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
            cache.unlink(missing_ok=True)
            raise ScriptError(f"could not resolve {what} with {pom}:\n{tail}")
    jars = [j for j in cache.read_text().strip().split(":") if j]
    missing = [j for j in jars if not Path(j).exists()]
    if missing:
        cache.unlink()
        return classpath(pom, what)
    return jars
