"""The client libraries' log: out of stderr, in a file the error names, kept with a phase's
results. A real cassandra4 client against a closed loopback port (no server needed)."""
import pytest
from ycsbpack.core.errors import ScriptError
from ycsbpack.core.paths import REPO_ROOT, RUNTIME_LIB
from ycsbpack.phases.phase_runner import Phase, run_phase


@pytest.mark.skipif(not RUNTIME_LIB.is_dir(), reason="the project is not built")
def test_a_failed_phase_names_the_driver_log_kept_in_its_directory(tmp_path):
    phase = Phase("s4", "unreachable", "cassandra", "cassandra4", "run",
                  [str(REPO_ROOT / "workloads" / "s4" / "update-heavy.properties")],
                  {"hosts": "127.0.0.1:1", "operationcount": "5"})
    with pytest.raises(ScriptError) as e:
        run_phase(phase, tmp_path, echo_status=False)
    log = tmp_path / "unreachable" / "client-0.libraries.log"
    err = (tmp_path / "unreachable" / "client-0.err").read_text()
    assert "connection refused at 127.0.0.1:1: nothing listens there" in err
    assert f"(client library log: {log})" in err
    assert "ControlConnection" in log.read_text(), "the driver's warning is in the log"
    assert "ControlConnection" not in err, "and not on stderr"
    assert "bin/ycsb exit 3" in str(e.value)
