"""Command-line checks that need a file tree or a plan rather than a command (the commands
themselves are in bad_inputs.txt)."""
import pytest
from ycsbpack import databases
from ycsbpack.core.errors import ScriptError
from ycsbpack.scenarios.catalogue import SCENARIOS
from ycsbpack.scenarios.scenario_plan import Context
from ycsbpack.ycsb import install


def test_a_release_tree_without_a_launcher_is_refused_before_anything_is_copied(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "core-0.17.0.jar").write_text("")
    with pytest.raises(ScriptError) as e:
        install.kind_of_tree(tmp_path)
    assert "has neither bin/ycsb nor bin/bindings.properties" in str(e.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin", "lib"]
    (tmp_path / "bin" / "bindings.properties").write_text("basic:site.ycsb.BasicDB\n")
    assert install.kind_of_tree(tmp_path) == "release"


@pytest.mark.parametrize("database", ["cassandra", "hbase"])
def test_s1_plans_its_own_clients_so_refusing_clients_loses_nothing(database):
    """run-scenario refuses --clients for S1 (arg_checks.USES_CLIENTS): its plan ignores it."""
    def described(clients):
        ctx = Context("s1", databases.database(database), "local", clients,
                      {"hosts": "127.0.0.1"})
        return [(getattr(s, "name", None), getattr(s, "clients", None), getattr(s, "threads", None))
                for s in SCENARIOS["s1"].plan(ctx)]
    assert described(1) == described(3)
