"""Versions the build pins, read from the POMs (one definition each). What a phase actually ran
is read from the source: the client's jars (phases/provenance.py) and the servers themselves
(bin/ycsb servers): metadata.json "provenance" and "servers"."""
import xml.etree.ElementTree as ET

from .paths import REPO_ROOT

_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def _pom_properties() -> dict:
    root = ET.parse(REPO_ROOT / "pom.xml").getroot()
    props = root.find("m:properties", _NS)
    return {el.tag.split("}")[1]: (el.text or "") for el in props}


def versions() -> dict:
    p = _pom_properties()
    return {
        "ycsb_core": p.get("ycsb.version", ""),
        "cassandra_java_driver": p.get("java-driver.version", ""),
        "hbase_client": p.get("hbase.version", ""),
    }


def project_version() -> str:
    root = ET.parse(REPO_ROOT / "pom.xml").getroot()
    return root.findtext("m:version", namespaces=_NS) or ""
