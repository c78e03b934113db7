"""Charts of YCSB results, each written as PNG and SVG.

Every chart function takes loaded runs (and an output directory), returns the
:class:`~ycsb_analysis.charts.common.Chart` files it wrote, or an empty list when the runs
hold nothing it can draw (e.g. no thread sweep among them).
"""

from .capacity import capacity_charts
from .common import Chart
from .comparison import database_comparison
from .fault import fault_timelines
from .over_time import (
    errors_over_time,
    latency_over_time,
    measured_latency_over_time,
    throughput_over_time,
)
from .percentiles import percentile_curves
from .servers import servers_charts
from .sweeps import client_scaling, find_knee, thread_sweep

ALL_CHARTS = (throughput_over_time, latency_over_time, measured_latency_over_time,
              percentile_curves, thread_sweep, client_scaling, database_comparison,
              errors_over_time, fault_timelines, capacity_charts, servers_charts)

__all__ = ["Chart", "ALL_CHARTS", "throughput_over_time", "latency_over_time",
           "measured_latency_over_time", "percentile_curves", "thread_sweep", "client_scaling",
           "database_comparison", "errors_over_time", "fault_timelines", "capacity_charts",
           "find_knee"]
