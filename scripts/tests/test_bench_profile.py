"""scripts/bench-binding --profile: reading async-profiler's collapsed stacks (a few real lines of
an hbase-salted leg, tests/fixtures/hbase-binding-cpu.collapsed) and the agent argument."""
from pathlib import Path

import pytest
from ycsbpack.bench import bench_profile as bp

FIXTURE = Path(__file__).parent / "fixtures" / "hbase-binding-cpu.collapsed"


def stacks():
    return bp.read_collapsed(FIXTURE.read_text())


def test_a_collapsed_line_is_its_frames_outermost_first_and_its_count():
    s = stacks()
    assert len(s) == 6
    assert sum(c for _, c in s) == 7
    frames, count = s[1]
    assert count == 2
    assert frames[0].startswith("[RPCClient-NioEventLoopGroup")
    assert frames[-1] == "__GI_write"


def test_each_sample_belongs_to_the_innermost_layer_its_frames_name():
    by_thread = {frames[0].split(" tid=")[0]: bp.layer_of(frames) for frames, _ in stacks()}
    assert by_thread["[C2 CompilerThre"] == "JIT compiler"
    assert by_thread["[RPCClient-NioEventLoopGroup-1-1"] == "netty"
    assert by_thread["[Thread-2"] == "HBase tracing (OpenTelemetry spans)"
    assert by_thread["[Thread-7"] == "YCSB workload and client"
    assert by_thread["[Thread-9"] == "the binding"
    assert by_thread["[Thread-1"] == "YCSB measurements"


def test_layer_shares_add_up_to_all_samples_largest_first():
    shares = bp.layer_shares(stacks())
    assert sum(shares.values()) == pytest.approx(1.0)
    assert next(iter(shares)) == "netty"
    assert shares["netty"] == pytest.approx(2 / 7)


def test_top_self_frames_count_the_innermost_frame():
    top = dict(bp.top_frames(stacks(), 3))
    assert top["__GI_write"] == pytest.approx(2 / 7)


def test_the_agent_writes_collapsed_stacks_with_thread_names_per_event(tmp_path):
    lib = tmp_path / "libasyncProfiler.so"
    cpu = bp.agent_arg(lib, "cpu", tmp_path / "b-cpu.collapsed")
    assert cpu == (f"-agentpath:{lib}=start,event=ctimer,interval=1ms,threads,collapsed,"
                   f"file={tmp_path}/b-cpu.collapsed")
    assert "event=alloc," in bp.agent_arg(lib, "alloc", tmp_path / "b-alloc.collapsed")
