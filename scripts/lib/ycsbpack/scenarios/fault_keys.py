"""Which acknowledged writes a fault lost, key by key.

Every fault phase's traffic and its read-back run with `ycsbpack.keylog` (binding-common's
KeyLog): each client appends to `keys-not-done.tsv` in its phase's directory one line per batch
that was not all done, `<operation> <outcome> <status> <keys>`: `failed` (a write not
acknowledged, a read that failed), `missing` (a read that did not find the key), `unknown` (a
batch with failed records that the binding did not name: any of its keys may have been done).
A lost write is a key the read-back did not find that no write phase left unacknowledged:
exact, where a count (acknowledged - found) is not: a write that timed out but landed is found
too, and hides a lost one from the count.
"""
import re
from pathlib import Path
from typing import Dict, List, Set

from ..core.errors import ScriptError
from ..databases.fault_checks import READ

KEY_LOG = "keys-not-done.tsv"
PROPERTY = "ycsbpack.keylog"
OUTCOMES = ("failed", "missing", "unknown")
# the verdict lists this many lost keys (the first ones, in key order); its count is exact
LISTED = 100


def with_key_log(phase, out_dir: Path):
    """`phase` with its clients appending to the key log in its own directory."""
    phase.properties[PROPERTY] = str(Path(out_dir).resolve() / phase.directory / KEY_LOG)
    return phase


def read(path: Path, reads: bool) -> Dict[str, Set[str]]:
    """The keys of one key log by outcome: of its batch reads (`reads`) or of its writes (the
    fault traffic reads loaded keys too: a read that failed is not a write)."""
    keys: Dict[str, Set[str]] = {o: set() for o in OUTCOMES}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split("\t")
        if len(parts) != 4 or parts[1] not in keys:
            raise ScriptError(f"{path}, line {n}: not a key log line (<operation> "
                              f"<{'|'.join(OUTCOMES)}> <status> <keys>): {line[:120]!r}; the "
                              "client that wrote it is not this pack's")
        if (parts[0] == READ) == reads:
            keys[parts[1]].update(parts[3].split())
    return keys


def _key_order(key: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", key)]


def lost(write_dirs: List[Path], back_dir: Path) -> dict:
    """The lost keys of a fault whose write phases ran in `write_dirs` and whose read-back ran
    in `back_dir`, with the figures they rest on; `judged` False (and why) without the logs."""
    absent = [str(d / KEY_LOG) for d in [*write_dirs, back_dir] if not (d / KEY_LOG).exists()]
    if absent:
        return {"judged": False, "why": "no key log (" + ", ".join(absent) + "): its client did "
                "not start, or it is not this pack's"}
    not_acked: Set[str] = set()
    unnamed: Set[str] = set()
    for d in write_dirs:
        logged = read(d / KEY_LOG, reads=False)
        not_acked |= logged["failed"] | logged["unknown"]
        unnamed |= logged["unknown"]
    back = read(back_dir / KEY_LOG, reads=True)
    gone = sorted(back["missing"] - not_acked, key=_key_order)
    return {"judged": True, "lost": len(gone), "lost_keys": gone[:LISTED],
            "not_acknowledged": len(not_acked), "in_unnamed_batches": len(unnamed),
            "not_found": len(back["missing"]),
            "read_back_failed": len(back["failed"] | back["unknown"])}


def judge(verdict: dict, keys: dict, not_found: int, not_acknowledged: int) -> None:
    """Adds the key-by-key judgement to a fault's verdict (before fault_checks.finish): its
    record, lines and checks; the lost count is the larger of the key logs' and the count's.
    `not_found` and `not_acknowledged` are the counts the phases' statuses give, which the key
    logs must match."""
    verdict["keys"] = keys
    if not keys["judged"]:
        verdict["lines"].append(f"lost writes not judged key by key: {keys['why']}")
        verdict["checks"].append(("the key logs were written (ycsbpack.keylog)", False))
        return
    verdict["acknowledged_writes_lost"] = max(verdict["acknowledged_writes_lost"], keys["lost"])
    named = (": " + " ".join(keys["lost_keys"]) + (" ..." if keys["lost"] > LISTED else "")
             if keys["lost"] else "")
    verdict["lines"].append(
        f"key by key (key logs): {keys['not_acknowledged']:,} keys not acknowledged, "
        f"{keys['not_found']:,} not found by the read-back, {keys['lost']:,} of these "
        f"acknowledged (lost){named}")
    verdict["checks"] += [
        ("the key logs name every key the read-back did not find "
         f"({keys['not_found']:,} of {not_found:,})", keys["not_found"] == not_found),
        ("the key logs name every write not acknowledged "
         f"({keys['not_acknowledged']:,} of {not_acknowledged:,})",
         keys["not_acknowledged"] == not_acknowledged),
        ("no acknowledged key is missing, key by key", keys["lost"] == 0)]
