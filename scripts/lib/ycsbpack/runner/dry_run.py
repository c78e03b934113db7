"""What `run-scenario --dry-run` prints, and the one-line description of each step (also the
progress lines'): every phase's commands exactly as the runner will start them."""
from pathlib import Path

from ..phases.phase_runner import Phase, client_commands, describe, warmup_plan
from ..phases.warmup import bounds as warmup_bounds
from ..scenarios.scenario_plan import Context
from .trials import TrialRule


def phase_warmup(ctx: Context, step, settings):
    """The warm-up of a measured phase (warmup.py); None for a load, a phase that consumes its
    data, steps that are not one phase, or --no-warmup."""
    step = getattr(step, "phase", step)  # a capacity search warms each of its steps up
    if not isinstance(step, Phase) or not settings.warmup or not step.repeatable:
        return None
    return warmup_bounds(ctx.scale, ctx.merged(step.files_of(0), step.properties))


def step_line(ctx: Context, step) -> str:
    if isinstance(step, Phase):
        files = ", ".join(Path(f).stem for f in step.files_of(0)
                          if Path(f).parent.name == ctx.scenario)
        clients = f" x {step.clients} clients" if step.clients > 1 else ""
        return (f"{ctx.database.name} {step.name} ({step.command} {files}; {step.threads} "
                f"thread{'s' if step.threads > 1 else ''}{clients})")
    return f"{ctx.database.name} {step.name}: {step.describe}"


def print_plan(plans, out: Path, settings, rule: TrialRule, block_order) -> int:
    """Every phase's commands exactly as the runner will start them (the clients' key split,
    the warm-up's status interval, stop file and time bound included) and the trial plan."""
    dbs = [db for db, _, _ in plans]
    order = "; ".join(", ".join(block_order(dbs, t)) for t in range(1, 5))
    if rule.precision:
        print(f"# trials: pairs {order}; ... (Thue-Morse) on fresh servers: a first stage of "
              f"{rule.first_stage} pairs, whose spread fixes how many pairs make every headline "
              f"ratio's 95% interval +-{rule.precision:.0%} (two-stage rule; at most "
              f"{rule.max_trials} trials"
              + (f", no new trial after {rule.budget_s / 60:.0f} min" if rule.budget_s else "")
              + "); trial 1 shown")
    elif rule.numbered:
        print(f"# trials: {rule.repeat}, in pairs {order}; ... (Thue-Morse) on fresh servers; "
              "trial 1 shown")
    for db, server, steps in plans:
        nodes = getattr(server, "nodes", 1)
        where = (f"local servers ({nodes} node{'s' if nodes > 1 else ''}) in {server.run_dir}"
                 if server else "your servers")
        print(f"# {db} on {where}")
        for ctx, step in steps:
            print(f"- {step_line(ctx, step)}")
            if hasattr(step, "step_phase"):
                # a capacity search: its probe (the targets of the steps depend on what it finds)
                step = step.step_phase(0, None)
                print(f"  - probe: {step_line(ctx, step)}")
            if not isinstance(step, Phase):
                continue
            phase_dir = out / step.directory
            w = phase_warmup(ctx, step, settings)
            plan = warmup_plan(step, phase_dir, w, touch=False) if w else None
            if plan:
                print(f"    warm-up: the phase's own workload until the last {w.window_s:g} s "
                      f"are steady ({w.interval_s}-s status intervals), at most {w.max_s:g} s; "
                      + (f"then {plan.measured_s:g} s measured; " if plan.measured_s else
                         "then until its count is done; ")
                      + f"then the runner creates {plan.stop_file}")
            for cmd in client_commands(step, phase_dir, plan.overrides if plan else None):
                print(f"    {describe(cmd)}")
            if step.then_what:
                print(f"    then, the servers still sampled: {step.then_what}")
    return 0
