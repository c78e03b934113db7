"""The sides of a comparison within one results directory: two databases (Cassandra vs HBase),
or one database run as both sides of an A/A test.

``run-scenario --aa`` runs one database as both sides, in blocks A,B,B,A, and each phase's
metadata.json says which side it was:

    "database": "cassandra-A", "aa": {"database": "cassandra", "side": "A"}

With ``--aa --b-property KEY=VALUE`` side B ran with one change ("aa" has "changed": {KEY:
VALUE}): one database in two configurations, compared as an A/B test with an ordinary verdict
(the A/A method's power check: a known difference, such as a -target on B, must be called with
the right sign).

The side's name ("cassandra-A") keys everything that belongs to a side (rows, columns, trials);
the real database (its colour, its place in the order, its files) is read from "aa"."database",
never guessed from the name. A summary row carries it as ``aa_database`` and ``aa_side`` (only
when some phase had "aa": the columns of other results stay as they were).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .trials import TrialRatio, detectable

# Ratios are first / second in this order (Cassandra / HBase), as the runner's blocks A,B
ORDER = ["cassandra", "hbase", "mysql"]
DISPLAY = {"cassandra": "Cassandra", "hbase": "HBase", "mysql": "MySQL"}
COLORS = {"cassandra": "tab:blue", "hbase": "tab:orange", "mysql": "tab:green"}
# the second side of an A/A test: the same database, so not its colour, but one that reads as
# "the other side" beside it
OTHER_SIDE_COLOR = "tab:purple"


@dataclass(frozen=True)
class Side:
    name: str       # what metadata.json "database" says: "cassandra", or "cassandra-A"
    database: str   # the real database: "cassandra" in both cases
    aa: str = ""    # the A/A side ("A", "B"), "" outside an A/A test
    changed: str = ""  # what side B ran with beyond A's (--b-property): "target=9000"


def side_of(metadata: dict) -> Side:
    """The side a phase's metadata.json describes."""
    name = str(metadata.get("database") or "unknown")
    aa = metadata.get("aa")
    if isinstance(aa, dict) and aa.get("database"):
        changed = aa.get("changed") or {}
        return Side(name, str(aa["database"]), str(aa.get("side") or ""),
                    ", ".join(f"{k}={v}" for k, v in sorted(changed.items())))
    return Side(name, name)


def known_sides(rows: list[dict]) -> dict[str, Side]:
    """{name: Side} of the databases in the rows of a summary or aggregate (``aa_*``)."""
    out: dict[str, Side] = {}
    for r in rows:
        real, side, changed = r.get("aa_database"), r.get("aa_side"), r.get("aa_changed")
        if isinstance(real, str) and real:
            out[r["database"]] = Side(r["database"], real, side if isinstance(side, str) else "",
                                      changed if isinstance(changed, str) else "")
        else:
            out.setdefault(r["database"], Side(r["database"], r["database"]))
    return out


def _side(name: str, known: dict[str, Side] | None) -> Side:
    return (known or {}).get(name) or Side(name, name)


def ordered(names: Iterable[str], known: dict[str, Side] | None = None) -> list[str]:
    """The sides in comparison order: by real database (ORDER, then by name), A before B."""
    def key(name: str) -> tuple:
        s = _side(name, known)
        return (ORDER.index(s.database) if s.database in ORDER else len(ORDER), s.database,
                s.aa, name)
    return sorted(set(names), key=key)


def pairs(names: Iterable[str], known: dict[str, Side] | None = None) -> list[tuple[str, str]]:
    """The comparisons among the sides of one phase: the first against each of the others
    (two sides: one comparison, whatever their names)."""
    names = [n for n in ordered(names, known) if n != "unknown"]
    return [(names[0], other) for other in names[1:]]


def is_aa(a: str, b: str, known: dict[str, Side] | None = None) -> bool:
    """Both sides are sides of an A/A test of one database, in the same configuration."""
    sa, sb = _side(a, known), _side(b, known)
    return (bool(sa.aa and sb.aa) and sa.database == sb.database
            and not (sa.changed or sb.changed))


def title(a: str, b: str, known: dict[str, Side] | None = None) -> str:
    """ "Cassandra vs HBase", "A/A: cassandra-A vs cassandra-B", or a one-database A/B (--aa
    --b-property) with what side B ran with beyond A."""
    sa, sb = _side(a, known), _side(b, known)
    if sa.aa and sb.aa and sa.database == sb.database:
        if not (sa.changed or sb.changed):  # is_aa
            return f"A/A: {a} vs {b}"
        return f"A/B of one database: {a} vs {b} ({b}: {sb.changed or sa.changed})"
    return f"{DISPLAY.get(a, a)} vs {DISPLAY.get(b, b)}"


def color(name: str, known: dict[str, Side] | None = None) -> str:
    """A side's colour: its database's; the B side of an A/A test another."""
    s = _side(name, known)
    return OTHER_SIDE_COLOR if s.aa not in ("", "A") else COLORS.get(s.database, "tab:grey")


def resolution(r: TrialRatio) -> tuple[float, float]:
    """(half width of the ratio's 95% interval, difference detectable with 80% power at alpha
    0.05), both as a precision (0.041 for +-4.1%); nan without two pairs."""
    if r.pairs < 2 or not r.known:
        return math.nan, math.nan
    return r.precision, detectable(r.sd_log, r.pairs)


def aa_words(r: TrialRatio, name_a: str, name_b: str, how: str) -> str:
    """An A/A verdict ("no difference" expected), with the difference these trials resolve."""
    resolves, power80 = resolution(r)
    ci = f"95% CI {(r.low - 1) * 100:+.0f}% to {(r.high - 1) * 100:+.0f}%; {how}"
    scale = (f"at {r.pairs} pairs this environment resolves differences beyond "
             f"+-{resolves * 100:.1f}% (80% power: +-{power80 * 100:.1f}%)")
    if not r.significant:
        return (f"A/A: no significant difference (as expected for the same configuration; "
                f"{ci}); {scale}")
    change = (r.ratio - 1) * 100
    # expected in 1 comparison in 20 by chance; more often, the interval is too narrow or the
    # sides differ in something (comparability names what)
    return (f"A/A: {name_a} {abs(change):.0f}% {'higher' if change > 0 else 'lower'} than "
            f"{name_b}, the same configuration called different ({ci}): by chance in 1 A/A "
            f"comparison in 20; more often, the sides differ or the interval is too narrow; "
            f"{scale}")
