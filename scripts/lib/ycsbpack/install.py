"""scripts/install-into-ycsb: puts this project's bindings into an existing YCSB installation.

Two kinds of YCSB tree are recognised:
- a release tree (bin/ and lib/core-*.jar): each binding goes to <dir>-binding/{lib,conf} and is
  registered in bin/bindings.properties (read by bin/ycsb.sh) and in the DATABASES dict of
  YCSB's Python bin/ycsb, when those files exist;
- a source checkout (root pom.xml of site.ycsb:root, core/): each binding becomes a module
  directory with a pom.xml that depends on this project's installed artifact, listed in the root
  pom, and with the jars YCSB's launchers look for in <dir>/target/ and <dir>/target/dependency/.

YCSB's launchers find a binding's directory from the part of its name before the first '-'
(cassandra-cql -> cassandra), so hbase-salted lives in hbase-binding/ (release) or hbase/ (source).
Running it again changes nothing that is already in place; every change is printed.
"""
import argparse
import filecmp
import re
import shutil
import subprocess
import sys
from pathlib import Path

from . import maven
from .bindings import PROJECT_BINDINGS, Binding
from .build import ensure_built
from .errors import ScriptError, run_main
from .launcher import binding_release_dir
from .paths import REPO_ROOT
from .versions import project_version


def dir_name(binding: Binding) -> str:
    """The directory name YCSB's launchers derive from a binding name."""
    return binding.name.split("-")[0]


def kind_of_tree(home: Path) -> str:
    if (home / "bin").is_dir() and list((home / "lib").glob("core-*.jar")):
        return "release"
    pom = home / "pom.xml"
    if pom.is_file() and (home / "core").is_dir() and re.search(
            r"<artifactId>root</artifactId>", pom.read_text()):
        return "source"
    raise ScriptError(
        f"{home} is not a YCSB tree: expected a release (bin/ and lib/core-*.jar) or a source "
        "checkout (pom.xml of site.ycsb:root and core/); give the directory YCSB was unpacked "
        "or cloned into")


def sync_dir(src: Path, dst: Path, changes: list) -> None:
    """Makes dst hold exactly the files of src (flat directories of jars or config files)."""
    dst.mkdir(parents=True, exist_ok=True)
    wanted = {p.name for p in src.iterdir() if p.is_file()}
    added = replaced = removed = 0
    for old in dst.iterdir():
        if old.is_file() and old.name not in wanted:
            old.unlink()
            removed += 1
    for name in sorted(wanted):
        s, d = src / name, dst / name
        if not d.exists() or not filecmp.cmp(s, d, shallow=False):
            if d.exists():
                replaced += 1
            else:
                added += 1
            shutil.copy2(s, d)
    if added or replaced or removed:
        changes.append(f"{dst}: {added} file(s) added, {replaced} replaced, {removed} removed")


def register_in_bindings_properties(home: Path, b: Binding, changes: list) -> None:
    props = home / "bin" / "bindings.properties"
    line = f"{b.name}:{b.db_class}"
    if not props.exists():
        return
    lines = props.read_text().splitlines()
    mine = [i for i, l in enumerate(lines) if l.startswith(f"{b.name}:")]
    if mine and lines[mine[0]] == line:
        return
    if mine:
        lines[mine[0]] = line
    else:
        lines.append(line)
    props.write_text("\n".join(lines) + "\n")
    changes.append(f"{props}: {line}")


def register_in_python_launcher(home: Path, b: Binding, changes: list) -> None:
    launcher = home / "bin" / "ycsb"
    if not launcher.exists():
        return
    text = launcher.read_text()
    if f'"{b.name}"' in text:
        return
    m = re.search(r"DATABASES\s*=\s*\{\s*\n", text)
    if not m:
        changes.append(f"note: {launcher} has no DATABASES dict; use bin/ycsb.sh {b.name}")
        return
    entry = f'    "{b.name}" : "{b.db_class}",\n'
    launcher.write_text(text[:m.end()] + entry + text[m.end():])
    changes.append(f"{launcher}: DATABASES[{b.name!r}]")


def install_release(home: Path, b: Binding, changes: list) -> None:
    built = binding_release_dir(b.module, b.name)
    target = home / f"{dir_name(b)}-binding"
    sync_dir(built / "lib", target / "lib", changes)
    sync_dir(built / "conf", target / "conf", changes)
    register_in_bindings_properties(home, b, changes)
    register_in_python_launcher(home, b, changes)


MODULE_POM = """<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by ycsb-pack's scripts/install-into-ycsb: the {name} binding as a module of this
     checkout. Its code is the installed artifact {group}:{artifact}:{version}. -->
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>{ycsb_group}</groupId>
    <artifactId>binding-parent</artifactId>
    <version>{ycsb_version}</version>
    <relativePath>../binding-parent</relativePath>
  </parent>
  <artifactId>{dir}-binding</artifactId>
  <name>{name} binding (ycsb-pack)</name>
  <dependencies>
    <dependency>
      <groupId>{group}</groupId>
      <artifactId>{artifact}</artifactId>
      <version>{version}</version>
    </dependency>
  </dependencies>
</project>
"""


def _root_pom_coordinates(pom_text: str):
    group = re.search(r"<groupId>([^<]+)</groupId>", pom_text)
    version = re.search(r"<artifactId>root</artifactId>\s*<version>([^<]+)</version>", pom_text)
    if not version:
        version = re.search(r"<version>([^<]+)</version>", pom_text)
    return (group.group(1) if group else "site.ycsb"), (version.group(1) if version else "")


def install_source(home: Path, b: Binding, changes: list) -> None:
    pom_text = (home / "pom.xml").read_text()
    ycsb_group, ycsb_version = _root_pom_coordinates(pom_text)
    module = home / dir_name(b)
    module.mkdir(exist_ok=True)
    pom = module / "pom.xml"
    content = MODULE_POM.format(name=b.name, dir=dir_name(b), group="org.ycsbpack",
                                artifact=b.module, version=project_version(),
                                ycsb_group=ycsb_group, ycsb_version=ycsb_version)
    if not pom.exists() or pom.read_text() != content:
        changes.append(f"{'replaced' if pom.exists() else 'added'} {pom}")
        pom.write_text(content)
    entry = f"<module>{dir_name(b)}</module>"
    if entry not in pom_text:
        m = re.search(r"<modules>\s*\n", pom_text)
        if not m:
            raise ScriptError(f"{home / 'pom.xml'} has no <modules> section to add {entry} to")
        pom_text = pom_text[:m.end()] + f"    {entry}\n" + pom_text[m.end():]
        (home / "pom.xml").write_text(pom_text)
        changes.append(f"{home / 'pom.xml'}: {entry}")
    built = binding_release_dir(b.module, b.name)
    jars = module / "target" / "dependency"
    sync_dir(built / "lib", jars, changes)
    own = [j for j in jars.glob(f"{b.module}-*.jar")]
    for j in own:
        dest = module / "target" / f"{dir_name(b)}-binding-{ycsb_version}.jar"
        if not dest.exists() or not filecmp.cmp(j, dest, shallow=False):
            shutil.copy2(j, dest)
            changes.append(f"added {dest}")
    sync_dir(built / "conf", module / "conf", changes)
    register_in_bindings_properties(home, b, changes)
    register_in_python_launcher(home, b, changes)


def install_artifacts_locally() -> None:
    """A source checkout's Maven build resolves the binding from the local repository."""
    proc = subprocess.run([maven.mvn(), "-q", "-B", "-ntp", "-DskipTests", "install"],
                          cwd=REPO_ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-20:])
        raise ScriptError(f"mvn install of this project failed:\n{tail}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="install-into-ycsb", description=__doc__.splitlines()[0])
    ap.add_argument("ycsb_home", type=Path, help="a YCSB release tree or source checkout")
    ap.add_argument("--skip-maven-install", action="store_true",
                    help="source checkout: do not mvn install this project into ~/.m2")
    args = ap.parse_args(argv)
    home = args.ycsb_home.resolve()
    if not home.is_dir():
        raise ScriptError(f"{home}: no such directory")
    kind = kind_of_tree(home)
    ensure_built()
    if kind == "source" and not args.skip_maven_install:
        install_artifacts_locally()
    for b in PROJECT_BINDINGS:
        changes = []
        (install_release if kind == "release" else install_source)(home, b, changes)
        where = f"{dir_name(b)}-binding/" if kind == "release" else f"{dir_name(b)}/"
        print(f"{b.name} -> {home}/{where} ({kind} tree): "
              + (f"{len(changes)} change(s)" if changes else "already installed, unchanged"))
        for c in changes:
            print(f"  {c}")
    return 0


if __name__ == "__main__":
    run_main(main)
