"""The pack's Python apart from the analysis: the local servers, the scenario runner, the
benchmarks of the pack and the client fleet (the console scripts in commands.py, run by
scripts/*). One subpackage per part, each importing only the ones listed below it, except
that scenarios and fleet, and servers and ycsb, do not import each other (the picture in
docs/developing.md; scripts/tests/test_import_direction.py):

bench      scripts/bench-*: the pack's benchmarks of itself (bench-fleet: fleet/bench.py)
runner     the session driver: scripts/run-scenario and scripts/quickstart: the plan over the
           databases and the trials, the capacity search, A/A sides, saved data, dry run
scenarios  S1..S4: their phases and actions, S2's fault phase
fleet      a phase's clients on loader hosts of a Ray cluster (scripts/fleet, fleet-local)
phases     the phase engine: one phase through bin/ycsb, its warm-up, the servers sampled,
           metadata.json
databases  one Database per database: everything that differs between them
servers    scripts/cassandra-local, hbase-local, mysql-local and what a run needs of them
ycsb       bin/ycsb (ycsb_launcher) and its options, scripts/install-into-ycsb,
           scripts/check-list-appends
core       what every script shares: paths, errors, processes, JDK, Maven, versions, secrets,
           building the bindings, the binding list, argument checks, the ycsb-report tool

Installed with the analysis package (ycsb_analysis) in one distribution (pyproject.toml), which
it imports directly. core/ (but procs.py, which asks psutil), ycsb/ and fleet/agent.py import
the standard library only: bin/ycsb and scripts/install-into-ycsb run them on any python3, also
inside other people's YCSB trees, and Ray ships the agent to loaders that have only Ray
(docs/developing.md).
"""
