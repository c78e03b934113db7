"""The documented scenarios S1..S4 (catalogue.py): their phases and the actions between them
(scenario_plan.py), and S2's fault phase (fault_*.py)."""
