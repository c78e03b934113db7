"""S2 Cassandra vs HBase (seed 001): batched loads of 10- and 100-byte values (batches of 100
and 200), then reads with 100 threads at batch 1, 10 and 100; RF 3 on three Cassandra nodes,
writes at CL ALL, reads at CL ONE; HBase on three region servers over HDFS with three copies
(like for like). On local servers the fault phases follow on each database, one per fault
(--faults, crash by default: fault_phase.py, fault_pause.py, fault_partition.py,
fault_slow_disk.py), each
checking every acknowledged write afterwards.
"""
from .fault_partition import partition_step
from .fault_pause import pause_step
from .fault_phase import fault_step
from .fault_slow_disk import slow_disk_step
from .scenario_plan import Context

TITLE = "S2 Cassandra vs HBase, RF 3, batches"
CASSANDRA_NODES = 3
HBASE_NODES = 3
SCALE = {"cluster": {"load_threads": 5, "read_threads": 100, "read_batches": (1, 10, 100)},
         "local": {"load_threads": 5, "read_threads": 100, "read_batches": (1, 10, 100)},
         # CI: the smallest and the largest batch (the same code paths, ~25 s less a database)
         "ci": {"load_threads": 4, "read_threads": 8, "read_batches": (1, 100)}}


def plan(ctx: Context) -> list:
    s = SCALE[ctx.scale]
    steps = [ctx.phase("load-value10-batch100", "load", ctx.files(["load-value10"]),
                       s["load_threads"], clients=ctx.clients, group="load"),
             ctx.phase("load-value100-batch200", "load", ctx.files(["load-value100"]),
                       s["load_threads"], clients=ctx.clients, group="load")]
    for batch in s["read_batches"]:
        steps.append(ctx.phase(f"read-batch{batch}", "run", ctx.files([f"read-batch{batch}"]),
                               s["read_threads"], clients=ctx.clients, group="read"))
    if ctx.local:  # one fault phase per fault, in the order given (--faults)
        windowed = {"pause": pause_step, "partition": partition_step,
                    "slow-disk": slow_disk_step}
        steps += [windowed[f](ctx) if f in windowed else fault_step(ctx, f) for f in ctx.faults]
    return steps
