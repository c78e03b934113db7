"""Load results: the scenario runner's directory layout, or plain YCSB output files.

Runner layout (one directory per phase): see :mod:`ycsb_analysis.layout`.

Any directory given is searched for ``metadata.json`` files at any depth, so a whole
``results/`` tree, one scenario, one timestamp or one phase can be passed.

A plain file (``LABEL=PATH`` or ``PATH``) is one run; each YCSB output found in it is one
client (the seed's four pasted HBase reports are four clients of one run).
"""

from __future__ import annotations

import json
import os
from functools import reduce
from pathlib import Path
from typing import Any

from .completeness import check_completeness
from .errors import UnreadableInput
from .layout import (
    CLIENT_FILE,
    HDR_DIR,
    HDR_FILE,
    METADATA_FILE,
    REPLACED_METADATA_KEY,
    REQUIRED_METADATA_KEYS,
)
from .model import PLAIN_FILES_SCENARIO, Client, Run, SkippedInput
from .readers.hdr import read_hdr_log
from .readers.output import parse_file
from .readers.parsed_output import ParsedOutput


def _read_metadata(path: Path) -> dict[str, Any]:
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise UnreadableInput(path, f"cannot be read ({e.strerror or e})") from e
    except json.JSONDecodeError as e:
        raise UnreadableInput(path, f"is not valid JSON ({e.msg} at line {e.lineno})") from e
    if not isinstance(meta, dict):
        raise UnreadableInput(path, "must hold a JSON object")
    missing = [k for k in REQUIRED_METADATA_KEYS if k not in meta]
    if missing:
        raise UnreadableInput(path, f"lacks the keys {', '.join(missing)} that the scenario "
                              "runner writes")
    return meta


def load_phase_dir(phase_dir: Path, raw_rows: bool = False) -> Run:
    """Load one phase directory of the runner layout.

    Raises :class:`UnreadableInput` only when nothing of the phase can be used (bad
    metadata, no client output at all); a client file or ``.hdr`` log that cannot be used
    is named in the run's ``unused`` list and the rest is loaded.
    """
    meta = _read_metadata(phase_dir / METADATA_FILE)
    files: dict[int, dict[str, Path]] = {}
    for p in sorted(phase_dir.iterdir()):
        if m := CLIENT_FILE.match(p.name):
            files.setdefault(int(m.group("i")), {})[m.group("ext")] = p
    if not files:
        raise UnreadableInput(phase_dir, "has metadata.json but no client-<i>.out files")
    warnings: list[str] = []
    unused: list[str] = []
    clients = []
    failed = {int(i) for i in meta.get("failed_clients") or []}
    for i in sorted(files):
        if i in failed:
            # a failed client (e.g. its loader died mid-phase) has no final report; the
            # phase's figures are of the other clients, and the phase is shown as partial
            warnings.append(f"partial phase: client {i} failed ({_failure(meta, i)}); its "
                            "output is kept in the phase directory but not merged")
            continue
        output = None
        out_path = files[i].get("out")
        if out_path is None:
            unused.append(f"client {i} has no client-{i}.out: its final figures are missing")
        else:
            try:
                outs = parse_file(out_path, raw_rows=raw_rows)
            except UnreadableInput as e:
                unused.append(f"{out_path.name} not used: {e.problem}; the client's final "
                              "figures are missing (see its .err file)")
                outs = []
            if outs and not any(o.has_report for o in outs):
                unused.append(
                    f"{out_path.name} has no YCSB final report ('[OVERALL], RunTime(ms), ...'): "
                    "the client probably failed (see its .err file); its final figures are missing")
            if len(outs) > 1:
                unused.append(f"{out_path.name} holds {len(outs)} outputs; only the first is used")
            output = outs[0] if outs else None
        err_path = files[i].get("err")
        if err_path is not None and err_path.stat().st_size > 0:
            try:
                err = reduce(ParsedOutput.combined_with, parse_file(err_path, raw_rows=raw_rows))
                output = err if output is None else output.combined_with(err)
            except UnreadableInput:
                pass  # a stderr with only foreign log lines (status disabled) is not an error
        if output is not None:
            clients.append(Client(i, output))
    if not clients and failed:
        raise UnreadableInput(phase_dir, f"has no client that finished: clients {sorted(failed)} "
                              "failed (metadata failed_clients); see their .err files")
    if not clients:
        raise UnreadableInput(phase_dir,
                              "no client file holds YCSB output (" + "; ".join(unused) + ")")
    hdr_dir = phase_dir / HDR_DIR
    if hdr_dir.is_dir():
        by_index = {c.index: c for c in clients}
        for p in sorted(hdr_dir.glob("*.hdr")):
            m = HDR_FILE.match(p.name)
            if m and int(m.group("i")) in failed:
                continue  # a failed client's logs: the partial-phase warning names it
            if not (m and int(m.group("i")) in by_index):
                unused.append(f"hdr/{p.name} not used: its name is not client-<i>-<METRIC>.hdr "
                              "of a loaded client")
                continue
            try:
                log = read_hdr_log(p, m.group("metric"))
            except UnreadableInput as e:
                unused.append(f"hdr/{p.name} not used: {e.problem}")
                continue
            if log.cut_line is not None:
                unused.append(f"hdr/{p.name}: its last line has no line end (the log was cut): "
                              "that interval is not read")
            if log.intervals.is_empty():
                warnings.append(f"hdr/{p.name} has no intervals (a header only: the client stopped "
                                f"before its first status tick), so {m.group('metric')} has no "
                                "interval data from it")
            by_index[int(m.group("i"))].hdr_logs[m.group("metric")] = log
    expected = meta.get("clients")
    if isinstance(expected, int) and expected != len(clients) + len(failed & set(files)):
        unused.append(f"metadata says {expected} clients, {len(clients)} client outputs found")
    run = Run(str(phase_dir), meta, clients, warnings, phase_dir.parent.name, unused)
    check_completeness(run)
    return run


def _failure(meta: dict[str, Any], i: int) -> str:
    for c in (meta.get("fleet") or {}).get("clients") or []:
        if c.get("client") == i and c.get("error"):
            return str(c["error"])
    statuses = meta.get("client_exit_status") or []
    return f"exit status {statuses[i]}" if i < len(statuses) else "see its .err file"


def load_plain_file(path: Path, label: str | None = None, batchsize: int = 1,
                    raw_rows: bool = False) -> Run:
    """A plain YCSB output file as one run; each output inside it is one client."""
    outputs = parse_file(path, raw_rows=raw_rows)
    clients = [Client(i, o) for i, o in enumerate(outputs)]
    meta = {"scenario": PLAIN_FILES_SCENARIO, "phase": label or path.stem, "phase_index": 0,
            "database": "unknown", "threads": None, "clients": len(clients),
            "batchsize": batchsize, "target": None, "properties": {},
            "label": label or path.name, "_plain_file": True}
    run = Run(str(path), meta, clients)
    check_completeness(run)
    return run


def load(args: list[str], batchsize: int | dict[str, int] = 1,
         skipped: list[SkippedInput] | None = None, raw_rows: bool = False) -> list[Run]:
    """Load every run named by command-line arguments (directories, files, ``LABEL=PATH``).

    ``batchsize`` applies to plain files only (a phase's own metadata says its batch size):
    one number for all, or ``{label: n}`` with ``""`` as the default for the others.
    Runs come back ordered by scenario, timestamp and phase_index. ``raw_rows`` keeps every
    raw datapoint as a row (see ``readers.output.parse_file``).

    Without ``skipped`` the first unusable input raises :class:`UnreadableInput`; with a
    list, each unusable input is appended to it (with why) and the others are loaded. A file
    or phase directory reached twice is read once (also noted in ``skipped``). Runs that
    would share a label are told apart by timestamp or, failing that, by path.
    """

    def skip(path, problem: str) -> None:
        if skipped is None:
            raise UnreadableInput(path, problem)
        skipped.append(SkippedInput(str(path), problem))

    runs: list[Run] = []
    seen: dict[Path, str] = {}

    def first_time(path: Path, given: str) -> bool:
        key = path.resolve()
        if key in seen:
            if skipped is not None:
                skipped.append(SkippedInput(
                    given, f"the same {'directory' if path.is_dir() else 'file'} as "
                    f"{seen[key]}, which is already read; read once"))
            return False
        seen[key] = given
        return True

    for arg in args:
        label = None
        if "=" in arg and not Path(arg).exists():
            label, arg = arg.split("=", 1)
        path = Path(arg)
        if not path.exists():
            skip(path, "does not exist")
            continue
        if path.is_dir():
            metas = sorted(path.rglob(METADATA_FILE))
            if not metas:
                skip(path, "is a directory without any metadata.json (expected the runner layout "
                     "results/<scenario>/<timestamp>/<phase>/metadata.json)")
                continue
            for m in metas:
                if not first_time(m.parent, str(m.parent)):
                    continue
                try:
                    run = load_phase_dir(m.parent, raw_rows)
                except UnreadableInput as e:
                    skip(e.path, e.problem)
                    continue
                if run.metadata.get(REPLACED_METADATA_KEY):
                    if skipped is not None:  # left out, not unreadable: never raised for
                        skipped.append(SkippedInput(str(m.parent), "a trial run again: "
                                                    + str(run.metadata[REPLACED_METADATA_KEY])))
                    continue
                runs.append(run)
        else:
            if not first_time(path, arg):
                continue
            sizes = batchsize if isinstance(batchsize, dict) else {"": batchsize}
            size = sizes.get(label or "", sizes.get("", 1))
            try:
                runs.append(load_plain_file(path, label, size, raw_rows))
            except UnreadableInput as e:
                skip(e.path, e.problem)
    runs.sort(key=lambda r: (r.scenario, r.timestamp, int(r.metadata.get("phase_index") or 0),
                             r.phase))
    _tell_apart(runs)
    return runs


def _tell_apart(runs: list[Run]) -> None:
    """Give runs that share a name a suffix: their timestamp when that tells them apart
    (the same phase run twice), else their path (``r1/out.txt`` and ``r2/out.txt``)."""
    by_name: dict[str, list[Run]] = {}
    for r in runs:
        by_name.setdefault(r.name, []).append(r)
    for same in by_name.values():
        if len(same) < 2:
            continue
        stamps = [r.timestamp for r in same]
        if all(stamps) and len(set(stamps)) == len(stamps):
            for r in same:
                r.metadata["_name_suffix"] = r.timestamp
            continue
        # The paths from where they part: r1/out.txt and r2/out.txt, not two absolute paths.
        paths = [Path(r.path).resolve() for r in same]
        common = Path(os.path.commonpath([str(p) for p in paths]))
        for r, p in zip(same, paths):
            r.metadata["_name_suffix"] = str(p.relative_to(common)) if p != common else r.path
