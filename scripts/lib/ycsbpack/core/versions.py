"""Versions of what a run used, read from the POMs that pin them (one definition each)."""
import re
import xml.etree.ElementTree as ET

from .paths import LOCAL_SERVERS, REPO_ROOT

_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def _pom_properties() -> dict:
    root = ET.parse(REPO_ROOT / "pom.xml").getroot()
    props = root.find("m:properties", _NS)
    return {el.tag.split("}")[1]: (el.text or "") for el in props}


def _server_version(name: str, artifact: str) -> str:
    pom = LOCAL_SERVERS / name / "pom.xml"
    if not pom.exists():
        return ""
    root = ET.parse(pom).getroot()
    own = root.find("m:properties", _NS)
    props = dict(_pom_properties(), **{el.tag.split("}")[1]: (el.text or "")
                                       for el in (own if own is not None else [])})
    for dep in root.iter(f"{{{_NS['m']}}}dependency"):
        if dep.findtext("m:artifactId", namespaces=_NS) == artifact:
            return _resolved(dep.findtext("m:version", namespaces=_NS) or "", props)
    return ""


def _resolved(value: str, props: dict) -> str:
    """`${hbase.version}` -> the property's value (a version a POM names through a property)."""
    return re.sub(r"\$\{([^}]+)\}", lambda m: props.get(m.group(1), m.group(0)), value)


def versions() -> dict:
    p = _pom_properties()
    return {
        "ycsb_core": p.get("ycsb.version", ""),
        "cassandra_java_driver": p.get("java-driver.version", ""),
        "hbase_client": p.get("hbase.version", ""),
        "local_cassandra_server": _server_version("cassandra", "cassandra-all"),
        "local_hbase_server": _server_version("hbase", "hbase-server"),
    }


def project_version() -> str:
    root = ET.parse(REPO_ROOT / "pom.xml").getroot()
    return root.findtext("m:version", namespaces=_NS) or ""
