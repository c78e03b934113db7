"""The pack's commands: the console scripts of pyproject.toml, each the main() of one module.

`scripts/<command>` makes or refreshes .venv and runs `.venv/bin/<command>`
(scripts/lib/venv.sh); each entry below names the module that does the work, and imports it only
when it runs, so that one command does not load the others' dependencies. bin/ycsb and
scripts/install-into-ycsb are not here: they run on any python3, standard library only
(docs/developing.md).
"""
from importlib import import_module

from .core.errors import run_main


def _command(module: str):
    def run() -> None:
        run_main(import_module(f"{__package__}.{module}").main)

    run.__doc__ = f"ycsbpack.{module}.main, with one line for an error (core/errors.run_main)"
    return run


run_scenario = _command("runner.run_scenario")
quickstart = _command("runner.quickstart")
cassandra_local = _command("servers.cassandra_local")
hbase_local = _command("servers.hbase_local")
mysql_local = _command("servers.mysql_local")
check_list_appends = _command("ycsb.list_check")
fleet = _command("fleet.cli")
fleet_local = _command("fleet.local")
bench_aa = _command("bench.bench_aa")
bench_batches = _command("bench.bench_batches")
bench_binding = _command("bench.bench_binding")
bench_capacity = _command("bench.bench_capacity")
bench_fleet = _command("fleet.bench")
bench_server_watch = _command("bench.bench_server_watch")
bench_spread = _command("bench.bench_spread")
bench_warmup = _command("bench.bench_warmup")
