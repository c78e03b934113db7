"""The status lines' regular expressions (the format is described in :mod:`.status`, which
reads whole files with them). Standard library only: the scenario runner matches single lines
with them as they come (scripts/lib/ycsbpack/runner/objective_watch.py), in a Python without
the analysis package's dependencies."""

# The head of an entry, up to its current throughput; after it (and one space), `est
# completion in ...` while YCSB can estimate it ("0 second", "3 minutes", "1 hours 2
# minutes"), which ends where the measurements begin (ESTIMATE_END), or at the end.
STATUS_HEAD = (
    r"^(?P<label>.*?)(?P<time>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}:\d{3}) "
    r"(?P<elapsed_s>\d+) sec: (?P<operations>\d+) operations; "
    r"(?P<current_ops_per_s>\S+) current ops/sec;"
)
EST_MARKER = "est completion in "
ESTIMATE_END = r" (?:\[|[\w-]+ count: )"
# Further physical lines of one entry (TwoInOneMeasurement prints a newline between its two
# summaries): `[BucketREAD AverageLatency(us)=671.39] [HdrUPDATE: Count=39, ...`.
STATUS_CONTINUATION = (
    r"^\s*(?:\[[^\],]+(?:: Count=| AverageLatency\(us\)=)"
    r"|[\w-]+ count: \d+, average latency\(us\): )"
)
# One measurement of an entry, in any of the three summary formats:
#   hdrhistogram:         [READ: Count=14, Max=2175, Min=1, Avg=648.93, 90=1408, 99=2175, ...]
#   histogram/timeseries: [READ AverageLatency(us)=1.8]
#   raw:                  READ count: 6, average latency(us): 1.00
_NUM = r"(?:NaN|-?\d+(?:[.,]\d+)?(?:E-?\d+)?)"
STATUS_MEASUREMENT = (
    r"\[(?P<hdr_metric>[^\]:]+): Count=(?P<hdr_count>\d+), Max=(?P<hdr_max>-?\d+), "
    rf"Min=(?P<hdr_min>-?\d+), Avg=(?P<hdr_avg>{_NUM})"
    r"(?P<hdr_percentiles>(?:, \d+(?:\.\d+)?=-?\d+)*)\]"
    rf"|\[(?P<avg_metric>[^\]]+?) AverageLatency\(us\)=(?P<avg_avg>{_NUM})\]"
    r"|(?P<raw_metric>[\w-]+) count: (?P<raw_count>\d+), "
    rf"average latency\(us\): (?P<raw_avg>{_NUM})"
)
PERCENTILE_PAIR = r"\d+(?:\.\d+)?=-?\d+"
