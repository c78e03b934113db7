"""S1 anti-fraud list-append (seed 000): single-thread writes and reads, 1+1 and 10+10 threads,
10-key batches, on four Cassandra table variants with reads before and after a major compaction.

Per variant: drop and recreate test.history, write, read, compact, read again. The mixed,
10+10 and batched phases run on the leveled + row cache table, as in the report. A writer and
a reader thread group run as two YCSB clients side by side. HBase and MySQL run the default
table only (compaction and caching are Cassandra table options). Every database also runs the
report's MySQL trio, "mixed-2+1": two appending clients (its insert and update threads: in the
row-per-element idiom both add events to histories) and one reading client, one thread each.
Against your own cluster (--hosts) the
compaction and the reads after it are left out: the runner cannot run nodetool there.
"""
from .scenario_actions import drop_table, major_compaction
from .scenario_plan import Context

TITLE = "S1 anti-fraud list-append"
CASSANDRA_NODES = 1
VARIANTS = ["default", "leveled-rowcache", "rowcache", "leveled"]
CONCURRENT = "leveled-rowcache"  # where the report ran its mixed and multi-thread tests
# "pairs": the 1+1 and N+N mixed phases (CI runs the 2+1 trio and the batches only: the same
# code paths, ~1 minute less per database)
SCALE = {"cluster": {"variants": VARIANTS, "threads": 10, "pairs": True},
         "local": {"variants": VARIANTS, "threads": 10, "pairs": True},
         "ci": {"variants": [CONCURRENT], "threads": 2, "pairs": False}}


def plan(ctx: Context) -> list:
    varied = ctx.database.table_options  # Cassandra: compaction and caching per table
    variants = SCALE[ctx.scale]["variants"] if varied else ["default"]
    many = SCALE[ctx.scale]["threads"]
    if ctx.quick:
        variants = ["default"]
    steps = []
    for v in variants:
        table = [f"{ctx.database.name}-table-{v}"] if varied else []
        write, read = ctx.files(["write"], table), ctx.files(["read"], table)
        if varied:
            props = ctx.merged(write)
            steps.append(drop_table(ctx, props["cassandra.keyspace"], props["listappend.table"]))
        steps.append(ctx.phase(f"{v}-write-1-thread", "run", write, 1, group="write"))
        steps.append(ctx.phase(f"{v}-read-1-thread", "run", read, 1, group="read"))
        if varied and ctx.local and not ctx.quick:
            props = ctx.merged(write)
            steps.append(
                major_compaction(ctx, props["cassandra.keyspace"], props["listappend.table"])
            )
            steps.append(ctx.phase(f"{v}-read-1-thread-compacted", "run", read, 1,
                                   group="read-compacted"))
        if v == CONCURRENT or not varied or ctx.quick:
            steps += _concurrent(ctx, v, table, many)
    return steps


def _concurrent(ctx: Context, v: str, table: list, many: int) -> list:
    pairs = [("mixed-1+1", "write", "read", 1), (f"mixed-{many}+{many}", "write", "read", many),
             (f"batched-{many}+{many}", "batched-write", "batched-read", many)]
    if ctx.quick or not SCALE[ctx.scale]["pairs"]:
        pairs = pairs[2:]
    # the quickstart's time budget: a shorter warm-up judged over 10 s
    quick = {"warmup.maxtime": "30", "warmup.window": "10"} if ctx.quick else {}
    steps = [ctx.phase(f"{v}-{name}", "run", [], threads, dict(quick), clients=2,
                       client_files=[ctx.files([w], table), ctx.files([r], table)],
                       group=name.split("-")[0])
             for name, w, r, threads in pairs]
    if not ctx.quick:
        write, read = ctx.files(["write"], table), ctx.files(["read"], table)
        steps.insert(1, ctx.phase(f"{v}-mixed-2+1", "run", [], 1, clients=3,
                                  client_files=[write, write, read], group="mixed"))
    return steps
