"""Every bad input gets one clear sentence: the cases of bad_inputs.txt, run as a user would.

The commands run concurrently (most start a JVM for a second or two) in one fixture, and each
case is then checked on its own: exit status, the expected words, and no stack trace.
"""
import os
import re
import shlex
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CASES_FILE = Path(__file__).with_name("bad_inputs.txt")
MAX_STDERR_LINES = 20
STACK_TRACE = re.compile(r"Traceback \(most recent call last\)|^\s+at [\w.$]+\(|"
                         r"Exception in thread|^Caused by: ", re.M)


def read_cases():
    cases = []
    for n, line in enumerate(CASES_FILE.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        status, words, command = (part.strip() for part in line.split(" | ", 2))
        cases.append(pytest.param(int(status), [w for w in words.split(";") if w], command,
                                  id=f"line{n}: {command[:70]}"))
    return cases


CASES = read_cases()


def run_case(command: str, tmp: Path):
    argv = shlex.split(command.replace("{tmp}", str(tmp)))
    tmp.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "YCSBPACK_DEBUG"}
    env["YCSBPACK_CLIENT_LOG"] = str(tmp / "client-libraries.log")  # not a file per case in /tmp
    try:
        p = subprocess.run([str(REPO / argv[0])] + argv[1:], cwd=REPO, env=env, text=True,
                           capture_output=True, stdin=subprocess.DEVNULL, timeout=120)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return "timeout", e.stdout or "", e.stderr or ""


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    if not (REPO / "ycsb-runtime" / "target" / "lib").is_dir():
        pytest.skip("the project is not built (mvn -q -DskipTests package)")
    commands = [c.values[2] for c in CASES]
    dirs = [tmp_path_factory.mktemp("case") for _ in commands]
    # 2 cores: four at a time keeps JVM start-ups overlapping with Python-only cases
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(commands, zip(dirs, pool.map(run_case, commands, dirs))))


@pytest.mark.parametrize("status, words, command", CASES)
def test_bad_input_gets_one_clear_sentence(results, status, words, command):
    tmp, (code, out, err) = results[command]
    words = [w.replace("{tmp}", str(tmp)) for w in words]
    shown = f"$ {command}\n--- exit {code}\n--- stdout\n{out[-3000:]}\n--- stderr\n{err[-3000:]}"
    assert code == status, shown
    for w in words:
        if w.startswith("!"):
            assert w[1:] not in out + err, shown
        else:
            assert w in out + err, shown
    assert not STACK_TRACE.search(out + err), shown
    errors = [line for line in (out + err).splitlines() if line.startswith("ERROR")]
    assert len(errors) == (0 if status == 0 else 1), shown
    assert len(err.splitlines()) <= MAX_STDERR_LINES, shown


def test_the_table_has_no_duplicate_commands():
    commands = [c.values[2] for c in CASES]
    assert len(commands) == len(set(commands))
