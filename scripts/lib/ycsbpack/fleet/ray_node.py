"""`ray start ARGS...`, except that a node address of 127.0.0.1 stays 127.0.0.1.

fleet-local runs its nodes with this (`python ray_node.py start --node-ip-address 127.0.0.1
...`) instead of the `ray` command, so that every Ray process of a local fleet listens on
loopback only (why: ray_env.keep_loopback_addresses). Run as a file by the venv's Python.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ycsbpack.fleet.ray_env import keep_loopback_addresses  # noqa: E402

if __name__ == "__main__":
    keep_loopback_addresses()
    from ray.scripts.scripts import main

    sys.argv[0] = "ray"
    sys.exit(main())
