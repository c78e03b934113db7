"""HdrHistogram interval logs: V2 (HdrHistogram 2.1.12) and V1 (stock YCSB 0.17's 2.1.4)."""

import base64
from pathlib import Path

import pytest
from conftest import by, phase_dir
from hdrh.histogram import HdrHistogram
from ycsb_analysis.errors import UnreadableInput
from ycsb_analysis.hdr_logs import merge_histograms, percentiles
from ycsb_analysis.readers.hdr import decode_histogram, read_hdr_log
from ycsb_analysis.readers.output import parse_file

V2_PHASE, V1_PHASE = "batch-run", "run-clients-2"   # see make_fixtures.sh


def test_fixture_logs_really_are_v1_and_v2():
    v1 = (phase_dir(V1_PHASE) / "hdr" / "client-0-READ.hdr").read_text()
    v2 = (phase_dir(V2_PHASE) / "hdr" / "client-0-BATCH_READ.hdr").read_text()
    assert ",HISTggAA" in v1 and ",HISTFAAA" in v2


@pytest.mark.parametrize("phase", [V1_PHASE, V2_PHASE, "run-threads-4", "load"])
def test_summed_intervals_reproduce_ycsbs_own_count_and_percentiles(phase):
    d = phase_dir(phase)
    (report,) = parse_file(d / "client-0.out")
    summary = by(report.summary, "metric")
    for hdr in sorted((d / "hdr").glob("client-0-*.hdr")):
        log = read_hdr_log(hdr)
        if log.metric.endswith("-RECORDS"):
            continue
        total = log.total()
        figures = percentiles(total, (95, 99))
        row = summary[log.metric]
        assert total.total_count == row["operations"]
        assert (figures["p95"], figures["p99"]) == (row["p95"], row["p99"])
        assert figures["max_latency_us"] == row["max_latency_us"]


def test_merging_matches_the_hdrhistogram_package_own_addition():
    d = phase_dir(V2_PHASE)
    logs = [read_hdr_log(p) for p in sorted((d / "hdr").glob("client-*-BATCH_READ.hdr"))]
    ours = merge_histograms([log.total() for log in logs])
    theirs = HdrHistogram(1, 3_600_000_000, 3)
    for p in sorted((d / "hdr").glob("client-*-BATCH_READ.hdr")):
        for line in p.read_text().splitlines():
            if line[:1].isdigit():
                theirs.add(HdrHistogram.decode(line.split(",")[3]))
    ours.rank_rounding = "half-up"  # the Python package ranks like HdrHistogram 2.1.4
    ours_p = percentiles(ours, (50, 99, 99.9))
    for p in (50, 99, 99.9):
        assert ours_p[f"p{p:g}"] == theirs.get_value_at_percentile(p)
    assert ours.total_count == theirs.get_total_count()


def test_a_truncated_v1_payload_is_a_clear_error():
    line = [x for x in (phase_dir(V1_PHASE) / "hdr" / "client-0-READ.hdr").read_text().splitlines()
            if x[:1].isdigit()][0]
    raw = base64.b64decode(line.split(",")[3])
    broken = base64.b64encode(raw[: len(raw) // 2]).decode()
    with pytest.raises(ValueError, match="V1"):
        decode_histogram(broken)


def test_a_corrupt_log_is_an_error_naming_the_file(tmp_path):
    p = tmp_path / "client-0-READ.hdr"
    p.write_text("#[Histogram log format version 1.3]\n0.0,1.0,0.1,HISTnotbase64!!\n")
    with pytest.raises(UnreadableInput) as e:
        read_hdr_log(p)
    assert str(p) in str(e.value)


def test_a_resized_histogram_whose_counts_pass_its_stated_range_decodes_whole():
    """Three intervals of a real READ log (HBase, a capacity step where the client fell 4 s
    behind; fixtures/hdr-resized): the middle one holds values up to 14,183 us while its header
    states 8,191 us as its highest trackable value. The whole log read this way reproduces
    YCSB's own count, p95, p99 and maximum of the run."""
    path = Path(__file__).parent / "fixtures" / "hdr-resized" / "client-0-READ.hdr"
    log = read_hdr_log(path)
    assert len(log.intervals) == 3
    for h, row in zip(log.histograms, log.intervals.iter_rows(named=True)):
        # the log's own Interval_Max column (seconds, 3 decimals) against the decoded maximum
        assert percentiles(h, ())["max_latency_us"] / 1e6 == pytest.approx(
            row["interval_max_s"], abs=0.0005)
    assert percentiles(log.histograms[1], ())["max_latency_us"] == 14183
