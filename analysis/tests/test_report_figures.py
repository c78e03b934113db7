"""Every figure the inputs carry is in the report: per client, at YCSB's precision, timeseries
and raw data, intended latency; charts that read right (titles, legends, percentile axis)."""

import re

import numpy as np
import polars as pl
import pytest
from conftest import REPORT_CASES, by, phase_dir, read_csv, report_figures
from ycsb_analysis.charts.common import legend_beside, new_figure
from ycsb_analysis.charts.percentiles import percentile_label, percentile_ticks
from ycsb_analysis.cli import main
from ycsb_analysis.hdr_logs import merge_histograms, percentile_curve, percentiles
from ycsb_analysis.loader import load_phase_dir
from ycsb_analysis.timeseries import operation_throughput

INTENDED = next(REPORT_CASES.glob("intended/*/run"))


@pytest.fixture(scope="module")
def cases_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("cases")
    status = main(
        [
            str(phase_dir("run-clients-3")),
            str(INTENDED),
            str(REPORT_CASES / "timeseries.out"),
            str(REPORT_CASES / "raw.out"),
            "-o",
            str(out),
        ]
    )
    assert status == 0
    return out


def _section(html: str, run: str) -> str:
    start = html.index(f"<h2>{run}</h2>")
    return html[start: html.index("</section>", start)]


def test_each_client_of_a_merged_run_has_its_own_row_of_figures(cases_report):
    clients = read_csv(cases_report / "clients.csv")
    html = (cases_report / "report.html").read_text()
    section = _section(html, "basic:run-clients-3")
    mine = by(clients.filter(pl.col("run") == "basic:run-clients-3"), "client")
    for i, out in enumerate(sorted(phase_dir("run-clients-3").glob("client-*.out"))):
        fig = report_figures(out)
        assert mine[i]["runtime_ms"] == fig[("OVERALL", "RunTime(ms)")]
        assert mine[i]["throughput_ops_per_s"] == pytest.approx(
            fig[("OVERALL", "Throughput(ops/sec)")]
        )
        assert mine[i]["gc_count"] == fig[("TOTAL_GCs", "Count")]
        assert mine[i]["gc_time_ms"] == fig[("TOTAL_GC_TIME", "Time(ms)")]
        assert (
            f"OK {int(fig[('READ', 'Return=OK')] + fig[('UPDATE', 'Return=OK')])}"
            in mine[i]["returns"]
        )
        # in the HTML beside the merged row, throughput at two decimals (not rounded to whole ops/s)
        assert f"{fig[('OVERALL', 'Throughput(ops/sec)')]:,.2f}" in section
        assert f"{fig[('READ', 'AverageLatency(us)')]:,.2f}" in section


def test_headers_are_words_with_units_not_column_names(cases_report):
    html = (cases_report / "report.html").read_text()
    headers = re.findall(r"<th[^>]*>([^<]*)</th>", html)
    assert "Throughput (ops/s)" in headers and "Run time (ms)" in headers and "p99 (µs)" in headers
    assert not [h for h in headers if "_" in h], "snake_case header"
    assert '<div class="scroll"><table>' in html          # wide tables scroll inside the page


def test_timeseries_and_raw_data_are_exported_and_charted(cases_report):
    ts = read_csv(cases_report / "timeseries.csv")
    rows = re.findall(
        r"^\[([^\]]+)\], (\d+), (\S+)$", (REPORT_CASES / "timeseries.out").read_text(), re.M
    )
    assert len(ts) == len(rows) > 0
    assert "Intended-READ" in set(ts["metric"])
    raw = read_csv(cases_report / "raw-datapoints.csv")
    points = re.findall(r"^[\w-]+,\d{10,},-?\d+$", (REPORT_CASES / "raw.out").read_text(), re.M)
    assert len(raw) == len(points) > 0
    assert (cases_report / "measured-latency-over-time.png").exists()
    html = (cases_report / "report.html").read_text()
    for f in ("timeseries.csv", "raw-datapoints.csv", "clients.csv", "figures.json"):
        assert f'href="{f}"' in html


def test_intended_latency_is_shown_beside_service_latency_and_explained(cases_report):
    html = (cases_report / "report.html").read_text()
    section = _section(html, "basic:run")
    assert "Intended-READ" in section and "coordinated omission" in section
    assert "dashed: intended latency" in html               # the percentile curve draws both


def test_the_percentile_curve_reaches_the_maximum():
    run = load_phase_dir(INTENDED)
    h = merge_histograms([run.clients[0].hdr_logs["READ"].total()])
    curve = percentile_curve(h)
    assert curve["latency_us"][-1] == percentiles(h, ())["max_latency_us"]
    assert curve["percentile"][-1] < 100 and curve["percentile"].is_sorted()


def test_percentile_ticks_read_as_percentages():
    assert [percentile_label(t) for t in percentile_ticks(0.9995)] == [
        "50%",
        "90%",
        "99%",
        "99.9%",
        "99.99%",
    ]
    assert percentile_label(0.999) == "99.9%"


def test_throughput_over_time_counts_every_operation_once_across_clients():
    run = load_phase_dir(phase_dir("run-clients-3"))
    thr = operation_throughput(run)
    read = thr.filter(pl.col("metric") == "READ")
    # cells of one grid step from the earliest client start; the last one ends with the run
    step = np.diff(read["t_s"].to_numpy())[:-1]
    assert np.allclose(step, step[0])
    edges = np.concatenate([[read["t_s"][0] - step[0]], read["t_s"].to_numpy()])
    counted = sum(
        float(c.output.status_measurements.filter(pl.col("metric") == "READ")["count"].sum())
        for c in run.clients
    )
    widths = np.diff(edges)
    assert (read["ops_per_s"].to_numpy() * widths).sum() == pytest.approx(counted, rel=1e-6)


def test_the_figure_title_sits_above_the_first_panel_title():
    fig, axes = new_figure(2)
    axes[0].set_title("READ")
    fig.suptitle("Throughput over time")
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    assert fig._suptitle.get_window_extent(r).y0 >= axes[0].title.get_window_extent(r).y1


def test_a_legend_of_40_runs_stays_beside_the_plot_inside_the_figure():
    fig, axes = new_figure(1, legend_entries=40)
    ax = axes[0]
    for i in range(40):
        ax.plot([0, 1], [i, i + 1], label=f"scenario-{i:02d}:run-threads-{i}")
    ax.set_ylabel("throughput (ops/s)")
    legend_beside(ax)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    legend, plot, whole = ax.get_legend().get_window_extent(r), ax.get_window_extent(r), fig.bbox
    assert legend.x0 >= plot.x1                                   # never over the plot
    assert legend.x1 <= whole.x1 + 1 and legend.y0 >= whole.y0 - 1
    assert ax.yaxis.label.get_window_extent(r).x0 >= whole.x0     # y label not cut off
    assert plot.width > 0.4 * whole.width
