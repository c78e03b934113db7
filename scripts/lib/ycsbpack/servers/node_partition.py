"""Cutting one node of a local cluster off the network (S2's partition fault,
scenarios/fault_partition.py): from its peers, or from its clients, by dropping packets.

Every local server listens on loopback, several of them on one address (HBase's region servers
are 127.0.0.1 with one port each), and a connection's source address says nothing of which
process made it. So the packets are told apart by the process that sends them: node N's
processes go into one net_cls cgroup, the cluster's other server processes into another (the
kernel tags every socket of a process it moves, open ones too), and an nftables table drops,
on the output hook:
  peers    what the peers send to an address and port node N listens on, and what node N sends
           to one its peers listen on: neither side hears the other, the clients still reach
           every node (a switch port between racks gone);
  clients  what any other process (the YCSB clients, the runner's probes) sends to an address
           and port node N listens on: the node is healthy among its peers and unreachable
           from the clients (a client-side network failure).
Dropped, not refused: a connection attempt hangs until its timeout, as on a real network; no
netem or routing change is needed. Healing deletes the table and moves the processes back to
the root cgroup. The table and the groups are this module's own (TABLE, GROUPS), made again
on every cut, and deleted on heal even when the phase failed.

What it needs (missing() says which is absent, in one sentence): root (nft rules and cgroup
writes), the nft command (Debian's nftables package) and the kernel's net_cls controller.
"""
import os
import shutil
import subprocess
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

import psutil

from ..core.errors import ScriptError

TABLE = "ycsbpack_partition"
NET_CLS = Path("/sys/fs/cgroup/net_cls")
# net_cls class ids (major:minor, any unused pair): the node cut off, and the other servers
GROUPS = {"ycsbpack-node": 0x00AC0001, "ycsbpack-peers": 0x00AC0002}
SIDES = ("peers", "clients")
Endpoint = Tuple[Optional[str], int]   # (IPv4 address, None: every address; port)


def missing() -> Optional[str]:
    """What this machine lacks to cut a node off (None: nothing)."""
    if os.geteuid() != 0:
        return (f"it needs root for packet filter rules and a net_cls cgroup (this runner is "
                f"user id {os.geteuid()})")
    if not shutil.which("nft"):
        return "the nft command is not installed (Debian's nftables package)"
    cgroups = Path("/proc/cgroups")
    if not any(line.split()[0] == "net_cls" and line.split()[-1] == "1"
               for line in cgroups.read_text().splitlines()[1:] if line.strip()):
        return "the kernel has no net_cls cgroup controller (/proc/cgroups)"
    return None


def listening(pids: Iterable[int]) -> List[Endpoint]:
    """The TCP addresses and ports these processes listen on (an IPv4-mapped address as IPv4;
    a wildcard as None; IPv6-only loopback left out: the clients connect over IPv4)."""
    found = set()
    for pid in pids:
        try:
            conns = psutil.Process(pid).net_connections(kind="tcp")
        except psutil.Error:
            continue
        for c in conns:
            if c.status != psutil.CONN_LISTEN:
                continue
            ip = c.laddr.ip.removeprefix("::ffff:")
            if ip in ("0.0.0.0", "::"):
                found.add((None, c.laddr.port))
            elif ":" not in ip:
                found.add((ip, c.laddr.port))
    return sorted(found, key=lambda e: (e[0] or "", e[1]))


def rules(side: str, node_at: List[Endpoint], peers_at: List[Endpoint]) -> List[str]:
    """The drop rules of one cut (nft syntax, one per line)."""
    node, peers = GROUPS["ycsbpack-node"], GROUPS["ycsbpack-peers"]

    def to(at: Endpoint) -> str:
        return (f"ip daddr {at[0]} " if at[0] else "") + f"tcp dport {at[1]}"

    if side == "peers":
        return ([f"meta cgroup {peers:#x} {to(e)} drop" for e in node_at]
                + [f"meta cgroup {node:#x} {to(e)} drop" for e in peers_at])
    if side == "clients":
        return [f"meta cgroup != {{ {node:#x}, {peers:#x} }} {to(e)} drop" for e in node_at]
    raise ValueError(f"unknown side {side!r}: one of {', '.join(SIDES)}")


def _nft(script: str) -> None:
    p = subprocess.run(["nft", "-f", "-"], input=script, capture_output=True, text=True)
    if p.returncode != 0:
        raise ScriptError(f"nft refused the partition's rules: {p.stderr.strip()}")


def _move(pids: Iterable[int], group: Path) -> None:
    for pid in pids:
        try:
            (group / "cgroup.procs").write_text(str(pid))
        except ProcessLookupError:
            pass   # it exited meanwhile (an HBase region server fenced after the cut)


class Partition:
    """Node `node_pids` cut off from `side` while the `with` block runs; `peer_pids` are the
    cluster's other server processes. `rules` and the endpoints are kept for the verdict."""

    def __init__(self, node_pids: Dict[str, int], peer_pids: Dict[str, int], side: str):
        if side not in SIDES:
            raise ValueError(f"unknown side {side!r}: one of {', '.join(SIDES)}")
        self.node_pids, self.peer_pids, self.side = dict(node_pids), dict(peer_pids), side
        self.rules: List[str] = []

    def __enter__(self) -> "Partition":
        why = missing()
        if why:
            raise ScriptError(f"cannot cut a node off: {why}")
        if not os.path.ismount(NET_CLS):
            NET_CLS.mkdir(parents=True, exist_ok=True)
            subprocess.run(["mount", "-t", "cgroup", "-o", "net_cls", "net_cls", str(NET_CLS)],
                           check=True, capture_output=True)
        for name, classid in GROUPS.items():
            (NET_CLS / name).mkdir(exist_ok=True)
            (NET_CLS / name / "net_cls.classid").write_text(str(classid))
        node_at = listening(self.node_pids.values())
        peers_at = listening(self.peer_pids.values())
        if not node_at:
            raise ScriptError(f"cannot cut a node off: its processes {self.node_pids} listen "
                              "on no TCP port")
        self.rules = rules(self.side, node_at, peers_at)
        _move(self.node_pids.values(), NET_CLS / "ycsbpack-node")
        _move(self.peer_pids.values(), NET_CLS / "ycsbpack-peers")
        try:
            # (add + delete + define: one transaction that also clears a table left behind)
            _nft(f"add table inet {TABLE}\ndelete table inet {TABLE}\n"
                 f"table inet {TABLE} {{\n chain out {{\n  type filter hook output priority 0; "
                 f"policy accept;\n" + "".join(f"  {r}\n" for r in self.rules) + " }\n}\n")
        except BaseException:
            self.heal()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.heal()

    def heal(self) -> None:
        """The table deleted, every process back in the root group, the groups removed."""
        subprocess.run(["nft", "delete", "table", "inet", TABLE], capture_output=True)
        for name in GROUPS:
            group = NET_CLS / name
            if group.is_dir():
                left = (group / "cgroup.procs").read_text().split()
                _move((int(p) for p in left), NET_CLS)
                group.rmdir()
