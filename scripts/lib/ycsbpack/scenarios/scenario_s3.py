"""S3 cluster TPS ceiling (seed 002): insert, select and update of the same number of rows at
growing thread counts from one client, then several clients at once; RF 3, CL LOCAL_ONE on
three Cassandra nodes, three region servers over HDFS with three copies on HBase.

Each sweep point works on its own key range: point k inserts rows [k*N, (k+1)*N) (a YCSB load
with insertstart/insertcount), then selects and updates within them (time-bound: warmed up,
then measured), then deletes them (BatchedWorkload's DELETE over sequential keys: each row
once, in order).
"""
from .scenario_plan import Context

TITLE = "S3 cluster TPS ceiling"
CASSANDRA_NODES = 3
# like for like with Cassandra's RF 3 on three nodes: three region servers over HDFS with three
# copies of every block (as S2)
HBASE_NODES = 3
OPERATIONS = ["insert", "select", "update", "delete"]
SCALE = {"cluster": {"threads": [100, 200, 500, 1000, 1500], "clients": [2, 3, 4, 5, 6, 7, 8],
                     "client_threads": 500},
         "local": {"threads": [4, 16, 64], "clients": [2], "client_threads": 16},
         # CI: a two-point sweep (its chart and intervals are tested); several clients' split
         # of a load is tested on the fleet (test_fleet_on_real_ray), of a point by unit tests
         "ci": {"threads": [2, 4], "clients": [], "client_threads": 4}}


def plan(ctx: Context) -> list:
    s = SCALE[ctx.scale]
    rows = int(ctx.merged(ctx.files(["insert"]))["operationcount"])
    steps, point = [], 0
    sweep = [(t, ctx.clients, f"threads-{t}") for t in s["threads"]]
    sweep += [(s["client_threads"], c, f"clients-{c}-threads-{s['client_threads']}")
              for c in s["clients"]]
    for threads, clients, suffix in sweep:
        # every client of a point inserts, then reads/updates/deletes `rows` rows, as in the report
        first, count = point * rows, rows * clients
        keys = {"insertstart": str(first), "insertcount": str(count),
                "recordcount": str(first + count)}
        for op in OPERATIONS:
            # load: the clients split the point's range; selects and updates are time-bound
            # (warmed up, then measured); deletes go last, each client `rows` of them (they
            # empty the range: a finite job, judged over the whole job)
            props = dict(keys, operationcount=str(rows) if op == "delete" else "2000000000")
            if op == "insert":
                del props["operationcount"]
            steps.append(ctx.phase(f"{op}-{suffix}", "load" if op == "insert" else "run",
                                   ctx.files([op]), threads, props, clients=clients, group=op,
                                   repeatable=op != "delete"))
        point += clients
    return steps
