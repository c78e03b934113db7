"""One way for every script to stop on a problem: a sentence on stderr and a non-zero exit."""
import sys


class ScriptError(Exception):
    """A problem the person running the script can fix; the message says what and how."""


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
