"""What a scenario's phases returned, read back by the analysis package: the checks the
scenario tests on the shared servers and those on their own servers make of every phase."""
from pathlib import Path

from ycsb_analysis import loader, merge


def returns_by_phase(out: Path) -> dict:
    """{phase directory: {operation: {status: count}}}, parsed by the analysis package."""
    result = {}
    for meta in sorted(out.glob("*/metadata.json")):
        run = loader.load_phase_dir(meta.parent)
        assert run.clients, f"{meta.parent} has no parsable client output"
        r = merge.merge_clients(run).returns
        by_op = {}
        for row in r.iter_rows(named=True):
            if not row["intended"]:
                by_op.setdefault(row["operation"], {})[row["status"]] = int(row["count"])
        result[meta.parent.name] = by_op
    return result


def assert_phases(out: Path, expected: dict, allowed=("OK",)):
    """expected: {phase directory: operations that must have OK results}; a status other than
    OK must be in `allowed` and stay below 5% of the operation's results."""
    found = returns_by_phase(out)
    assert sorted(found) == sorted(expected), "the phases that ran"
    for phase, operations in expected.items():
        for op in operations:
            assert found[phase].get(op, {}).get("OK", 0) > 0, f"{phase}: no successful {op}"
        for op, statuses in found[phase].items():
            unexpected = set(statuses) - set(allowed)
            assert not unexpected, f"{phase}: {op} returned {statuses}"
            if not op.endswith("-RECORDS"):
                assert statuses.get("OK", 0) >= 0.95 * sum(statuses.values()), (
                    f"{phase}: {op} returned {statuses}"
                )
