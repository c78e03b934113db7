"""The partition's mechanism on this machine's real kernel (servers/node_partition.py): three
processes on loopback, a "node", a "peer" and a client, and which of them still reach which
while the node is cut off from its peers or from its clients. Needs root, nft and net_cls:
where one is missing the test checks the sentence that says so (the fault is then skipped)."""
import socket
import subprocess
import sys

import pytest
from ycsbpack.servers import node_partition

# a server process: listens on argv[1]:0, prints its port, then connects where stdin says
PROCESS = r"""
import socket, sys
srv = socket.socket(); srv.bind((sys.argv[1], 0)); srv.listen(16)
print(srv.getsockname()[1], flush=True)
for line in sys.stdin:
    host, port = line.split()
    try:
        socket.create_connection((host, int(port)), timeout=0.5).close(); print("ok", flush=True)
    except OSError:
        print("cut", flush=True)
"""


class Process:
    def __init__(self, address: str):
        self.address = address
        self.p = subprocess.Popen([sys.executable, "-c", PROCESS, address], text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.port = int(self.p.stdout.readline())

    def reaches(self, other: "Process") -> bool:
        self.p.stdin.write(f"{other.address} {other.port}\n")
        self.p.stdin.flush()
        return self.p.stdout.readline().strip() == "ok"

    def stop(self):
        self.p.kill()
        self.p.wait()


def client_reaches(other: Process) -> bool:
    try:
        socket.create_connection((other.address, other.port), timeout=0.5).close()
        return True
    except OSError:
        return False


@pytest.fixture
def cluster():
    procs = [Process("127.0.0.3"), Process("127.0.0.2")]
    yield procs
    for p in procs:
        p.stop()


@pytest.mark.skipif(node_partition.missing() is not None, reason="partition mechanism missing")
@pytest.mark.parametrize("side,expected", [
    # (node -> peer, peer -> node, client -> node, client -> peer)
    ("peers", (False, False, True, True)),
    ("clients", (True, True, False, True)),
])
def test_a_node_cut_off_hears_only_who_it_should_and_everything_heals(cluster, side, expected):
    node, peer = cluster
    reach = lambda: (node.reaches(peer), peer.reaches(node), client_reaches(node),  # noqa: E731
                     client_reaches(peer))
    assert reach() == (True, True, True, True)
    with node_partition.Partition({"node": node.p.pid}, {"peer": peer.p.pid}, side) as cut:
        assert reach() == expected, cut.rules
        assert any(f"tcp dport {node.port}" in r for r in cut.rules)
    assert reach() == (True, True, True, True)
    listed = subprocess.run(["nft", "list", "tables"], capture_output=True, text=True).stdout
    assert node_partition.TABLE not in listed
    assert not any((node_partition.NET_CLS / g).exists() for g in node_partition.GROUPS)


def test_what_is_missing_is_one_sentence(monkeypatch):
    monkeypatch.setattr(node_partition.shutil, "which", lambda _: None)
    monkeypatch.setattr(node_partition.os, "geteuid", lambda: 0)
    assert node_partition.missing() == ("the nft command is not installed (Debian's nftables "
                                        "package)")
    monkeypatch.setattr(node_partition.os, "geteuid", lambda: 1000)
    assert node_partition.missing() == ("it needs root for packet filter rules and a net_cls "
                                        "cgroup (this runner is user id 1000)")


def test_the_rules_of_each_side():
    node_at, peers_at = [("127.0.0.3", 9042)], [("127.0.0.1", 7000), (None, 2181)]
    assert node_partition.rules("peers", node_at, peers_at) == [
        "meta cgroup 0xac0002 ip daddr 127.0.0.3 tcp dport 9042 drop",
        "meta cgroup 0xac0001 ip daddr 127.0.0.1 tcp dport 7000 drop",
        "meta cgroup 0xac0001 tcp dport 2181 drop"]
    assert node_partition.rules("clients", node_at, peers_at) == [
        "meta cgroup != { 0xac0001, 0xac0002 } ip daddr 127.0.0.3 tcp dport 9042 drop"]
    with pytest.raises(ValueError):
        node_partition.rules("disk", node_at, peers_at)
