"""The phase engine: one phase of YCSB clients through bin/ycsb (phase_runner.py), filed where
the analysis reads it. Its clients' split of the keys, the warm-up in the same clients
(warmup.py) and a capacity step's objective watch (objective_watch.py), the servers sampled
while it runs (server_watch.py, cpu.py), and metadata.json: the properties (properties.py),
the client's build (provenance.py), what an acknowledged write survives (durability.py).

Below the scenarios, the fleet and the session driver (runner/), which all run their phases
through it; it imports only core/, ycsb/ and databases/ (docs/developing.md)."""
