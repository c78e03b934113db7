"""Checks of the scripts' command lines (run-scenario, cassandra-local, hbase-local), before
anything is planned or started.

Each refusal is one sentence naming the option, the value, what is accepted and what to do;
argparse's own type checks (an int that is not one) go through errors.ArgParser.
"""
import ipaddress
import re

from .errors import ScriptError

# scenarios whose phases run --clients client processes (S1 fixes its own: one, or two side by
# side; test_scripts_scenarios checks that its plan ignores --clients)
USES_CLIENTS = {"s2", "s3", "s4"}
_HOST = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?"
                   r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.?$")


def check_port(option: str, text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,5}", text.strip()) or not 1 <= int(text) <= 65535:
        raise ScriptError(f"{option}: '{text}' is not a port: give a number from 1 to 65535")
    return int(text)


def check_heap(option: str, text: str) -> None:
    if not re.fullmatch(r"[1-9][0-9]*[kKmMgG]?", text):
        raise ScriptError(f"{option} {text}: give a JVM heap size such as 512M or 1G")


def check_hosts(option: str, value: str) -> None:
    """host or host:port (IPv4, a name, or a bracketed/bare IPv6 address), comma-separated."""
    items = value.split(",")
    for item in items:
        item = item.strip()
        if not item:
            raise ScriptError(f"{option} '{value}' has an empty entry: give host or host:port "
                              "entries separated by commas, e.g. 10.0.0.1,10.0.0.2:9042")
        host, port = item, None
        if item.startswith("["):
            host, _, rest = item[1:].partition("]")
            port = rest[1:] if rest.startswith(":") else (None if not rest else rest)
        elif item.count(":") == 1:
            host, port = item.split(":")
        if port is not None:
            check_port(f"{option} {item}", port)
        if not (_is_ip(host) or _HOST.match(host)):
            raise ScriptError(f"{option}: '{item}' is not a host or host:port (letters, digits, "
                              "dots and dashes, or an IP address), e.g. 10.0.0.1,10.0.0.2:9042")


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        return False


def check_loopback(option: str, value: str, nodes: int) -> None:
    try:
        first = ipaddress.IPv4Address(value)
    except ValueError:
        raise ScriptError(f"{option} {value} is not an IPv4 address: give a loopback address "
                          "such as 127.0.0.1")
    last = first + (nodes - 1) if int(first) + nodes - 1 <= 0xFFFFFFFF else first
    if not first.is_loopback or not last.is_loopback:
        raise ScriptError(f"{option} {value}: local servers listen on loopback only; give an "
                          f"address in 127.0.0.0/8 with room for {nodes} node(s), e.g. 127.0.0.1")


def validate_run_scenario(args, scenario: str, cassandra_nodes: int) -> None:
    """Raises a ScriptError for the first thing on run-scenario's command line that cannot work."""
    for option in ("hosts", "hbase_hosts"):
        if getattr(args, option) is not None:
            check_hosts("--" + option.replace("_", "-"), getattr(args, option))
    if args.clients < 1:
        raise ScriptError(f"--clients {args.clients}: give 1 or more")
    if args.clients > 1 and scenario not in USES_CLIENTS:
        raise ScriptError(f"--clients {args.clients}: {scenario.upper()} decides its client "
                          "processes itself (one per phase, two side by side for its reader "
                          "phases); leave --clients out")
    own_servers = args.hosts or args.hbase_hosts
    if args.scale == "cluster" and not own_servers:
        raise ScriptError("--scale cluster loads the reports' record counts (millions of rows, "
                          "hours): it is meant for your cluster, given with --hosts; on local "
                          "servers use --scale local")
    if not own_servers:
        check_loopback("--cassandra-address", args.cassandra_address, cassandra_nodes)
        for i in range(cassandra_nodes):
            check_port("--cassandra-jmx-port", str(args.cassandra_jmx_port + 100 * i))
        ports = [check_port("--hbase-ports", p) for p in args.hbase_ports.split(",")]
        if len(ports) != 3 or len(set(ports)) != 3:
            raise ScriptError(f"--hbase-ports {args.hbase_ports}: give three different ports "
                              "(ZooKeeper, master, region server), e.g. 2181,16000,16020")
