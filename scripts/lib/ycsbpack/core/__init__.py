"""What every script shares: paths, errors, processes, JDK, Maven, versions, secrets, building
the bindings, the binding list, argument checks, the analysis package's ycsb-report tool.

Standard library only: bin/ycsb and scripts/install-into-ycsb run it on any python3, also in
other people's YCSB trees (docs/developing.md)."""
