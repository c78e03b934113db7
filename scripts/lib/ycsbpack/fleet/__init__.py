"""The client fleet: a phase's YCSB clients on loader hosts of a Ray cluster.

README: "Client fleet".

ray_env      importing Ray (re-running under the project's .venv), quiet settings, the pin
local        scripts/fleet-local: a Ray cluster of N loader nodes on loopback
agent        the per-client Ray actor on a loader: runs bin/ycsb, tails its files (stdlib only)
build        what identifies a pack build (commit, checksum of the jars' contents)
ray_clients  the coordinator side: placement, refusals, start, live status, files, metadata
cli          scripts/fleet run --clients N -- <bin/ycsb args>
"""
