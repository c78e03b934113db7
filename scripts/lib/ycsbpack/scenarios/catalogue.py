"""The documented scenarios by name: S1..S4 (docs/scenarios.md; sources: docs/sources.md)."""

from ..core.errors import ScriptError
from . import scenario_s1, scenario_s2, scenario_s3, scenario_s4

SCENARIOS = {"s1": scenario_s1, "s2": scenario_s2, "s3": scenario_s3, "s4": scenario_s4}
ALIASES = {"list-append": "s1", "anti-fraud": "s1", "cassandra-vs-hbase": "s2", "rf3": "s2",
           "tps-ceiling": "s3", "thread-sweep": "s3", "update-heavy": "s4", "dse6": "s4"}


def scenario_id(name: str) -> str:
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in SCENARIOS:
        known = ", ".join(f"{k.upper()} ({m.TITLE})" for k, m in SCENARIOS.items())
        raise ScriptError(f"unknown scenario '{name}'; known: {known}; names: "
                          f"{', '.join(sorted(ALIASES))}")
    return key
