"""Command lines the server tests run, defined once (the scenario and fleet tests share them)."""

from ycsbpack.core.paths import REPO_ROOT


def script(name, *args):
    """A project script (scripts/<name>: .venv/bin/<name>), every argument as a string."""
    return [str(REPO_ROOT / "scripts" / name), *map(str, args)]


def scenario_at_ci_scale(name, out, run_dir, *extra):
    """`run-scenario NAME` at CI scale, its servers in `run_dir`; --no-build: CI builds first
    (mvn verify), and a build in the middle of the tests would race with other Maven runs."""
    return script(
        "run-scenario", name, "--no-build", "--scale", "ci", "--out", out, "--run-dir", run_dir,
        *extra,
    )


def s4_at_ci_scale(out, run_dir, cassandra_address, jmx_port, *extra):
    """`run-scenario S4` at CI scale on the Cassandra node that `run_dir` holds (or will hold)."""
    return scenario_at_ci_scale(
        "S4", out, run_dir,
        "--cassandra-address", cassandra_address, "--cassandra-jmx-port", jmx_port, *extra,
    )
