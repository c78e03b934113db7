"""The analysis model: what the loader builds and every other module reads.

A :class:`Run` is one phase of one scenario run (or one plain YCSB output file): its metadata
and its :class:`Client` s, each a parsed output and its .hdr logs. An input that could not be
used at all is a :class:`SkippedInput`. What is not a workload operation
(:func:`is_workload_operation`) and which part of a phase a summary describes
(:class:`WindowKind`) are said here once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import polars as pl

from .readers.hdr import HdrLog
from .readers.parsed_output import ParsedOutput

# the scenario of a plain output file's run: no runner wrote metadata for it, so what its
# command line set (its -target, say) is not known
PLAIN_FILES_SCENARIO = "files"


# The binding's init() and cleanup() calls: YCSB measures them (CLEANUP's block is in every
# final report), but they are no operation of the workload.
BINDING_CALLS = frozenset({"CLEANUP", "INIT"})
# A batch's companion block ``<OP>-RECORDS`` (batched.py): the statuses of the records the
# batches touched, no operation of its own (its ``Operations`` and interval ``Count`` stay 0).
RECORDS_SUFFIX = "-RECORDS"


def is_workload_operation(operation: str) -> bool:
    """Whether ``operation`` (a metric's operation, readers.final_report.split_metric: READ,
    BATCH_INSERT, READ-NOT_FOUND, ...) is one the workload ran: not one of the binding's
    :data:`BINDING_CALLS`, not a batch's ``-RECORDS`` companion. The one definition."""
    return operation not in BINDING_CALLS and not operation.endswith(RECORDS_SUFFIX)


def workload_operations(operations: pl.Expr | pl.Series) -> pl.Expr | pl.Series:
    """:func:`is_workload_operation` of each entry of a text or categorical column."""
    text = operations.cast(pl.String)
    return ~text.is_in(list(BINDING_CALLS)) & ~text.str.ends_with(RECORDS_SUFFIX)


class WindowKind(StrEnum):
    """How the window of a run's figures was chosen (steady_state.window): the summary's
    ``window_kind`` column, as data; its sentence for the reader is the ``window`` column."""

    WHOLE_JOB = "whole_job"  # a finite job (a load): YCSB's own figures, start to end
    NO_STATUS_LINES = "no_status_lines"  # nothing to find a window in: YCSB's whole-run figures
    SKIP = "skip"  # --skip SECONDS: everything after them
    AFTER_WARMUP = "after_warmup"  # after the runner's warm-up in the same run
    STEADY = "steady"  # the trend rule's steady window (the whole run when steady throughout)
    NO_STEADY_WINDOW = "no_steady_window"  # the trend rule found none: the whole run, unsteady


# the summary's column of it: data for the analysis, not a figure of the written summary.csv
WINDOW_KIND = "window_kind"


@dataclass(frozen=True)
class SkippedInput:
    """An input (file or directory) that could not be used at all, and why."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass
class Client:
    """One YCSB client process of a run: its parsed output and its .hdr logs by metric."""

    index: int
    output: ParsedOutput
    hdr_logs: dict[str, HdrLog] = field(default_factory=dict)


@dataclass
class Run:
    """One phase of one scenario run (or one plain file): metadata and its clients."""

    path: str
    metadata: dict[str, Any]
    clients: list[Client]
    warnings: list[str] = field(default_factory=list)
    timestamp: str = ""
    # What of this run's files was not used, or is missing figures (a client file that holds
    # no output, a final report cut short or absent, an unreadable .hdr log): one sentence
    # each. Any entry makes ycsb-report's exit status 3.
    unused: list[str] = field(default_factory=list)

    @property
    def phase(self) -> str:
        return str(self.metadata.get("phase", ""))

    @property
    def database(self) -> str:
        return str(self.metadata.get("database") or "unknown")

    @property
    def scenario(self) -> str:
        return str(self.metadata.get("scenario") or "")

    @property
    def threads(self) -> int | None:
        t = self.metadata.get("threads")
        return int(t) if t is not None else None

    @property
    def target(self) -> float | None:
        """The clients' -target together (ops/s): the runner's metadata, else a ``target``
        property (a workload file can set it too); None in a closed loop."""
        target = self.metadata.get("target")
        if target is None and self.properties.get("target") not in (None, "", "0"):
            try:
                return float(self.properties["target"])
            except ValueError:
                return None
        return target

    @property
    def batchsize(self) -> int:
        return int(self.metadata.get("batchsize") or 1)

    @property
    def properties(self) -> dict[str, str]:
        return dict(self.metadata.get("properties") or {})

    @property
    def name(self) -> str:
        """Short run label for legends and tables: ``basic:run-threads-4``."""
        if self.metadata.get("_plain_file"):
            return self.phase
        repeat = f" #{self.metadata['repeat']}" if self.metadata.get("repeat") else ""
        return f"{self.database}:{self.phase}{repeat}"

    @property
    def partial(self) -> bool:
        """Whether the runner recorded clients of the phase as failed (``failed_clients``)."""
        return bool(self.metadata.get("failed_clients"))

    @property
    def skipped_lines(self) -> int:
        return sum(c.output.skipped_lines for c in self.clients)


def run_label(run: Run) -> str:
    """The run's name, with its timestamp when two loaded runs share a name."""
    suffix = run.metadata.get("_name_suffix")
    return f"{run.name} ({suffix})" if suffix else run.name
