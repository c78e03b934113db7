"""The results layout the scenario runner writes and the loader reads: one definition.

    results/<scenario>/<timestamp>/<phase>/metadata.json
    results/<scenario>/<timestamp>/<phase>/client-<i>.out      # stdout: final report
    results/<scenario>/<timestamp>/<phase>/client-<i>.err      # stderr: status lines, foreign logs
    results/<scenario>/<timestamp>/<phase>/hdr/client-<i>-<METRIC>.hdr

The runner (scripts/lib/ycsbpack/phases/phase_runner.py) writes the layout without importing this
module; scripts/tests/test_scripts_results_layout.py checks that the metadata.json its
writer produces has exactly the keys declared here.
"""

import re

METADATA_FILE = "metadata.json"
HDR_DIR = "hdr"
CLIENT_FILE = re.compile(r"^client-(?P<i>\d+)\.(?P<ext>out|err)$")
HDR_FILE = re.compile(r"^client-(?P<i>\d+)-(?P<metric>.+)\.hdr$")
SERVERS_FILE = "servers.csv"  # the servers' samples during the phase (t_ms,node,metric,value)

# Written for every phase.
METADATA_KEYS = (
    "scenario", "phase", "phase_index", "database", "binding", "workload", "properties",
    "threads", "clients", "batchsize", "target", "finite_job", "versions", "host", "start_time",
    "end_time", "command", "label", "exit_status", "provenance",
)
# Written when the phase belongs to a sweep group (what a sweep varies within).
GROUP_METADATA_KEYS = ("phase_group",)
# Written for a step of a capacity search (run-scenario --slo): the phase searched, the step
# number (0: the unthrottled probe), the latency objective and the keep-up share.
CAPACITY_METADATA_KEYS = ("capacity",)
# Written when a phase has several clients: what differs from client 0, each exit status and
# each command.
MULTI_CLIENT_METADATA_KEYS = ("client_properties", "client_exit_status", "commands")
# Without these the loader refuses a metadata.json (it cannot name or merge the phase).
REQUIRED_METADATA_KEYS = ("scenario", "phase", "database", "threads", "clients")
# Written by the runner into every phase of a trial it ran again (its window was not steady:
# scripts' runner/reruns.py), with why; the directory is renamed <phase>-replaced-<n>. The
# loader leaves such a phase out and names it as skipped: the trial that replaced it counts.
REPLACED_METADATA_KEY = "replaced"
