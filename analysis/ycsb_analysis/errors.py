"""The one error type the command line turns into a message and a non-zero exit status."""

from __future__ import annotations

from pathlib import Path


class UnreadableInput(Exception):
    """An input file or directory that cannot be used, and why, in the reader's words."""

    def __init__(self, path: Path | str, problem: str):
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")
