"""Support code of this project's command-line scripts (bin/ycsb, scripts/*).

Standard library only. One subpackage per part of the pack:

core       what every script shares: paths, errors, processes, JDK, Maven, versions, secrets,
           building the bindings, the binding list, argument checks, the ycsb-report tool
ycsb       bin/ycsb (ycsb_launcher) and its options, scripts/install-into-ycsb,
           scripts/check-list-appends
servers    scripts/cassandra-local, hbase-local, mysql-local and what a run needs of them
scenarios  S1..S4: their phases and actions, S2's fault phase
runner     scripts/run-scenario and scripts/quickstart: phases, warm-up, trials, capacity
bench      scripts/bench-*: the pack's benchmarks of itself (bench-fleet: fleet/bench.py)
fleet      a phase's clients on loader hosts of a Ray cluster (scripts/fleet, fleet-local)

The analysis package's directory (analysis/) goes on sys.path here, once: the runner imports
the steadiness rule it shares with the analysis (ycsb_analysis.stability, standard library
only) from this checkout, without the analysis package installed.
"""
import sys

from .core.paths import ANALYSIS

if str(ANALYSIS) not in sys.path:
    sys.path.insert(0, str(ANALYSIS))
