"""The client fleet: a phase's YCSB clients on loader hosts of a Ray cluster.

README: "Client fleet".

ray_env      importing Ray, quiet settings, the pin (pyproject.toml's extra `fleet`)
local        scripts/fleet-local: a Ray cluster of N loader nodes on loopback
ray_node     `ray start` keeping a node address of 127.0.0.1 (fleet-local's nodes)
agent        the per-client Ray actor on a loader: runs bin/ycsb, tails its files (standard
             library only: Ray ships it to loaders that have only Ray)
build        what identifies a pack build (commit, checksum of the jars' contents)
ray_clients  the coordinator side: placement, refusals, start, live status, files, metadata
cli          scripts/fleet run --clients N -- <bin/ycsb args>
"""
