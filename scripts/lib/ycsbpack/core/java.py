"""Finding a JDK 17: Cassandra 5.0 and HBase 2.6 (Hadoop 3.4) run on it; JDK 25 breaks HBase."""
import glob
import os
import re
import shutil
import subprocess
from pathlib import Path

from .errors import ScriptError

WANTED_MAJOR = 17


def _major(java: str) -> int:
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30).stderr
    except (OSError, subprocess.TimeoutExpired):
        return -1
    m = re.search(r'version "(\d+)', out)
    return int(m.group(1)) if m else -1


def java17() -> str:
    """Path of a java 17 binary: $JAVA17_HOME, $JAVA_HOME, the PATH, then /usr/lib/jvm."""
    candidates = []
    for var in ("JAVA17_HOME", "JAVA_HOME"):
        if os.environ.get(var):
            candidates.append(str(Path(os.environ[var]) / "bin" / "java"))
    if shutil.which("java"):
        candidates.append(shutil.which("java"))
    candidates += sorted(glob.glob("/usr/lib/jvm/*17*/bin/java"))
    for c in candidates:
        if os.path.exists(c) and _major(c) == WANTED_MAJOR:
            return c
    raise ScriptError(
        "no JDK 17 found (looked at $JAVA17_HOME, $JAVA_HOME, PATH and /usr/lib/jvm): "
        "install one (e.g. apt-get install openjdk-17-jdk-headless) or set JAVA17_HOME")
