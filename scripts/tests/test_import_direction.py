"""Imports in scripts/lib/ycsbpack run downwards only, in the order of the picture in
docs/developing.md ("The packages and the direction of imports"), read from that page: a module
imports packages on the rows below its own package's, never one above it nor the other package
of its row, also not inside a function; the analysis never imports ycsbpack."""
import ast
import re
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scripts" / "lib" / "ycsbpack"
PAGE = ROOT / "docs" / "developing.md"
PICTURE = "### The packages and the direction of imports"


def rows(page: Path = PAGE) -> List[List[str]]:
    """The picture's rows of packages, top first: ' runner/  the session ...' -> ['runner'];
    ' scenarios/ fleet/  ...' -> ['scenarios', 'fleet']."""
    text = page.read_text()
    assert PICTURE in text, f"{page} has no section {PICTURE!r}: the order is drawn there"
    block = text.split(PICTURE, 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    found = []
    for line in block.splitlines():
        m = re.match(r" ((?:[a-z_]+/ )+)", line + " ")
        if m:
            found.append([name.rstrip("/") for name in m.group(1).split()])
    return found


def ranks(page: Path = PAGE) -> Dict[str, int]:
    """Package -> its row counted from the bottom (core/: 0)."""
    drawn = rows(page)
    return {name: len(drawn) - 1 - i for i, row in enumerate(drawn) for name in row}


def own_package(path: Path, top: Path) -> List[str]:
    """The package `from .` means in `path`, a module under the directory `top`'s parent:
    ycsbpack/runner/trials.py -> ['ycsbpack', 'runner']."""
    parts = list(path.relative_to(top.parent).with_suffix("").parts)
    return parts[:-1]


def imports(path: Path, package: List[str]) -> Iterator[Tuple[int, List[str]]]:
    """(line, dotted name) of every import of `path`, anywhere in it (inside functions too);
    `package` is what `from .` means there. `from ..core import errors` -> ycsbpack.core;
    `from .. import databases` -> ycsbpack.databases."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name.split(".")) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = base + (node.module.split(".") if node.module else [])
            if len(module) == 1:  # from a top package import its subpackages or modules
                yield from ((node.lineno, module + [alias.name]) for alias in node.names)
            else:
                yield node.lineno, module


def violations(package_dir: Path = PACKAGE, page: Path = PAGE) -> List[str]:
    """One line per import in `package_dir` (a ycsbpack) that runs up or sideways."""
    rank = ranks(page)
    subpackages = {p.name for p in package_dir.iterdir() if (p / "__init__.py").is_file()}
    found = []
    for path in sorted(package_dir.rglob("*.py")):
        rel = path.relative_to(package_dir)
        if len(rel.parts) == 1:  # commands.py, __init__.py: the top
            continue
        own = rel.parts[0]
        for line, name in imports(path, own_package(path, package_dir)):
            if name[0] != package_dir.name or len(name) < 2 or name[1] == own:
                continue
            other = name[1]
            if other not in subpackages:
                found.append(f"{rel}:{line} imports {'.'.join(name)}: ycsbpack's own modules "
                             "(the console scripts) are above every row")
            elif own not in rank or other not in rank:
                missing = own if own not in rank else other
                found.append(f"{rel}:{line} imports {other}/, and {missing}/ has no row in the "
                             f"picture of {page.name}")
            elif rank[other] >= rank[own]:
                side = "above" if rank[other] > rank[own] else "beside"
                found.append(f"{rel}:{line} imports {other}/, {side} {own}/ in the picture of "
                             f"{page.name}: move what it needs down, or hand it in")
    return found


def test_the_picture_draws_every_package_once_and_only_the_packages_there_are():
    drawn = [name for row in rows() for name in row]
    there = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert sorted(drawn) == there
    assert len(set(drawn)) == len(drawn)
    assert drawn[-1] == "core" and drawn[0] == "bench"


def test_no_import_in_scripts_lib_runs_up_or_sideways():
    assert violations() == []


def test_only_the_console_scripts_import_by_name_at_run_time():
    """import_module("ycsbpack.x") would hide an import from the rule above: only
    commands.py, which maps each command to its module, does it."""
    hidden = [str(p.relative_to(PACKAGE)) for p in sorted(PACKAGE.rglob("*.py"))
              if re.search(r"\bimport_module\b|\b__import__\(", p.read_text())]
    assert hidden == ["commands.py"]


def test_the_analysis_never_imports_ycsbpack():
    analysis = ROOT / "analysis" / "ycsb_analysis"
    found = [f"{p.relative_to(analysis)}:{line}"
             for p in sorted(analysis.rglob("*.py"))
             for line, name in imports(p, own_package(p, analysis)) if name[0] == "ycsbpack"]
    assert found == []


def test_the_python_of_the_pack_uses_one_dataframe_library():
    """polars from the readers to the report (issue 47): no pandas anywhere in the package, its
    tests or the scripts."""
    found = [f"{p.relative_to(ROOT)}:{line}"
             for top in ("analysis", "scripts")
             for p in sorted((ROOT / top).rglob("*.py"))
             for line, name in imports(p, own_package(p, ROOT / top)) if name[0] == "pandas"]
    assert found == []


def test_an_import_up_a_row_inside_a_function_is_found(tmp_path):
    """The rule sees imports inside functions too (a lazy import does not dodge it), relative
    and absolute, and names the file, the line and the rows."""
    package = tmp_path / "ycsbpack"
    for name in ("core", "phases", "runner", "scenarios", "fleet"):
        (package / name).mkdir(parents=True)
        (package / name / "__init__.py").write_text("")
    (package / "phases" / "engine.py").write_text(
        "from ..core import errors\n\n\ndef f():\n    from ..runner import plan\n")
    (package / "scenarios" / "s1.py").write_text("import ycsbpack.fleet.ray\n")
    (package / "core" / "paths.py").write_text("from .. import phases\n")
    (package / "fleet" / "ray.py").write_text("from ..phases.engine import f\n")
    page = tmp_path / "developing.md"
    page.write_text(f"{PICTURE}\n\n```text\n runner/  x\n    ▼\n scenarios/ fleet/  y\n"
                    " phases/  z\n core/  w\n```\n")
    assert violations(package, page) == [
        "core/paths.py:1 imports phases/, above core/ in the picture of developing.md: move "
        "what it needs down, or hand it in",
        "phases/engine.py:5 imports runner/, above phases/ in the picture of developing.md: "
        "move what it needs down, or hand it in",
        "scenarios/s1.py:1 imports fleet/, beside scenarios/ in the picture of developing.md: "
        "move what it needs down, or hand it in",
    ]
