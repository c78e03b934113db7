"""Did the two sides of a comparison run comparable software on comparable machines?

Each phase's metadata.json records what ran: the client side ("provenance": the pack's commit,
JDK, JVM flags, every client library, telemetry, the machine), the workload (binding, threads,
clients, properties) and the servers as they describe themselves ("servers": versions, machines,
settings, schema; ``bin/ycsb servers``). A verdict whose two sides differ in something the user
controls and that can move a figure carries a footnote mark, the detail in comparability.csv
(its ``mark`` column) and under the verdicts table:

    "... (95% CI +4% to +20%; 4 paired trials); not like for like [1]"
    [1] JVM flags -Xmx2g (cassandra) vs (none) (hbase)

Cassandra vs HBase compares what both sides share (the pack, JDK, JVM flags, the machine and
CPUs, threads and clients, the workload properties both set, the servers' machines); their
servers' settings and schema differ by design. What differs *because* two databases are compared
(each binding's name, the client libraries both load at their own versions, the database's
version) is inherent: listed once in "What ran", never on a verdict. Durability (metadata.json
"durability", the phase engine's phases/durability.py) is compared on what an acknowledged write
survives: across databases a difference between their own defaults (Cassandra's periodic commit
log, a standalone HBase's WAL on a local filesystem that cannot hflush) is inherent, one the
user set on either side (commitlog_sync batch, hbase.durability, hbase.wal.hsync) is marked;
metadata written before it was recorded says "not recorded". The two sides of an A/A test (one
database, sides.py), and current vs ``--baseline``, are compared on everything, servers'
settings and schema included. ``--expected-difference PATTERN`` (a glob on the fact's name, e.g.
``"server setting compaction_*"``) names differences the user meant to make: expected, not
marked. Every difference is a row of comparability.csv; values that only say where (a
directory, a file, an address) are not compared.
"""

from __future__ import annotations

import fnmatch
import re

import polars as pl

from .sides import side_of
from .tables import frame

MARK = "not like for like"
# across databases, what differs because two databases are compared (besides the client
# libraries both load, at each binding's own versions): never a mark, listed in "What ran"
# what an acknowledged write survives (the runner's words), and how: "durability"
SURVIVES, DURABILITY = "durability: an acknowledged write survives", "durability"
DEFAULT, SET = " (the database's default)", " (set)"
INHERENT = ("binding", "server version", "server versions of the nodes", DURABILITY)
# a setting that says where (a directory, a file, an address): it differs between run
# directories and machines without moving a figure by itself
_WHERE = re.compile(r"^\[?(/|\d+\.\d+\.\d+\.\d+|file:)")
# a setting that names one server process: HBase's "host,port,start code" (its master's
# mapreduce.task.attempt.id holds one); it differs between any two server starts
_PROCESS = re.compile(r"\d+\.\d+\.\d+\.\d+,\d+,\d{12,}")
# the servers' machines (cores, memory): unlike the rest of the servers, held across databases
SERVER_MACHINE = ("server cores", "server memory gib")
COLUMNS = ["comparison", "scenario", "phase", "side_a", "side_b", "fact", "value_a", "value_b",
           "inherent", "expected", "mark"]


def fingerprint(metadata: dict) -> dict[str, str]:
    """The facts of one phase that can move a figure, flattened to ``{fact: value}``."""
    facts: dict[str, str] = {}
    client = metadata.get("provenance") or {}
    pack = client.get("pack") or {}
    if pack.get("commit"):
        facts["pack commit"] = pack["commit"][:12] + (" (modified)" if pack.get("modified") else "")
    jdk = client.get("jdk") or {}
    if jdk.get("java.version"):
        facts["JDK"] = f"{jdk['java.version']} ({jdk.get('java.vm.name', '')})"
    if "jvm_flags" in client:
        facts["JVM flags"] = " ".join(client["jvm_flags"]) or "(none)"
    telemetry = client.get("telemetry") or {}
    if "otel_agent" in telemetry:
        facts["OpenTelemetry agent"] = str(telemetry["otel_agent"])
    if metadata.get("binding"):
        facts["binding"] = str(metadata["binding"])
    for k in ("threads", "clients"):
        if metadata.get(k) is not None:
            facts[f"client {k}"] = str(metadata[k])
    machine = client.get("machine") or {}
    for k in ("cores", "memory_gib"):
        if machine.get(k) is not None:
            facts[f"loader {k.replace('_', ' ')}"] = str(machine[k])
    # the CPUs each side could use (the runner's --cpu-sets, read from the kernel): held across
    # databases like the machine (a side whose server had one core of two is not like for like)
    sets = (metadata.get("cpu") or {}).get("cpu_sets") or {}
    if sets.get("clients"):
        facts["CPUs of the clients"] = ",".join(map(str, sets["clients"]))
    server_cpus = sorted({c for cpus in (sets.get("servers") or {}).values() for c in cpus or []})
    if server_cpus:
        facts["CPUs of the local servers"] = ",".join(map(str, server_cpus))
    servers = metadata.get("servers") or {}
    versions = servers.get("versions") or {}
    if versions.get("cluster"):
        facts["server version"] = str(versions["cluster"])
    nodes = versions.get("nodes") or {}
    if nodes:
        facts["server nodes"] = str(len(nodes))
        facts["server versions of the nodes"] = ", ".join(sorted(set(map(str, nodes.values()))))
    # the machines the nodes run on: the distinct values over the nodes, as their versions
    machines = [m for m in (servers.get("machines") or {}).values() if isinstance(m, dict)]
    for fact, values in (("server cores", {m.get("cores") for m in machines}),
                         ("server memory gib", {round(m["memory_bytes"] / 2**30, 1)
                                                for m in machines if m.get("memory_bytes")})):
        if values - {None}:
            facts[fact] = ", ".join(map(str, sorted(values - {None})))
    for prefix, named in (("client library", client.get("libraries")),
                          ("client metrics", telemetry.get("client_metrics_properties")),
                          ("workload property", metadata.get("properties")),
                          ("server setting", servers.get("settings"))):
        facts |= {f"{prefix} {k}": str(v) for k, v in (named or {}).items()}
    durability = metadata.get("durability")
    if isinstance(durability, dict) and durability.get("survives"):
        facts[SURVIVES] = durability["survives"] + (DEFAULT if durability.get("default") else SET)
        facts[DURABILITY] = str(durability.get("acknowledged_write", ""))
    elif isinstance(durability, dict):
        facts[DURABILITY] = f"not read: {durability.get('unknown', 'no detail')}"
    if servers.get("schema"):
        facts["schema"] = str(servers["schema"]).strip()
    return facts


def side_facts(runs) -> dict[tuple, dict[str, str]]:
    """Per phase (scenario, timestamp, phase, database): its trials' facts merged; a fact whose
    value differs between trials holds every value ("a | b")."""
    out: dict[tuple, dict[str, set]] = {}
    for r in runs:
        key = (r.scenario, r.timestamp, r.phase, r.database)
        for fact, value in fingerprint(r.metadata).items():
            out.setdefault(key, {}).setdefault(fact, set()).add(value)
    return {k: {f: " | ".join(sorted(v)) for f, v in facts.items()} for k, facts in out.items()}


def differences(a: dict[str, str], b: dict[str, str], cross_database: bool) -> list[tuple]:
    """``(fact, value_a, value_b)`` for each fact that differs (or one side lacks, when the side
    recorded any facts at all). Across databases, servers' settings, schema, and the libraries
    and workload properties only one side has are not held against each other."""
    if not a or not b:
        return []
    out = []
    for fact in sorted(set(a) | set(b)):
        va, vb = a.get(fact), b.get(fact)
        if va == vb:
            continue
        if cross_database and not _held_across_databases(fact, va, vb):
            continue
        if (all(_WHERE.match(v or "") for v in (va, vb))
                or fact.startswith("server setting ")
                and all(_PROCESS.search(v or "") for v in (va, vb))):
            continue
        out.append((fact, "(none)" if va is None else va, "(none)" if vb is None else vb))
    return out


def inherent(fact: str, cross_database: bool, va: str | None = None,
             vb: str | None = None) -> bool:
    """Whether a difference in ``fact`` (``va`` vs ``vb``) is what is being compared (two
    databases' bindings, their client libraries, their versions, how each does durability by
    default) rather than something the user set."""
    defaults = fact == SURVIVES and all((v or "").endswith(DEFAULT) for v in (va, vb))
    return cross_database and (fact in INHERENT or fact.startswith("client library ") or defaults)


def _held_across_databases(fact: str, va: str | None, vb: str | None) -> bool:
    if fact in SERVER_MACHINE + (SURVIVES,) or fact.startswith(("client library ",
                                                                  "workload property ")):
        return va is not None and vb is not None  # read by both sides / set on both sides
    if fact in INHERENT:
        return True
    return not fact.startswith(("server ", "schema"))  # two databases' servers differ by design


def annotate(verdicts: pl.DataFrame, comparison: str, pairs: dict, expected: list[str],
             first_mark: int = 1) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Marks each verdict whose two sides differ in something neither inherent nor expected
    (``marks``: "1,2"; the verdict ends "; not like for like [1,2]"), one number per distinct
    difference from ``first_mark`` on; returns the verdicts and the table of every difference.
    ``pairs`` maps a verdict row's index to ``(scenario, phase, side_a, side_b, facts_a,
    facts_b, cross_database)``."""
    rows = []
    marked = [r | {"marks": ""} for r in verdicts.to_dicts()]
    numbers: dict[tuple, int] = {}
    for i, (scenario, phase, name_a, name_b, fa, fb, cross) in pairs.items():
        marks = []
        for fact, va, vb in differences(fa, fb, cross):
            given = inherent(fact, cross, va, vb)
            meant = not given and any(fnmatch.fnmatch(fact, p) for p in expected)
            mark = None
            if not given and not meant:
                mark = numbers.setdefault((name_a, name_b, fact, va, vb), first_mark + len(numbers))
                marks.append(mark)
            rows.append({"comparison": comparison, "scenario": scenario, "phase": phase,
                         "side_a": name_a, "side_b": name_b, "fact": fact, "value_a": va,
                         "value_b": vb, "inherent": given, "expected": meant,
                         "mark": "" if mark is None else str(mark)})
        if marks:
            listed = ",".join(map(str, sorted(set(marks))))
            marked[i]["marks"] = listed
            marked[i]["verdict"] = f"{marked[i]['verdict']}; {MARK} [{listed}]"
    columns = [c for c in verdicts.columns if c != "marks"] + ["marks"]
    return frame(marked, columns), frame(rows, COLUMNS).unique(maintain_order=True)


def footnotes(table: pl.DataFrame) -> dict[str, str]:
    """Each mark of comparability.csv in words, once: ``{"1": "JVM flags -Xmx2g (cassandra) vs
    (none) (hbase)"}``."""
    said = {}
    for r in [r for r in table.to_dicts() if r["mark"]]:
        a, b = r["side_a"], r["side_b"]
        said.setdefault(str(r["mark"]), f"schema ({a} vs {b}: comparability.csv)"
                        if r["fact"] == "schema"
                        else f"{r['fact']} {r['value_a'][:60]} ({a}) vs {r['value_b'][:60]} ({b})")
    return said


def between_databases(verdicts: pl.DataFrame, runs,
                      expected: list[str]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The verdicts' two sides (``side_a``, ``side_b``) held against each other: two databases
    on what both share; the two sides of an A/A test, one database, on everything."""
    facts = side_facts(runs)
    real = {r.database: side_of(r.metadata).database for r in runs}
    pairs, names = {}, set()
    for i, v in enumerate(verdicts.iter_rows(named=True)):
        a, b = v["side_a"], v["side_b"]
        fa, fb = (facts.get((v["scenario"], v["timestamp"], v["phase"], s), {}) for s in (a, b))
        pairs[i] = (v["scenario"], v["phase"], a, b, fa, fb, real.get(a, a) != real.get(b, b))
        names.add(f"{a} vs {b}")
    return annotate(verdicts, " and ".join(sorted(names)) or "between databases", pairs,
                    expected)


def against_baseline(comparison: pl.DataFrame, runs, base_runs, expected: list[str],
                     first_mark: int = 1) -> tuple[pl.DataFrame, pl.DataFrame]:
    def latest(facts: dict) -> dict:  # the latest timestamp of each phase, as the comparison
        return {(scenario, phase, db): f for (scenario, ts, phase, db), f
                in sorted(facts.items(), key=lambda kv: kv[0][1])}

    cur, base = latest(side_facts(runs)), latest(side_facts(base_runs))
    pairs = {}
    for i, v in enumerate(comparison.iter_rows(named=True)):
        key = (v["scenario"], v["phase"], v["database"])
        pairs[i] = (v["scenario"], v["phase"], "current", "baseline", cur.get(key, {}),
                    base.get(key, {}), False)
    return annotate(comparison, "current vs baseline", pairs, expected, first_mark)


# what the report's "What ran" table shows of each phase (all facts: metadata.json)
SHOWN = ("binding", "pack commit", "JDK", "JVM flags", "client threads", "server version",
         "server versions of the nodes", "server nodes", "server cores", "server memory gib",
         "loader cores", "loader memory gib", "OpenTelemetry agent", SURVIVES, DURABILITY)
NOT_RECORDED = "not recorded (metadata.json from before durability was recorded)"
SAME = ["side_a", "side_b", "fact", "value_a", "value_b"]


def what_ran(runs) -> pl.DataFrame:
    """Per phase the facts that can move a figure (:data:`SHOWN`), as the client and the
    servers told them, how many server settings were read and what could not be read; empty
    when no phase recorded any."""
    rows = []
    for r in runs:
        facts = fingerprint(r.metadata)
        if not facts:
            continue
        servers = r.metadata.get("servers") or {}
        facts.setdefault(DURABILITY, NOT_RECORDED)
        rows.append({"phase": f"{r.database} {r.phase}"} | {k: facts.get(k, "") for k in SHOWN}
                    | {"server settings": len(servers.get("settings") or {}),
                       "not read": "; ".join(servers.get("skipped") or [])})
    return frame(rows)


def inherent_apart(differences: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The differences (comparability.csv) inherent to what is compared, each once (the
    :data:`SAME` columns), and every other one, as found."""
    rows = differences.to_dicts()
    given = frame([r for r in rows if r["inherent"]], differences.columns)
    other = frame([r for r in rows if not r["inherent"]], differences.columns)
    return given.select(SAME).unique(maintain_order=True), other
