"""The pack's Python apart from the analysis: the local servers, the scenario runner, the
benchmarks of the pack and the client fleet (the console scripts in commands.py, run by
scripts/*). One subpackage per part:

core       what every script shares: paths, errors, processes, JDK, Maven, versions, secrets,
           building the bindings, the binding list, argument checks, the ycsb-report tool
ycsb       bin/ycsb (ycsb_launcher) and its options, scripts/install-into-ycsb,
           scripts/check-list-appends
servers    scripts/cassandra-local, hbase-local, mysql-local and what a run needs of them
scenarios  S1..S4: their phases and actions, S2's fault phase
runner     scripts/run-scenario and scripts/quickstart: phases, warm-up, trials, capacity
bench      scripts/bench-*: the pack's benchmarks of itself (bench-fleet: fleet/bench.py)
fleet      a phase's clients on loader hosts of a Ray cluster (scripts/fleet, fleet-local)

Installed with the analysis package (ycsb_analysis) in one distribution (pyproject.toml), which
it imports directly. core/ (but procs.py, which asks psutil), ycsb/ and fleet/agent.py import
the standard library only: bin/ycsb and scripts/install-into-ycsb run them on any python3, also
inside other people's YCSB trees, and Ray ships the agent to loaders that have only Ray
(docs/developing.md).
"""
