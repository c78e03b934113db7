"""The properties of a phase's clients: its -P files merged, and the -p pairs of a command."""
from pathlib import Path
from typing import Dict, List


def read_property_files(files: List[str]) -> Dict[str, str]:
    """The -P files merged in order, as YCSB reads them (java.util.Properties, simplified)."""
    props = {}
    for f in files:
        for raw in Path(f).read_text().splitlines():
            line = raw.strip()
            if not line or line[0] in "#!":
                continue
            sep = min((i for i in (line.find("="), line.find(":")) if i > 0), default=-1)
            if sep > 0:
                props[line[:sep].strip()] = line[sep + 1 :].strip()
    return props


def ycsb_props(cmd: list) -> Dict[str, str]:
    """The -p key=value pairs of a bin/ycsb command line."""
    props = {}
    for i, a in enumerate(cmd[:-1]):
        if a == "-p" and "=" in cmd[i + 1]:
            k, v = cmd[i + 1].split("=", 1)
            props[k] = v
    return props
