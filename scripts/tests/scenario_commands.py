"""Command lines the server tests run, defined once (the scenario and fleet tests share them)."""

import sys

from ycsbpack.paths import REPO_ROOT


def script(name, *args):
    """A project script run by this interpreter, every argument as a string."""
    return [sys.executable, str(REPO_ROOT / "scripts" / name), *map(str, args)]


def s4_at_ci_scale(out, run_dir, cassandra_address, jmx_port, *extra):
    """`run-scenario S4` at CI scale on the Cassandra node that `run_dir` holds (or will hold)."""
    return script(
        "run-scenario",
        "S4",
        "--no-build",
        "--scale",
        "ci",
        "--out",
        out,
        "--run-dir",
        run_dir,
        "--cassandra-address",
        cassandra_address,
        "--cassandra-jmx-port",
        jmx_port,
        *extra,
    )
