"""Versions of what a run used, read from the POMs that pin them (one definition each)."""
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
    for dep in ET.parse(pom).getroot().iter(f"{{{_NS['m']}}}dependency"):
        if dep.findtext("m:artifactId", namespaces=_NS) == artifact:
            return dep.findtext("m:version", namespaces=_NS) or ""
    return ""


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
