"""scripts/hbase-local decisions that need no running HBase: the cluster's layout, ports,
configuration files, and the refusals of bad options."""
import socket
import xml.etree.ElementTree as ET

import pytest
from ycsbpack.core.errors import ScriptError
from ycsbpack.servers import hbase_cluster, hbase_local


def props(path):
    return {p.findtext("name"): p.findtext("value") for p in ET.parse(path).getroot()}


def test_a_three_node_cluster_is_a_process_per_part_with_distinct_ports(tmp_path):
    layout = hbase_cluster.Layout(tmp_path, 3, 2181, 16000, 16020, None)
    assert layout.processes() == ["zookeeper", "namenode", "datanode-1", "datanode-2",
                                  "datanode-3", "master", "regionserver-1", "regionserver-2",
                                  "regionserver-3"]
    assert layout.node_processes(2) == ["datanode-2", "regionserver-2"]
    ports = [p for _, p, _ in layout.ports()]
    assert ports == [2181, 16000, 16001, 16002, 16020, 16021, 16022, 16010, 16030, 16031, 16032]
    assert (
        layout.replication == 3
        and hbase_cluster.Layout(tmp_path, 2, 1, 2, 3, None).replication == 2
    )
    assert layout.heap("regionserver-1") == "512m"


def test_each_process_gets_its_own_complete_configuration(tmp_path):
    layout = hbase_cluster.Layout(tmp_path, 3, 23181, 23000, 23020, "384m")
    conf = hbase_cluster.write_config(layout, "regionserver-2")
    hbase = props(conf / "hbase-site.xml")
    assert hbase["hbase.cluster.distributed"] == "true"
    assert hbase["hbase.rootdir"] == "hdfs://127.0.0.1:23001/hbase"
    assert hbase["hbase.regionserver.port"] == "23021"
    # info servers on loopback at the RPC port + 10 (bin/ycsb servers reads /jmx and /conf)
    assert hbase["hbase.regionserver.info.port"] == "23031"
    assert hbase["hbase.master.info.port"] == "23010"
    assert hbase["hbase.regionserver.info.bindAddress"] == "127.0.0.1"
    assert hbase["hbase.master.info.bindAddress"] == "127.0.0.1"
    hdfs = props(conf / "hdfs-site.xml")
    assert hdfs["dfs.replication"] == "3"
    assert hdfs["dfs.datanode.data.dir"] == str(tmp_path / "data" / "datanode-2")
    assert all(v.startswith("127.0.0.1:") for k, v in hdfs.items() if k.endswith("address"))
    assert props(conf / "core-site.xml")["fs.defaultFS"] == "hdfs://127.0.0.1:23001"
    zoo = (hbase_cluster.write_config(layout, "zookeeper") / "zoo.cfg").read_text()
    assert "clientPortAddress=127.0.0.1" in zoo and "clientPort=23181" in zoo


def test_the_region_layout_is_read_from_the_probe_answer():
    answer = ("HBase cluster (3 nodes): namespaces: default,hbase; 3 live region server(s): "
              "127.0.0.1:23020(t1=21,t2=22) 127.0.0.1:23021(t2=21) 127.0.0.1:23022; clients: "
              "-p hbase.zookeeper.quorum=127.0.0.1 -p hbase.zookeeper.property.clientPort=23181")
    assert hbase_local.region_layout(answer) == {
        "127.0.0.1:23020": {"t1": 21, "t2": 22}, "127.0.0.1:23021": {"t2": 21},
        "127.0.0.1:23022": {}}


def test_the_standalone_info_servers_listen_on_loopback_at_the_rpc_ports_plus_10(tmp_path):
    server = hbase_local.Server(tmp_path, 22181, 26000, 26020, None, 1)
    hbase = props(hbase_local._write_config(server) / "hbase-site.xml")
    assert (hbase["hbase.master.info.port"], hbase["hbase.regionserver.info.port"]) == (
        "26010", "26030")
    assert hbase["hbase.master.info.bindAddress"] == "127.0.0.1"
    assert [p for _, p, _ in server.ports()] == [22181, 26000, 26020, 26010, 26030]


@pytest.mark.parametrize("argv, message", [
    (["start", "--nodes", "0"], "--nodes 0: give 1 (standalone) or more"),
    (["stop", "--node", "2"], "--node is for --nodes N clusters"),
    (["start", "--nodes", "3", "--master-port", "16019"], "overlap"),
])
def test_bad_options_are_refused_with_one_sentence(tmp_path, argv, message):
    with pytest.raises(ScriptError) as e:
        hbase_local.main(argv + ["--run-dir", str(tmp_path)])
    assert message in str(e.value)


def test_a_taken_port_of_a_cluster_process_is_refused_by_name(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        server = hbase_local.Server(tmp_path, 1, port - 1, port - 20, None, 3)
        with pytest.raises(ScriptError) as e:
            hbase_local._refuse_taken_ports(server)
    assert f"127.0.0.1:{port} (HDFS NameNode RPC (--master-port + 1))" in str(e.value)


def test_the_dead_servers_regions_and_when_they_reopened_come_from_the_masters_log(
        tmp_path, monkeypatch):
    """A real excerpt of a master log: region server 3 (port 24022, carrying hbase:meta) killed
    at 00:53:59.767; its ServerCrashProcedure, and its regions reopened on the other servers."""
    import json
    import shutil
    import time
    from pathlib import Path

    from ycsbpack.servers import hbase_logs
    monkeypatch.setenv("TZ", "UTC")  # the log was written on a machine in UTC
    time.tzset()
    (tmp_path / "logs").mkdir()
    shutil.copy(Path(__file__).parent / "fixtures" / "hbase-master-crash.log",
                tmp_path / "logs" / "master.log")
    (tmp_path / "hbase.json").write_text(json.dumps({"regionserver_port": 24020}))
    r = hbase_logs.region_recovery(tmp_path, 3, "2026-11-24T00:53:59.767+00:00")
    assert r["server"] == "127.0.0.1,24022,1795481476858"
    assert (r["crash_noticed_s"], r["crash_procedure_done_s"]) == (5.3, 25.6)
    assert {k: v["reopened_s"] for k, v in r["regions"].items()} == {
        "1588230740": 8.5, "b08943ec6ee527729f2e70a5338df219": 16.6,
        "5638230a97467be4f447c68c9d901e16": 17.7, "75deace0f94ee99074f919f5c83a4302": 19.7}
    assert r["by_table"] == {"hbase:meta": 1, "t2": 2, "t1": 1} and r["not_reopened"] == 0
    assert (r["min_s"], r["max_s"]) == (8.5, 19.7)
