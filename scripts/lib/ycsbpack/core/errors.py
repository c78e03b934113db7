"""One way for every script to stop on a problem: a sentence on stderr and a non-zero exit.

A Python traceback is shown only with YCSBPACK_DEBUG=1 in the environment: without it an
unexpected exception is still one line, naming the exception and how to see the traceback.
"""
import argparse
import os
import sys

DEBUG_VARIABLE = "YCSBPACK_DEBUG"


class ScriptError(Exception):
    """A problem the person running the script can fix; the message says what and how."""


def debugging() -> bool:
    return os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


def fail(message: str, code: int = 1) -> "NoReturn":  # noqa: F821
    print(f"ERROR {message}", file=sys.stderr)
    sys.exit(code)


def run_main(main) -> None:
    """Runs main(), turning ScriptError into one line on stderr and exit status 1."""
    try:
        sys.exit(main())
    except ScriptError as e:
        fail(str(e))
    except KeyboardInterrupt:
        fail("interrupted", 130)
    except Exception as e:  # noqa: BLE001 - the last line of defence against a bare traceback
        if debugging():
            raise
        fail(f"unexpected {type(e).__name__}: {e} (a bug in this script: please report it; "
             f"{DEBUG_VARIABLE}=1 shows the traceback)")


class ArgParser(argparse.ArgumentParser):
    """argparse with one line for a bad command line instead of the whole usage first."""

    def error(self, message):
        fail(f"{self.prog}: {message} (see {self.prog} --help)", 2)
