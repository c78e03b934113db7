"""What every script shares: paths, errors, processes, JDK, Maven, versions, secrets, building
the bindings, the binding list, argument checks, the analysis package's ycsb-report tool."""
