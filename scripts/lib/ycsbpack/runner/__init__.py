"""The session driver: scripts/run-scenario (run_scenario.py, scenario_args.py) and
scripts/quickstart; the plan's steps over the databases and the trials, the capacity search,
the A/A sides, the saved data trials start from, the dry run and the progress lines. Each
phase runs through the phase engine (phases/)."""
