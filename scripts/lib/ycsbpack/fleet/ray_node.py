"""`ray start ARGS...`, except that a node address of 127.0.0.1 stays 127.0.0.1.

fleet-local runs its nodes with this (`python -m ycsbpack.fleet.ray_node start --node-ip-address
127.0.0.1 ...`) instead of the `ray` command, so that every Ray process of a local fleet listens
on loopback only (why: ray_env.keep_loopback_addresses).
"""

import sys

from ycsbpack.fleet.ray_env import keep_loopback_addresses

if __name__ == "__main__":
    keep_loopback_addresses()
    from ray.scripts.scripts import main

    sys.argv[0] = "ray"
    sys.exit(main())
