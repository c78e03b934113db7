"""install-into-ycsb's module for a YCSB source checkout, from a build's dependency list."""
import xml.etree.ElementTree as ET

import pytest
from ycsbpack.core.bindings import BINDINGS
from ycsbpack.core.errors import ScriptError
from ycsbpack.ycsb import install

# lines as maven-dependency-plugin 3.8.1's `list` goal writes them (cassandra4-binding's build)
LISTING = """
The following files have been resolved:
   com.github.jnr:jffi:jar:1.3.9:compile -- module org.jnrproject.jffi [auto]
   com.github.jnr:jffi:jar:native:1.3.9:runtime -- module org.jnrproject.jffi.nativelibs [auto]
   org.slf4j:slf4j-simple:jar:1.7.36:runtime -- module org.slf4j.simple [auto]
   org.ycsbpack:binding-common:jar:0.1.0-SNAPSHOT:compile -- module binding.common (auto)
"""
NS = {"m": "http://maven.apache.org/POM/4.0.0"}


@pytest.fixture
def built(tmp_path, monkeypatch):
    target = tmp_path / "cassandra4-binding" / "target"
    target.mkdir(parents=True)
    (target / "runtime-dependencies.txt").write_text(LISTING)
    monkeypatch.setattr(install, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(install, "project_version", lambda: "0.1.0-SNAPSHOT")
    return BINDINGS["cassandra4"]


def test_runtime_jars_are_the_binding_itself_and_every_listed_jar_with_copy_dependencies_names(
    built,
):
    names = [j.file_name for j in install.runtime_jars(built)]
    assert names == ["cassandra4-binding-0.1.0-SNAPSHOT.jar", "jffi-1.3.9.jar",
                     "jffi-1.3.9-native.jar", "slf4j-simple-1.7.36.jar",
                     "binding-common-0.1.0-SNAPSHOT.jar"]


def test_the_module_declares_core_provided_exact_jars_without_transitives_and_own_jars_from_lib(
    built,
):
    pom = ET.fromstring(install.module_pom(built, "site.ycsb", "0.18.0-SNAPSHOT"))
    assert pom.findtext("m:artifactId", namespaces=NS) == "cassandra4-binding"
    assert pom.findtext("m:parent/m:version", namespaces=NS) == "0.18.0-SNAPSHOT"
    deps = {(d.findtext("m:artifactId", namespaces=NS), d.findtext("m:classifier", "", NS)): d
            for d in pom.iterfind("m:dependencies/m:dependency", NS)}
    core = deps[("core", "")]
    assert (core.findtext("m:scope", namespaces=NS), core.findtext("m:version", namespaces=NS)) \
        == ("provided", "${project.version}")
    native = deps[("jffi", "native")]
    assert native.findtext("m:version", namespaces=NS) == "1.3.9"
    assert native.findtext("m:scope", namespaces=NS) == "runtime"
    assert native.findtext("m:exclusions/m:exclusion/m:artifactId", namespaces=NS) == "*"
    for own in ("cassandra4-binding", "binding-common"):
        d = deps[(own, "")]
        assert d.findtext("m:scope", namespaces=NS) == "system"
        assert d.findtext("m:systemPath", namespaces=NS) == \
            "${ycsbpack.lib}/" + own + "-0.1.0-SNAPSHOT.jar"
    assert len(deps) == 6


def test_a_build_without_the_dependency_list_is_named_with_the_command_that_makes_it(built):
    (install.REPO_ROOT / "cassandra4-binding" / "target" / "runtime-dependencies.txt").unlink()
    with pytest.raises(ScriptError, match="runtime-dependencies.txt is missing: rebuild"):
        install.runtime_jars(built)
