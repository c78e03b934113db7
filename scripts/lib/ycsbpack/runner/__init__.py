"""Running scenarios: scripts/run-scenario (run_scenario.py, scenario_args.py) and
scripts/quickstart; one phase through bin/ycsb (phase_runner.py), its warm-up, the trials, the
capacity search, the dry run and the progress lines."""
