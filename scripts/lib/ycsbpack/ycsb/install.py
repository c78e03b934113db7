"""scripts/install-into-ycsb: puts this project's bindings into an existing YCSB installation.

Two kinds of YCSB tree are recognised:
- a release tree (bin/ and lib/core-*.jar): each binding goes to <dir>-binding/{lib,conf} and is
  registered in bin/bindings.properties (read by bin/ycsb.sh) and in the DATABASES dict of
  YCSB's Python bin/ycsb, when those files exist;
- a source checkout (root pom.xml of site.ycsb:root, core/): each binding becomes a module
  directory listed in the root pom, whose pom.xml declares YCSB core (provided, as YCSB's own
  bindings do: its Python bin/ycsb takes core from the module's dependency list) and the exact
  runtime jars of the binding (none transitive, so YCSB's dependencyManagement cannot swap one),
  with the binding's own jars in <dir>/lib/; then, if bin/ycsb.sh would miss something
  (core/target/dependency/ is never filled by a plain YCSB build), YCSB's own build makes it.

YCSB's launchers find a binding's directory from the part of its name before the first '-'
(cassandra-cql -> cassandra), so hbase-salted lives in hbase-binding/ (release) or hbase/ (source).
Running it again changes nothing that is already in place; every change is printed.
"""
import filecmp
import re
import shutil
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path

from ..core import maven
from ..core.bindings import PROJECT_BINDINGS, Binding
from ..core.build import ensure_built
from ..core.errors import ArgParser, ScriptError, run_main
from ..core.paths import REPO_ROOT, binding_release_dir
from ..core.versions import project_version
from .ycsb_launcher import BUILD_COMMAND


def dir_name(binding: Binding) -> str:
    """The directory name YCSB's launchers derive from a binding name."""
    return binding.name.split("-")[0]


def kind_of_tree(home: Path) -> str:
    if (home / "bin").is_dir() and list((home / "lib").glob("core-*.jar")):
        if not any((home / "bin" / f).is_file() for f in ("ycsb", "bindings.properties")):
            raise ScriptError(
                f"{home} looks like a YCSB release (lib/core-*.jar) but has neither bin/ycsb nor "
                "bin/bindings.properties to register the bindings in, so YCSB could not run "
                "them by name: give the directory of a complete unpacked YCSB release")
        return "release"
    pom = home / "pom.xml"
    if pom.is_file() and (home / "core").is_dir() and re.search(
            r"<artifactId>root</artifactId>", pom.read_text()):
        return "source"
    raise ScriptError(
        f"{home} is not a YCSB tree: expected a release (bin/ and lib/core-*.jar) or a source "
        "checkout (pom.xml of site.ycsb:root and core/); give the directory YCSB was unpacked "
        "or cloned into")


def sync_files(files: list, dst: Path, changes: list) -> None:
    """Makes the flat directory dst hold exactly these files, with the same contents."""
    dst.mkdir(parents=True, exist_ok=True)
    wanted = {p.name: p for p in files}
    added = replaced = removed = 0
    for old in dst.iterdir():
        if old.is_file() and old.name not in wanted:
            old.unlink()
            removed += 1
    for name in sorted(wanted):
        s, d = wanted[name], dst / name
        if not d.exists() or not filecmp.cmp(s, d, shallow=False):
            if d.exists():
                replaced += 1
            else:
                added += 1
            shutil.copy2(s, d)
    if added or replaced or removed:
        changes.append(f"{dst}: {added} file(s) added, {replaced} replaced, {removed} removed")


def sync_dir(src: Path, dst: Path, changes: list) -> None:
    sync_files([p for p in src.iterdir() if p.is_file()], dst, changes)


def register_in_bindings_properties(home: Path, b: Binding, changes: list) -> None:
    props = home / "bin" / "bindings.properties"
    line = f"{b.name}:{b.db_class}"
    if not props.exists():
        return
    lines = props.read_text().splitlines()
    mine = [i for i, ln in enumerate(lines) if ln.startswith(f"{b.name}:")]
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


def _built(b: Binding) -> Path:
    """The binding's release layout, under the name this project builds it with."""
    return binding_release_dir(b.module, next(p.name for p in PROJECT_BINDINGS
                                              if p.module == b.module))


def install_release(home: Path, b: Binding, changes: list) -> None:
    built = _built(b)
    target = home / f"{dir_name(b)}-binding"
    sync_dir(built / "lib", target / "lib", changes)
    sync_dir(built / "conf", target / "conf", changes)
    register_in_bindings_properties(home, b, changes)
    register_in_python_launcher(home, b, changes)


MODULE_POM = """<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by ycsb-pack's scripts/install-into-ycsb: the {name} binding as a module of this
     checkout; running the installer again rewrites this file (keep your changes elsewhere).
     The binding's own jars are in lib/; every other runtime jar is declared with the exact
     version the binding was built and tested with, without transitive dependencies, so neither
     this checkout's dependencyManagement nor Maven's mediation can swap one. -->
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
  <name>{name} binding (ycsb-pack {version})</name>
  <properties>
    <!-- through a property: Maven warns about a literal ${{project.basedir}} in a systemPath
         because dependents could not resolve it, and nothing depends on this module -->
    <ycsbpack.lib>${{project.basedir}}/lib</ycsbpack.lib>
  </properties>
  <dependencies>
    <!-- YCSB's launchers take core and its dependencies from this module's dependency list -->
    <dependency>
      <groupId>{ycsb_group}</groupId>
      <artifactId>core</artifactId>
      <version>${{project.version}}</version>
      <scope>provided</scope>
    </dependency>
{dependencies}  </dependencies>
  <build>
    <plugins>
      <plugin>
        <!-- bin/ycsb.sh reads target/dependency/*.jar: the build puts the binding's own jars
             there too (binding-parent's copy-dependencies copies the others), also after a
             mvn clean -->
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>3.3.1</version>
        <executions>
          <execution>
            <id>ycsbpack-own-jars</id>
            <phase>package</phase>
            <goals>
              <goal>copy-resources</goal>
            </goals>
            <configuration>
              <outputDirectory>${{project.build.directory}}/dependency</outputDirectory>
              <resources>
                <resource>
                  <directory>${{ycsbpack.lib}}</directory>
                </resource>
              </resources>
            </configuration>
          </execution>
        </executions>
      </plugin>
    </plugins>
  </build>
</project>
"""

OWN_JAR = """    <dependency>
      <groupId>{group}</groupId>
      <artifactId>{artifact}</artifactId>
      <version>{version}</version>
      <scope>system</scope>
      <systemPath>${{ycsbpack.lib}}/{file}</systemPath>
    </dependency>
"""

CENTRAL_JAR = """    <dependency>
      <groupId>{group}</groupId>
      <artifactId>{artifact}</artifactId>
      <version>{version}</version>{classifier}
      <scope>{scope}</scope>
      <exclusions>
        <exclusion>
          <groupId>*</groupId>
          <artifactId>*</artifactId>
        </exclusion>
      </exclusions>
    </dependency>
"""

OUR_GROUP = "org.ycsbpack"


@dataclass(frozen=True)
class Jar:
    """One runtime jar of a binding, as its build resolved it."""
    group: str
    artifact: str
    classifier: str
    version: str
    scope: str

    @property
    def file_name(self) -> str:
        """The name copy-dependencies gives it (YCSB's binding-parent uses the same default)."""
        suffix = f"-{self.classifier}" if self.classifier else ""
        return f"{self.artifact}-{self.version}{suffix}.jar"


def runtime_jars(b: Binding) -> list:
    """The binding's own jar and its runtime dependencies, from the build's dependency list."""
    listing = REPO_ROOT / b.module / "target" / "runtime-dependencies.txt"
    if not listing.exists():
        raise ScriptError(f"{listing} is missing: rebuild this project with {BUILD_COMMAND}")
    jars = [Jar(OUR_GROUP, b.module, "", project_version(), "compile")]
    for line in listing.read_text().splitlines():
        parts = line.split(" -- ")[0].strip().split(":")
        if len(parts) == 5:
            group, artifact, kind, version, scope = parts
            classifier = ""
        elif len(parts) == 6:
            group, artifact, kind, classifier, version, scope = parts
        else:
            continue  # the header line and blank lines
        if kind == "jar":
            jars.append(Jar(group, artifact, classifier, version, scope))
    return jars


def module_pom(b: Binding, ycsb_group: str, ycsb_version: str) -> str:
    deps = []
    for j in runtime_jars(b):
        if j.group == OUR_GROUP:
            deps.append(OWN_JAR.format(group=j.group, artifact=j.artifact, version=j.version,
                                       file=j.file_name))
        else:
            classifier = f"\n      <classifier>{j.classifier}</classifier>" if j.classifier else ""
            deps.append(CENTRAL_JAR.format(group=j.group, artifact=j.artifact,
                                           version=j.version, classifier=classifier,
                                           scope=j.scope))
    return MODULE_POM.format(name=b.name, dir=dir_name(b), version=project_version(),
                             ycsb_group=ycsb_group, ycsb_version=ycsb_version,
                             dependencies="".join(deps))


def _root_pom_coordinates(pom_text: str):
    group = re.search(r"<groupId>([^<]+)</groupId>", pom_text)
    version = re.search(r"<artifactId>root</artifactId>\s*<version>([^<]+)</version>", pom_text)
    if not version:
        version = re.search(r"<version>([^<]+)</version>", pom_text)
    return (group.group(1) if group else "site.ycsb"), (version.group(1) if version else "")


def write_if_changed(path: Path, content: str, changes: list) -> None:
    if path.exists() and path.read_text() == content:
        return
    changes.append(f"{'replaced' if path.exists() else 'added'} {path}")
    path.write_text(content)


def install_source(home: Path, b: Binding, changes: list) -> None:
    pom_text = (home / "pom.xml").read_text()
    ycsb_group, ycsb_version = _root_pom_coordinates(pom_text)
    module = home / dir_name(b)
    module.mkdir(exist_ok=True)
    write_if_changed(module / "pom.xml", module_pom(b, ycsb_group, ycsb_version), changes)
    entry = f"<module>{dir_name(b)}</module>"
    if entry not in pom_text:
        m = re.search(r"<modules>\s*\n", pom_text)
        if not m:
            raise ScriptError(f"{home / 'pom.xml'} has no <modules> section to add {entry} to")
        pom_text = pom_text[:m.end()] + f"    {entry}\n" + pom_text[m.end():]
        (home / "pom.xml").write_text(pom_text)
        changes.append(f"{home / 'pom.xml'}: {entry}")
    built = _built(b)
    own = [built / "lib" / j.file_name for j in runtime_jars(b) if j.group == OUR_GROUP]
    sync_files(own, module / "lib", changes)
    sync_dir(built / "conf", module / "conf", changes)
    register_in_bindings_properties(home, b, changes)
    register_in_python_launcher(home, b, changes)


def installed_bindings() -> list:
    """The project's bindings under the names they are installed as (install_name)."""
    return [replace(b, name=b.install_name) if b.install_name else b for b in PROJECT_BINDINGS]


def maven_project(b: Binding) -> str:
    return f"site.ycsb:{dir_name(b)}-binding"


def missing_for_launchers(home: Path) -> list:
    """What bin/ycsb.sh reads in a source checkout and YCSB's own build may not have made."""
    missing = []
    if not list((home / "core" / "target").glob("*.jar")):
        missing.append("core/target/*.jar")
    if not list((home / "core" / "target" / "dependency").glob("*.jar")):
        missing.append("core/target/dependency/*.jar (core's runtime jars, e.g. htrace-core4)")
    for b in installed_bindings():
        target = home / dir_name(b) / "target"
        if not list(target.glob("*.jar")):
            missing.append(f"{dir_name(b)}/target/*.jar")
        present = {p.name for p in (target / "dependency").glob("*.jar")}
        if any(j.file_name not in present for j in runtime_jars(b)):
            missing.append(f"{dir_name(b)}/target/dependency/*.jar")
    return missing


def build_for_launchers(home: Path) -> None:
    """Builds what bin/ycsb.sh needs with YCSB's own build: -Psource-run is the profile of core
    that copies core's runtime jars to core/target/dependency, which a plain build skips."""
    missing = missing_for_launchers(home)
    if not missing:
        return
    projects = ",".join(["site.ycsb:core"] + [maven_project(b) for b in installed_bindings()])
    cmd = [maven.mvn(), "-B", "-q", "-Psource-run", "-pl", projects, "-am", "-DskipTests",
           "package"]
    shown = "mvn " + " ".join(cmd[1:])
    print(f"YCSB's tree lacks what bin/ycsb.sh reads: {'; '.join(missing)}\n"
          f"  building it with YCSB's own build: (cd {home} && {shown})", flush=True)
    proc = subprocess.run(cmd, cwd=home, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-20:])
        raise ScriptError(f"YCSB's build failed; fix what it says, then run it yourself: "
                          f"(cd {home} && {shown})\n{tail}")
    if not list((home / "core" / "target" / "dependency").glob("*.jar")):
        # a checkout whose core has no source-run profile: the same copy, asked for directly
        copy = [maven.mvn(), "-B", "-q", "-pl", "site.ycsb:core", "dependency:copy-dependencies",
                "-DincludeScope=runtime"]
        print(f"  and: (cd {home} && mvn {' '.join(copy[1:])})", flush=True)
        proc = subprocess.run(copy, cwd=home, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-20:])
            raise ScriptError(f"copying YCSB core's runtime jars failed:\n{tail}")
    still = missing_for_launchers(home)
    if still:
        raise ScriptError(f"after YCSB's build, {'; '.join(still)} are still missing in {home}")


def main(argv=None) -> int:
    ap = ArgParser(prog="install-into-ycsb", description=__doc__.splitlines()[0])
    ap.add_argument("ycsb_home", type=Path, help="a YCSB release tree or source checkout")
    args = ap.parse_args(argv)
    home = args.ycsb_home.resolve()
    if not home.is_dir():
        raise ScriptError(f"{home}: no such directory")
    kind = kind_of_tree(home)
    ensure_built()
    for b in installed_bindings():
        changes = []
        (install_release if kind == "release" else install_source)(home, b, changes)
        where = f"{dir_name(b)}-binding/" if kind == "release" else f"{dir_name(b)}/"
        print(f"{b.name} -> {home}/{where} ({kind} tree): "
              + (f"{len(changes)} change(s)" if changes else "already installed, unchanged"))
        for c in changes:
            print(f"  {c}")
    if kind == "source":
        build_for_launchers(home)
    return 0


if __name__ == "__main__":
    run_main(main)
