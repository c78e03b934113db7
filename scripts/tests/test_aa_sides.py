"""The sides of an A/A run (ycsbpack.runner.aa): names, metadata, and side B's one change
(--b-property, the power check's known difference). The whole --aa path runs on real servers in
test_s4_trials_on_own_servers.py."""

import pytest
from ycsbpack.core.errors import ScriptError
from ycsbpack.phases.phase_runner import Phase
from ycsbpack.runner.aa import aa_sides, as_side
from ycsbpack.runner.scenario_args import b_properties


def _steps():
    load = Phase("s4", "load", "hbase", "hbase-salted", "load", [], dir_name="hbase-load")
    run = Phase("s4", "update-heavy", "hbase", "hbase-salted", "run", [], threads=8,
                dir_name="hbase-update-heavy-threads-8-repeat-1", clients=2)
    return [(None, load), (None, run)], load, run


def test_each_side_names_its_phases_and_says_which_database_it_is():
    assert aa_sides("hbase") == {"hbase-A": "hbase", "hbase-B": "hbase"}
    steps, load, run = _steps()
    as_side(steps, "hbase-A", "hbase", {"target": "9000"})  # a change is B's only
    assert run.database == "hbase-A" and run.dir_name.startswith("hbase-A-update-heavy")
    assert load.notes["aa"] == run.notes["aa"] == {"database": "hbase", "side": "A"}
    assert run.target is None and run.properties == {}


def test_side_b_runs_its_measured_phases_with_the_change_and_records_it():
    steps, load, run = _steps()
    as_side(steps, "hbase-B", "hbase", {"target": "9000", "readproportion": "0.6"})
    # a target is the phase's -target (shared out between its 2 clients), the rest properties
    assert run.target == 9000 and run.properties == {"readproportion": "0.6"}
    assert run.notes["aa"]["changed"] == {"target": "9000", "readproportion": "0.6"}
    # the load is the data both sides start from: unchanged
    assert load.target is None and load.properties == {} and "changed" not in load.notes["aa"]


def test_a_change_must_be_key_value_and_a_target_a_rate():
    assert b_properties(["target=9000", "x=a=b"]) == {"target": "9000", "x": "a=b"}
    for bad, why in (("target", "expected KEY=VALUE"), ("=3", "expected KEY=VALUE"),
                     ("target=fast", "give a rate in ops/s"), ("target=0", "give a rate")):
        with pytest.raises(ScriptError, match=why):
            b_properties([bad])


def test_run_scenario_refuses_a_change_without_aa():
    from ycsbpack.runner.scenario_args import parser, settings_from
    args = parser("x\n").parse_args(["S4", "--db", "hbase", "--b-property", "target=9000"])
    with pytest.raises(ScriptError, match="--b-property changes side B of an --aa run"):
        settings_from(args)
