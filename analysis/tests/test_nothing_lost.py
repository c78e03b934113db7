"""Every input is used or named with why not; nothing is overwritten, cut or dropped silently.

The cut, collided and re-encoded inputs are made here from real YCSB outputs (a truncated real
file is a real output; PowerShell's ``>`` re-encodes a real output as UTF-16)."""

import shutil

import pytest
from conftest import (
    OUTPUTS,
    REPORT_CASES,
    RESULTS,
    SEED,
    by,
    phase_dir,
    read_csv,
    report_figures,
)
from ycsb_analysis.cli import EXIT_COMPLETE, EXIT_INCOMPLETE, EXIT_NO_REPORT, main
from ycsb_analysis.errors import UnreadableInput
from ycsb_analysis.loader import load, load_phase_dir
from ycsb_analysis.readers.hdr import read_hdr_log
from ycsb_analysis.readers.output import parse_file

CRASHED = next(REPORT_CASES.glob("crashed/*/run"))


def _summary(out):
    return read_csv(out / "summary.csv")


def test_files_sharing_a_name_in_two_directories_are_two_runs_each_with_its_own_figures(
    tmp_path, capsys
):
    for d, src in (("r1", "hdrhistogram.out"), ("r2", "histogram.out")):
        (tmp_path / d).mkdir()
        shutil.copy(OUTPUTS / src, tmp_path / d / "out.txt")
    out = tmp_path / "o"
    assert (
        main([str(tmp_path / "r1" / "out.txt"), str(tmp_path / "r2" / "out.txt"), "-o", str(out)])
        == EXIT_COMPLETE
    )
    s = by(_summary(out), "run")
    assert set(s) == {"out (r1/out.txt)", "out (r2/out.txt)"}
    for d, src in (("r1", "hdrhistogram.out"), ("r2", "histogram.out")):
        assert (
            s[f"out ({d}/out.txt)"]["runtime_ms"]
            == report_figures(OUTPUTS / src)[("OVERALL", "RunTime(ms)")]
        )
    html = (out / "report.html").read_text()
    assert "out (r1/out.txt)" in html and "out (r2/out.txt)" in html


def test_the_same_file_given_twice_is_read_once_and_said_so(tmp_path, capsys):
    f = str(OUTPUTS / "hdrhistogram.out")
    out = tmp_path / "o"
    assert main([f, f"again={f}", "-o", str(out)]) == EXIT_COMPLETE
    assert len(_summary(out)) == 1
    err = capsys.readouterr().err
    assert "read once" in err and "hdrhistogram.out" in err


def _cut(tmp_path, src, marker: bytes, keep: int, name="cut.out"):
    """``src`` cut ``keep`` bytes after the start of ``marker`` (mid-line: no final newline)."""
    data = src.read_bytes()
    dst = tmp_path / name
    dst.write_bytes(data[: data.index(marker) + keep])
    return dst


def test_a_final_report_cut_mid_number_never_takes_the_number_at_the_cut(tmp_path, capsys):
    full = report_figures(OUTPUTS / "hdrhistogram.out")
    runtime = str(int(full[("OVERALL", "RunTime(ms)")])).encode()
    assert len(runtime) > 1
    cut = _cut(tmp_path, OUTPUTS / "hdrhistogram.out", b"[OVERALL], RunTime(ms), " + runtime,
               len(b"[OVERALL], RunTime(ms), ") + len(runtime) - 1)
    with pytest.raises(UnreadableInput, match="without a line end") as e:   # never 40 for 400
        parse_file(cut)
    assert runtime[:-1].decode() in e.value.problem
    out = tmp_path / "o"
    assert main([str(cut), str(OUTPUTS / "histogram.out"), "-o", str(out)]) == EXIT_INCOMPLETE
    err = capsys.readouterr().err
    assert f"skipped: {cut}" in err and "[OVERALL], RunTime(ms)" in err
    assert "Not used or incomplete" in (out / "report.html").read_text()
    assert len(_summary(out)) == 1


def test_a_cut_operations_count_is_not_read_and_the_block_is_named(tmp_path):
    ops = str(int(report_figures(OUTPUTS / "hdrhistogram.out")[("READ", "Operations")])).encode()
    marker = b"[READ], Operations, " + ops
    cut = _cut(tmp_path, OUTPUTS / "hdrhistogram.out", marker, len(marker) - 1)
    (run,) = load([str(cut)])
    (c,) = run.clients
    assert "READ" not in set(c.output.summary["metric"])         # never 48 for 483
    assert any("[READ] cut at" in u for u in run.unused)


def test_a_block_cut_at_a_line_end_is_named_by_what_it_lacks(tmp_path):
    data = (OUTPUTS / "hdrhistogram.out").read_bytes()
    lines = data.splitlines(keepends=True)
    last_max = max(i for i, line in enumerate(lines) if b"MaxLatency(us)" in line)
    block = lines[last_max].split(b"]")[0][1:].decode()
    cut = tmp_path / "cut.out"
    cut.write_bytes(b"".join(lines[: last_max + 1]))              # ends with a newline
    (run,) = load([str(cut)])
    assert any(f"[{block}] lacks" in u and "PercentileLatency" in u for u in run.unused)


def test_a_status_line_cut_mid_line_is_not_read(tmp_path):
    src = OUTPUTS / "hdrhistogram.err"
    data = src.read_bytes()
    last_head = data.rindex(b" sec: ")
    cut = tmp_path / "client.err"
    end = data.index(b"Count=", last_head) + len(b"Count=") + 1
    cut.write_bytes(data[:end])
    (o,) = parse_file(cut)
    (full,) = parse_file(src)
    assert len(o.status_entries) == len(full.status_entries) - 1
    assert o.cut_line is not None and o.cut_line.endswith(data[end - 8: end].decode())
    assert any("no line end" in p for p in o.completeness_problems)


def test_no_complete_fixture_is_flagged_incomplete():
    for f in sorted(OUTPUTS.glob("*.out")) + sorted(RESULTS.rglob("client-*.out")):
        for o in parse_file(f):
            assert o.completeness_problems == [], f


def test_a_header_only_hdr_log_means_no_intervals_not_a_failure():
    log = read_hdr_log(CRASHED / "hdr" / "client-0-INSERT.hdr")
    assert log.intervals.is_empty() and log.total().total_count == 0
    run = load_phase_dir(CRASHED)
    assert "INSERT" in run.clients[0].hdr_logs
    assert any("client-0-INSERT.hdr has no intervals" in w for w in run.warnings)


def test_a_hdr_log_cut_mid_line_keeps_its_complete_intervals_and_names_the_cut(tmp_path):
    res = tmp_path / "intended" / "t" / "run"
    shutil.copytree(next(REPORT_CASES.glob("intended/*/run")), res)
    log = res / "hdr" / "client-0-READ.hdr"
    full = read_hdr_log(log)
    text = log.read_text()
    log.write_text(text[: text.rstrip("\n").rfind(",") + 12])       # inside the last histogram
    cut = read_hdr_log(log)
    assert len(cut.intervals) == len(full.intervals) - 1 and cut.cut_line is not None
    run = load_phase_dir(res)
    assert any("client-0-READ.hdr" in u and "cut" in u for u in run.unused)


def test_a_crashed_client_is_reported_from_its_status_lines_with_its_missing_report_named(
    tmp_path, capsys
):
    out = tmp_path / "o"
    assert main([str(CRASHED), "-o", str(out)]) == EXIT_INCOMPLETE
    err = capsys.readouterr().err
    assert "client-0.out" in err and "is empty" in err
    status = read_csv(out / "status.csv")                     # its status lines are kept
    assert set(status["metric"]) >= {"READ", "UPDATE"}


def test_a_status_only_file_says_its_final_report_is_missing(tmp_path, capsys):
    out = tmp_path / "o"
    assert main([str(CRASHED / "client-0.err"), "-o", str(out)]) == EXIT_INCOMPLETE
    assert "no final report" in capsys.readouterr().err
    assert "no final report" in (out / "report.html").read_text()


def test_one_unusable_input_among_many_is_skipped_named_and_the_rest_reported(tmp_path, capsys):
    junk = tmp_path / "notes.txt"
    junk.write_text("benchmark notes, not a YCSB output\n")
    out = tmp_path / "o"
    assert main([str(OUTPUTS / "hdrhistogram.out"), str(junk), str(phase_dir("run-threads-1")),
                 "-o", str(out)]) == EXIT_INCOMPLETE
    err = capsys.readouterr().err
    assert f"skipped: {junk}: no YCSB output found" in err
    html = (out / "report.html").read_text()
    assert "1 input(s) skipped" in html and str(junk) in html
    assert set(_summary(out)["run"]) == {"hdrhistogram", "basic:run-threads-1"}


def test_a_bad_phase_among_good_ones_is_skipped_not_fatal(tmp_path, capsys):
    res = tmp_path / "res"
    for phase in ("run-threads-1", "run-threads-2"):
        shutil.copytree(phase_dir(phase), res / "s" / "t" / phase)
    (res / "s" / "t" / "run-threads-1" / "metadata.json").write_text("{not json")
    out = tmp_path / "o"
    assert main([str(res), "-o", str(out)]) == EXIT_INCOMPLETE
    assert "metadata.json: is not valid JSON" in capsys.readouterr().err
    assert list(_summary(out)["run"]) == ["basic:run-threads-2"]


def test_nothing_usable_is_exit_2_with_every_reason(tmp_path, capsys):
    junk = tmp_path / "a.txt"
    junk.write_text("nothing\n")
    assert (
        main([str(junk), str(tmp_path / "missing.out"), "-o", str(tmp_path / "o")])
        == EXIT_NO_REPORT
    )
    err = capsys.readouterr().err
    assert "a.txt" in err and "does not exist" in err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])
def test_utf16_output_is_read_like_the_original_and_its_encoding_named(tmp_path, capsys, encoding):
    src = OUTPUTS / "hdrhistogram.out"
    f = tmp_path / "powershell.out"
    f.write_bytes(src.read_text(encoding="utf-8").encode(encoding))
    (o,) = parse_file(f)
    (ref,) = parse_file(src)
    assert o.report.equals(ref.report)
    assert o.encoding == encoding
    assert main([str(f), "-o", str(tmp_path / "o")]) == EXIT_COMPLETE
    assert "UTF-16" in capsys.readouterr().err


def test_a_baseline_without_a_common_phase_says_so(tmp_path, capsys):
    out = tmp_path / "o"
    assert main([str(SEED / "cassandra-insert-1-client.txt"), "-o", str(out),
                 "--baseline", str(phase_dir("run-threads-1"))]) == EXIT_COMPLETE
    err = capsys.readouterr().err
    assert "no phase of the baseline" in err
    html = (out / "report.html").read_text()
    assert "no phase of the baseline" in html and "is not in the baseline" in html


def test_negative_latencies_are_flagged(tmp_path, capsys):
    out = tmp_path / "o"
    main([str(REPORT_CASES / "clock-step.out"), "-o", str(out)])
    err = capsys.readouterr().err
    assert "implausible" in err and "[SERVER_READ]: negative latency" in err
    assert "raw datapoints with a negative latency" in err
    assert "[SERVER_READ]: negative latency" in (out / "report.html").read_text()


def test_sane_fixtures_raise_no_flag():
    from ycsb_analysis.plausibility import implausible_figures

    for run in load(
        [str(RESULTS), str(REPORT_CASES / "raw.out"), str(REPORT_CASES / "timeseries.out")]
    ):
        assert implausible_figures(run) == [], run.path
