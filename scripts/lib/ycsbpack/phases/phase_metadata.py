"""metadata.json of a phase: what ran, where, with which software (a phase's record)."""
import platform
from typing import List, Optional

from ..core.secrets import mask_command, mask_properties
from ..core.versions import versions
from .properties import read_property_files, ycsb_props
from .provenance import client_record


def phase_metadata(
    phase, commands: List[list], statuses: List[int], start, end, launcher=None,
    local_servers: Optional[List[str]] = None,
) -> dict:
    """What metadata.json holds for a phase whose clients ran `commands` and exited with
    `statuses` (run_phase adds the warm-up, CPU, servers and repeat records); `local_servers`
    names the local server processes that shared this machine. Its keys are declared in
    analysis/ycsb_analysis/layout.py, the reader's side (scripts/tests/
    test_scripts_results_layout.py checks both agree)."""
    per_client = []
    for i, cmd in enumerate(commands):
        props = read_property_files(phase.files_of(i))
        props.update(ycsb_props(cmd))
        per_client.append(props)
    all_props = per_client[0]
    metadata = {
        "scenario": phase.scenario,
        "phase": phase.name,
        "phase_index": phase.index,
        "database": phase.database,
        "binding": phase.binding,
        "workload": all_props.get("workload", "site.ycsb.workloads.CoreWorkload"),
        "properties": mask_properties(all_props),
        "threads": phase.threads,
        "clients": phase.clients,
        "batchsize": int(all_props.get("batchsize", "1")),
        "target": phase.target,
        # a load or a phase that consumes its data: judged as a whole job (start to end)
        "finite_job": not phase.repeatable,
        "versions": versions(),
        # what ran on the client side, read from the source (provenance.py)
        "provenance": client_record(phase.binding, commands[0], all_props, local_servers or []),
        "host": platform.node(),
        "start_time": start.isoformat(),
        "end_time": end.isoformat(),
        "command": mask_command(commands[0]),
        "label": phase.label or f"{phase.database} {phase.name}",
        "exit_status": max(statuses, key=abs),
    }
    if phase.phase_group:
        metadata["phase_group"] = phase.phase_group
    if phase.capacity:
        metadata["capacity"] = phase.capacity
    failed = [i for i, st in enumerate(statuses) if st != 0]
    if failed:  # the analysis reads the others and marks the phase partial
        metadata["failed_clients"] = failed
    if launcher is not None:
        metadata.update(launcher.metadata())
    if phase.clients > 1:
        # what differs from client 0's properties (which are "properties" above)
        metadata["client_properties"] = [
            mask_properties({k: v for k, v in p.items() if all_props.get(k) != v})
            for p in per_client
        ]
        metadata["client_exit_status"] = statuses
        metadata["commands"] = [mask_command(c) for c in commands]
    return metadata
