"""bench-server-watch keeps its pairs and reads them back, pooled over runs (no server)."""
import math

import pytest
from ycsbpack.bench import bench_server_watch as sw
from ycsbpack.core.errors import ScriptError

# the first five pairs of the Cassandra short-range run of 2026-12-05 (docs/benchmarks/
# server-watch.md): pair, sampled ops/s, not sampled ops/s, the probe's share of the CPU
PAIRS = [(1, 2961.0, 2643.0, 0.0015), (2, 2769.0, 2563.0, 0.0015), (3, 2606.0, 2587.0, 0.0015),
         (4, 2553.0, 2850.0, 0.0015), (5, 2500.0, 2633.0, 0.001)]


def test_the_pairs_written_are_read_back_as_their_log_ratios(tmp_path):
    sw._write_pairs(tmp_path, PAIRS)
    logs = sw._read_pairs(tmp_path)
    assert logs == pytest.approx([math.log(on / off) for _, on, off, _ in PAIRS])
    mean = math.exp(sum(logs) / len(logs))
    assert sw._interval(logs).startswith(f"{mean:.3f} (95% CI ")


def bounds(text):
    return [float(x) for x in text.split("95% CI ")[1].split(";")[0].split(" to ")]


def test_correlated_neighbouring_pairs_widen_the_interval():
    # the same log ratios in two orders: alike neighbours (lag-1 autocorrelation > 0) count as
    # fewer independent pairs than alternating ones (uncertainty.within_run)
    logs = sorted(math.log(on / off) for _, on, off, _ in PAIRS * 4)
    alternating = [x for pair in zip(logs[:10], logs[10:][::-1]) for x in pair]
    smooth, mixed = bounds(sw._interval(logs)), bounds(sw._interval(alternating))
    assert smooth[1] - smooth[0] > 1.5 * (mixed[1] - mixed[0])
    assert "lag-1 autocorrelation 0.8" in sw._interval(logs)


def test_read_pools_the_pairs_of_earlier_runs_and_runs_nothing(tmp_path, capsys):
    one, two = tmp_path / "one", tmp_path / "two"
    for d, rows in ((one, PAIRS), (two, PAIRS[::-1])):
        d.mkdir()
        sw._write_pairs(d, rows)
    assert sw.main(["--read", str(one), "--read", str(two)]) == 0
    out = capsys.readouterr().out
    assert f"over {one}, {two}: " in out and "10 pairs" in out
    assert bounds(sw._interval(sw._read_pairs(one)))[0] < bounds(out)[0]  # narrower


def test_a_directory_without_pairs_is_refused_in_one_sentence(tmp_path):
    with pytest.raises(ScriptError, match=r"--read .*: no pairs.csv there; give the --out"):
        sw.main(["--read", str(tmp_path)])
    (tmp_path / sw.PAIRS_CSV).write_text("pair,sampled_ops_per_s\n1,2961\n")
    with pytest.raises(ScriptError, match="a row without two positive throughputs"):
        sw.main(["--read", str(tmp_path)])
    with pytest.raises(ScriptError, match="--rounds 2: give 3 to 200"):
        sw.main(["--rounds", "2", "--out", str(tmp_path)])  # before any server starts
