"""The Python lint gate sees every Python script: ruff finds *.py files by itself, but not the
executable scripts without a suffix (bin/ycsb, scripts/install-into-ycsb; the other scripts are
bash launchers), which ruff.toml lists one by one; and the analysis does not import the runner."""

import re
import tomllib

from ycsbpack.core.paths import REPO_ROOT


def python_scripts_without_suffix() -> set[str]:
    found = set()
    for folder in ("bin", "scripts"):
        for f in (REPO_ROOT / folder).iterdir():
            if f.is_file() and not f.suffix:
                with f.open("rb") as fh:
                    if b"python" in fh.readline():
                        found.add(f"{folder}/{f.name}")
    return found


def test_every_suffix_less_python_script_is_linted():
    listed = set(tomllib.loads((REPO_ROOT / "ruff.toml").read_text())["extend-include"])
    scripts = python_scripts_without_suffix()
    assert "bin/ycsb" in scripts and "scripts/install-into-ycsb" in scripts  # the scan finds them
    assert scripts - listed == set(), "add these to extend-include in ruff.toml"


def test_the_analysis_never_imports_the_runner():
    """ycsbpack imports ycsb_analysis, never the other way: the analysis reads what the runner
    wrote (docs/developing.md)."""
    imports = re.compile(r"^\s*(?:from|import)\s+ycsbpack\b", re.M)
    found = [str(p.relative_to(REPO_ROOT))
             for p in (REPO_ROOT / "analysis" / "ycsb_analysis").rglob("*.py")
             if imports.search(p.read_text(encoding="utf-8"))]
    assert found == []
