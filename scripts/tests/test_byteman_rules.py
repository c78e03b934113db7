"""The slow disk's mechanism on a real JVM (servers/byteman.py): a small Java program whose one
method stands for a node's log write, timed before, while and after a Byteman rule slows it; the
agent loaded into the running process as it is into a server's. About 10 s (two JVMs start)."""
import subprocess
import time

import pytest
from ycsbpack.core import java
from ycsbpack.servers import byteman

# a "server": each line on stdin calls write() once and prints how long it took (ms)
PROGRAM = """
import java.io.*;
public class Disk {
  static void write() { }
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    System.out.println("ready");
    for (String line; (line = in.readLine()) != null; ) {
      long t = System.nanoTime();
      write();
      System.out.println((System.nanoTime() - t) / 1000000);
    }
  }
}
"""


@pytest.fixture
def disk(tmp_path):
    source = tmp_path / "Disk.java"
    source.write_text(PROGRAM)
    p = subprocess.Popen([java.java17(), str(source)], text=True, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    assert p.stdout.readline().strip() == "ready"
    yield p
    p.kill()
    p.wait()


def write_ms(p) -> int:
    p.stdin.write("\n")
    p.stdin.flush()
    return int(p.stdout.readline())


def test_a_rule_slows_the_call_while_loaded_traces_each_call_and_is_gone_after(disk, tmp_path):
    assert write_ms(disk) < 100
    trace = tmp_path / "state" / "slow.trace"
    text = byteman.rule_text("test slow write", "Disk", "write", "300", trace)
    started = int(time.time() * 1000)
    with byteman.Rules(disk.pid, text, tmp_path / "state" / "slow.btm"):
        slowed = [write_ms(disk) for _ in range(3)]
    ended = int(time.time() * 1000)
    assert all(300 <= ms < 1500 for ms in slowed), slowed
    assert byteman.calls_between(trace, started, ended) == 3
    assert byteman.calls_between(trace, 0, started - 1) == 0
    assert write_ms(disk) < 100   # the rule removed: fast again
    # the agent stays in the process: a second rule reuses its listener (no second install)
    assert len(list((tmp_path / "state").glob(f"byteman-agent-{disk.pid}-*.port"))) == 1
    deadline = int(time.time() * 1000) + 1000   # the stall: every call waits until then
    stall_trace = tmp_path / "state" / "stall.trace"
    stall = byteman.rule_text("test stalled write", "Disk", "write",
                              f"Math.max(0L, {deadline}L - System.currentTimeMillis())",
                              stall_trace)
    with byteman.Rules(disk.pid, stall, tmp_path / "state" / "stall.btm"):
        first = write_ms(disk)
        time.sleep(max(0.0, deadline / 1000 - time.time()))
        after_deadline = write_ms(disk)
    assert 500 <= first <= 1500 and after_deadline < 100, (first, after_deadline)
    # each rule's calls in its own trace
    assert byteman.calls_between(stall_trace, 0, 2 ** 62) == 2
    assert byteman.calls_between(trace, 0, 2 ** 62) == 3


def test_a_process_the_agent_cannot_enter_is_named_in_one_sentence(tmp_path):
    from ycsbpack.core.errors import ScriptError
    gone = subprocess.Popen(["true"])
    gone.wait()
    with pytest.raises(ScriptError, match=rf"could not load the Byteman agent into process "
                                          rf"{gone.pid}: .*attach mechanism"):
        with byteman.Rules(gone.pid, "", tmp_path / "x.btm"):
            pass
