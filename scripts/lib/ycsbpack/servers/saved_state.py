"""Every trial from the same data: the stopped local servers' state, saved once after the load
and copied back before each trial.

A trial that loads its own data measures whatever that load, its flushes and the compactions
still running left behind, and short-range scans then depend on how long update-heavy ran
before them. So the runner loads once per database (and settles: flush, major compaction),
stops the servers, saves their data directories here, and starts each trial's fresh server
processes on a copy of them (the issue's "local" case; on your own cluster the databases' own
snapshot and restore do this, which this module does not drive).

What is saved is each server's own list (LocalCassandra.data_dirs, LocalHBase.data_dirs):
data, commit logs/WALs, caches, and the file that records the cluster's shape; never logs.
"""
import hashlib
import shutil
import time
from pathlib import Path

from ..core.errors import ScriptError


def _copy(src: Path, dest: Path) -> None:
    if src.is_dir():
        shutil.copytree(src, dest, symlinks=True)
    elif src.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest)


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in _files(root))


def save(server, dest: Path) -> dict:
    """Copies the stopped `server`'s data directories to `dest` (replacing it); returns what was
    saved, for metadata.json."""
    if server.pids():
        raise ScriptError(f"cannot save the data in {server.run_dir}: its servers still run "
                          "(the runner saves only after stopping them)")
    t0 = time.monotonic()
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for rel in server.data_dirs():
        _copy(server.run_dir / rel, dest / rel)
    return {"saved_in": str(dest), "bytes": _size(dest), "fingerprint": fingerprint(_files(dest)),
            "copy_s": round(time.monotonic() - t0, 1)}


def restore(server, src: Path) -> dict:
    """Replaces the stopped `server`'s data directories with a copy of `src`, and marks it to
    start on them (keep_data); returns what was restored, for metadata.json."""
    if not src.is_dir():
        raise ScriptError(f"no saved data in {src} to start a trial from")
    t0 = time.monotonic()
    for rel in server.data_dirs():
        target = server.run_dir / rel
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink(missing_ok=True)
        _copy(src / rel, target)
    server.keep_data = True
    return {"from": str(src), "fingerprint": fingerprint(_files(src)),
            "copy_s": round(time.monotonic() - t0, 1)}


def fingerprint(files) -> str:
    """A short hash of saved files' names (their last three path parts) and sizes: trials whose
    start states have the same fingerprint started from the same data (metadata.json
    "start_state"). The one definition for saved directories and live snapshots (live_state)."""
    h = hashlib.sha256()
    for p in sorted(files):
        h.update(f"{'/'.join(p.parts[-3:])}:{p.stat().st_size}\n".encode())
    return h.hexdigest()[:16]


def _files(root: Path) -> list:
    return [p for p in root.rglob("*") if p.is_file()]
