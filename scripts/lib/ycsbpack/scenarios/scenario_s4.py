"""S4 DSE 6 update-heavy and short-range (seed 004): load 1 KB records, then 50/50 read/update
and 95/5 scan/update (token-range scans), zipfian, over a thread sweep. The report warmed the
caches before measuring: here every measured phase is warmed up by its own workload until its
throughput is steady (phases/warmup.py), the first one longest (s4/*.properties: warmup.maxtime).
After the load (within its phase, while the servers are sampled) the table is flushed and
major-compacted, so every trial reads the same on-disk layout.
"""
from .scenario_actions import settle_after_load
from .scenario_plan import Context

TITLE = "S4 update-heavy and short-range"
# every trial's run phases start on a copy of the data loaded (and settled) once
# (runner/saved_data.py): no run phase needs more than the loaded records
SAVED_DATA = True
CASSANDRA_NODES = 1
SCALE = {"cluster": {"load_threads": 64, "threads": [100, 300, 500, 700]},
         "local": {"load_threads": 4, "threads": [8]},
         "ci": {"load_threads": 4, "threads": [4]}}


def plan(ctx: Context) -> list:
    s = SCALE[ctx.scale]
    load = ctx.phase("load", "load", ctx.files(["update-heavy"]), s["load_threads"],
                     clients=ctx.clients, group="load")
    settle = settle_after_load(ctx)
    if settle:
        # within the load's phase: its servers' time series shows the flush and compaction
        load.then, load.then_what = settle.run, settle.describe
    steps = [load]
    for workload in (["update-heavy"] if ctx.quick else ["update-heavy", "short-range"]):
        for t in s["threads"]:
            steps.append(ctx.phase(f"{workload}-threads-{t}", "run", ctx.files([workload]), t,
                                   clients=ctx.clients, group=workload))
    return steps
