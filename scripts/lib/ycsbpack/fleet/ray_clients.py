"""The coordinator side of the fleet: runs a phase's client commands on Ray loader nodes.

`RayClients` is a phase_runner client launcher (`run(commands, phase_dir, echo_status, warmup)`
-> exit statuses, then `metadata()`, `client_cpu(...)` and `failure(i)`): phase_runner builds the
same bin/ycsb commands as for local clients (the same split of keys and -target, the same
warm-up properties), and this runs client i on a loader node instead of this machine:

  1. a placement group of one bundle {ycsb_loader: 1} per loader node, STRICT_SPREAD, so
     clients land on distinct nodes (`clients_per_node` > 1 packs that many per node);
  2. one ClientAgent actor per client in its bundle; each describes its node (Ray node id,
     host, IP, Java, pack commit, jar checksum): a node that cannot run the client or runs a
     different pack build is refused with one sentence naming it, before anything starts;
  3. each node's clock offset from this machine (half a round trip of a time call);
  4. every client started at once (the agents are already up: about 0.1 s apart);
  5. once a second, every agent's new output is appended to <phase_dir>/client-<i>.out/.err and
     hdr/client-<i>-<OP>.hdr (the local clients' layout) and status lines are echoed;
  6. with a warm-up (warmup.InRunWarmUp), the status lines feed its judge as they arrive, and
     once warm and measured every agent creates its client's stop file on its loader (the
     command's ycsbpack.stopfile, under the work-directory token): all clients end as at their
     time limit, as local clients do;
  7. each client's CPU seconds, measured on its loader (agent.py), with its run time and the
     loader's cores: `client_cpu()` gives the record bottleneck.py reads per loader;
  8. a client whose node stops answering is lost: the phase fails naming client and node, the
     others run to their end and keep their output. Ctrl-C stops every client's JVM first.
"""

import math
import socket
import sys
import threading
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, List, Sequence

from ..core.errors import ScriptError
from ..core.paths import REPO_ROOT
from ..core.secrets import mask_command
from ..phases.phase_runner import YCSB, with_part
from . import agent
from .ray_env import LOADER_RESOURCE, connect

POLL_S = 1.0
ANSWER_S = 30.0  # an agent that does not answer a poll within this is lost
PLACE_S = 60.0  # waiting for the loader nodes to take the phase's clients
LOST = -1  # exit status of a client whose node was lost


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).isoformat()


def remote_command(cmd: Sequence[str], phase_dir: Path):
    """The command for a loader (bin/ycsb and the results under tokens the agent resolves) and
    the -P files to ship, {name: bytes}. Other paths (-cp, -jvm-args) go as they are."""
    files, out = {}, []
    i = 0
    while i < len(cmd):
        a = str(cmd[i])
        if i == 0 and a == str(YCSB):
            out.append(f"{agent.PACK_TOKEN}/bin/ycsb")
        elif a == "-P" and i + 1 < len(cmd):
            src = Path(cmd[i + 1])
            name = f"{len(files)}-{src.name}"
            files[name] = src.read_bytes()
            out += ["-P", f"{agent.WORK_TOKEN}/props/{name}"]
            i += 1
        else:
            out.append(a.replace(str(phase_dir), agent.WORK_TOKEN))
        i += 1
    return out, files


def node_name(info: dict) -> str:
    return (
        f"Ray node {info.get('ray_node_id', '?')[:12]} (host {info.get('host', '?')}, "
        f"{info.get('ip', '?')}, pack {info.get('pack_home') or '?'})"
    )


def refusals(infos: list, commit: str, jars: str) -> List[str]:
    """One sentence per client whose node cannot run it (checked before anything starts)."""
    problems = []
    for i, info in enumerate(infos):
        where = f"client {i}: {node_name(info)}"
        java = str(info.get("java_version") or "")
        if info.get("problem"):
            problems.append(f"{where} cannot run a client: {info['problem']}")
        elif info.get("jars_sha256") != jars:
            problems.append(
                f"{where} runs a different pack build (commit {info.get('pack_commit') or '?'}, "
                f"jars {str(info.get('jars_sha256'))[:12]}) than this coordinator (commit "
                f"{commit or '?'}, jars {jars[:12]}): build the coordinator's commit there "
                "(git checkout <commit> && mvn -q -DskipTests package) and run again"
            )
        elif info.get("java_problem") or not (java == "17" or java.startswith("17.")):
            problems.append(
                f"{where} has no Java 17 ({info.get('java_problem') or java}): "
                "install JDK 17 there or set JAVA17_HOME for its `ray start`"
            )
    return problems


class RayClients:
    def __init__(self, address: str, clients_per_node: int = 1):
        if clients_per_node < 1:
            raise ScriptError(f"--clients-per-node {clients_per_node}: give 1 or more")
        self.ray = connect(address)
        self.address = address
        self.per_node = clients_per_node
        self.ray.cloudpickle.register_pickle_by_value(agent)
        self.Agent = self.ray.remote(agent.ClientAgent)
        self.commit = agent.pack_commit(str(REPO_ROOT))
        self.jars = agent.jars_checksum(str(REPO_ROOT))
        self._meta: dict = {}
        self._cpu: dict = {}
        self._failures: Dict[int, str] = {}

    # -- what phase_runner asks -------------------------------------------------------------
    def metadata(self) -> dict:
        return self._meta

    def failure(self, i: int) -> str:
        return self._failures.get(i, "")

    def client_cpu(self, local_servers: bool) -> dict:
        """The fleet's part of metadata.json "cpu", lists by client (None for a lost one):
        CPU seconds and run time measured on its loader, the loader's cores and Ray node (the
        clients packed on one node share its cores). `local_servers`: the runner measured
        servers on this machine; they share cores with the clients only on a loader here."""
        here = socket.gethostname()
        return dict(
            self._cpu,
            shared_machine=local_servers
            and any(c.get("host") == here for c in self._meta.get("fleet", {}).get("clients", [])),
        )

    def loader_nodes(self) -> list:
        return [
            n
            for n in self.ray.nodes()
            if n.get("Alive") and n.get("Resources", {}).get(LOADER_RESOURCE, 0) >= 1
        ]

    def require(self, clients: int) -> None:
        """Refuses a run whose phases need more loader nodes than the cluster has."""
        needed = math.ceil(clients / self.per_node)
        loaders = self.loader_nodes()
        if len(loaders) < needed:
            raise ScriptError(
                f"{clients} client(s) at {self.per_node} per node need {needed} loader nodes, but "
                f"the Ray cluster at {self.address} has {len(loaders)} live node(s) with the "
                f"{LOADER_RESOURCE} resource: start more loaders, use fewer --clients, or pack "
                "several per node with --clients-per-node"
            )

    def run(
        self, commands: Sequence[list], phase_dir: Path, echo_status: bool, warmup=None
    ) -> List[int]:
        """Runs the clients (module docstring); `warmup`: the phase's InRunWarmUp, or None."""
        ray = self.ray
        from ray.util.placement_group import placement_group, remove_placement_group
        from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

        n = len(commands)
        self._meta, self._cpu, self._failures = {}, {}, {}
        nodes_needed = math.ceil(n / self.per_node)
        self.require(n)
        run_id = f"{phase_dir.name}-{uuid.uuid4().hex[:8]}"
        pg = placement_group([{LOADER_RESOURCE: 1}] * nodes_needed, strategy="STRICT_SPREAD")
        share = math.floor(10000 / self.per_node) / 10000  # Ray counts resources in 1e-4 units
        actors, infos = [], []
        try:
            ready, _ = ray.wait([pg.ready()], timeout=PLACE_S)
            if not ready:
                raise ScriptError(
                    f"the Ray cluster at {self.address} did not give {nodes_needed} distinct "
                    f"loader nodes within {PLACE_S:.0f} s (are other runs using them?)"
                )
            actors = [
                self.Agent.options(
                    scheduling_strategy=PlacementGroupSchedulingStrategy(
                        pg, placement_group_bundle_index=i // self.per_node
                    ),
                    num_cpus=0,
                    resources={LOADER_RESOURCE: share},
                    max_restarts=0,
                    max_task_retries=0,
                    name=None,
                ).remote(run_id, i)
                for i in range(n)
            ]
            infos = ray.get([a.describe.remote() for a in actors], timeout=180)
            # the node's address as Ray knows it (a worker's own guess is the host's first IP)
            ips = {nd["NodeID"]: nd.get("NodeManagerAddress") for nd in ray.nodes()}
            for info in infos:
                info["ip"] = ips.get(info.get("ray_node_id")) or info.get("ip")
            problems = refusals(infos, self.commit, self.jars)
            if problems:
                raise ScriptError("refused: " + "; ".join(problems))
            offsets = [self._clock(a) for a in actors]
            remote = [remote_command(c, phase_dir) for c in commands]
            for i in range(n):  # fresh files, as local clients' open(..., "wb")
                for ext in ("out", "err"):
                    (phase_dir / f"client-{i}.{ext}").write_bytes(b"")
            started = ray.get(
                [a.start.remote(args, files) for a, (args, files) in zip(actors, remote)],
                timeout=120,
            )
            statuses, ends, cpu_s = self._follow(actors, infos, phase_dir, echo_status, warmup)
            self._record(infos, offsets, started, ends, statuses)
            self._cpu = {
                "client_cpu_s": cpu_s,
                "client_wall_s": [
                    round(e - s["start"], 3) if e else None for s, e in zip(started, ends)
                ],
                "client_cores": [info.get("cores") for info in infos],
                "client_loader": [info.get("ray_node_id") for info in infos],
            }
            ray.get(
                [a.cleanup.remote() for a, st in zip(actors, statuses) if st != LOST], timeout=60
            )
            return statuses
        except BaseException:
            self._stop(actors)
            raise
        finally:
            for a in actors:
                try:
                    ray.kill(a)
                except Exception:  # already dead with its node
                    pass
            remove_placement_group(pg)

    # -- steps ------------------------------------------------------------------------------
    def _clock(self, actor) -> dict:
        """The node's clock minus this machine's, from the best of three time calls."""
        best = None
        for _ in range(3):
            t0 = time.time()
            remote = self.ray.get(actor.now.remote(), timeout=30)
            t1 = time.time()
            if best is None or t1 - t0 < best[1]:
                best = (remote - (t0 + t1) / 2, t1 - t0)
        return {"offset_s": round(best[0], 4), "rtt_s": round(best[1], 4)}

    def _follow(self, actors, infos, phase_dir: Path, echo: bool, warmup=None):
        """Polls every agent until each client ended or was lost (steps 5, 6 and 8); returns
        their exit statuses, end times (loader clock) and CPU seconds."""
        t0 = time.monotonic()
        ended, control = threading.Event(), None
        if warmup:  # judges while the polls feed it, then delivers the stop (phases/warmup.py)
            control = threading.Thread(
                target=warmup.control_until,
                args=(ended, t0, lambda: self._stop_measuring(actors)),
                daemon=True,
            )
            control.start()
        try:
            return self._poll_until_ended(actors, infos, phase_dir, echo, warmup, t0)
        finally:
            ended.set()
            if control:
                control.join(ANSWER_S + 5)

    def _poll_until_ended(self, actors, infos, phase_dir: Path, echo: bool, warmup, t0: float):
        ray = self.ray
        n = len(actors)
        statuses, ends, cpu_s = [None] * n, [None] * n, [None] * n
        partial = [b""] * n
        pending = set(range(n))
        while pending:
            tick = time.monotonic()
            refs = {actors[i].poll.remote(): i for i in sorted(pending)}
            done, late = ray.wait(list(refs), num_returns=len(refs), timeout=ANSWER_S)
            for ref in done:
                i = refs[ref]
                try:
                    answer = ray.get(ref)
                except ray.exceptions.RayError as e:
                    self._lost(
                        i, infos[i], str(e).strip().splitlines()[0] if str(e) else type(e).__name__
                    )
                    statuses[i] = LOST
                    pending.discard(i)
                    continue
                for rel, data in answer["chunks"].items():
                    path = phase_dir / rel
                    path.parent.mkdir(parents=True, exist_ok=True)
                    with open(path, "ab") as f:
                        f.write(data)
                    if rel == f"client-{i}.err" and (echo or warmup):
                        partial[i] = self._lines(
                            partial[i] + data, i, n, infos[i], t0, echo, warmup
                        )
                if answer["exit"] is not None:
                    statuses[i], ends[i] = answer["exit"], answer["end"]
                    cpu_s[i] = answer.get("cpu_s")
                    pending.discard(i)
            for ref in late:
                i = refs[ref]
                self._lost(i, infos[i], f"no answer within {ANSWER_S:.0f} s")
                statuses[i] = LOST
                pending.discard(i)
            if pending:
                time.sleep(max(0.0, POLL_S - (time.monotonic() - tick)))
        return statuses, ends, cpu_s

    def _stop_measuring(self, actors) -> None:
        """The warm-up's stop, delivered to every loader (step 6). A client lost meanwhile is
        reported by the polls, not here."""
        refs = [a.stop_measuring.remote() for a in actors]
        done, _ = self.ray.wait(refs, num_returns=len(refs), timeout=ANSWER_S)
        for ref in done:
            try:
                self.ray.get(ref)
            except self.ray.exceptions.RayError:
                pass

    def _lost(self, i: int, info: dict, why: str) -> None:
        self._failures[i] = f"client {i} on {node_name(info)} was lost mid-phase ({why})"
        print(f"ERROR {self._failures[i]}", file=sys.stderr, flush=True)

    @staticmethod
    def _lines(buf: bytes, i: int, n: int, info: dict, t0: float, echo: bool, warmup) -> bytes:
        """Feeds the complete lines in buf to the warm-up's judge (if any) and prints the
        status/ERROR/WARN ones (if `echo`; with a warm-up, the part that runs in place of
        YCSB's completion estimate, as phase_runner does); returns the incomplete rest."""
        *lines, rest = buf.split(b"\n")
        who = (
            f"client {i}@{info.get('host', '?')}/{info.get('ray_node_id', '?')[:6]}: "
            if n > 1
            else f"{info.get('host', '?')}/{info.get('ray_node_id', '?')[:6]}: "
        )
        for raw in lines:
            line = raw.decode("utf-8", "replace")
            if warmup:
                warmup.judge.feed(i, line)
            if echo and (" sec: " in line or line.startswith(("ERROR", "WARN"))):
                if warmup:
                    line = with_part(line, warmup.part())
                sys.stderr.write(f"  [{time.monotonic() - t0:5.0f} s] {who}{line}\n")
        sys.stderr.flush()
        return rest

    def _stop(self, actors) -> None:
        """Stops every client JVM (Ctrl-C, a failed step): each agent ends its process group."""
        if not actors:
            return
        refs = [a.stop.remote() for a in actors]
        try:
            self.ray.wait(refs, num_returns=len(refs), timeout=20)
        except Exception:
            pass

    def _record(self, infos, offsets, started, ends, statuses) -> None:
        clients = []
        for i, info in enumerate(infos):
            off = offsets[i]["offset_s"]
            c = {
                "client": i,
                "ray_node_id": info.get("ray_node_id"),
                "host": info.get("host"),
                "ip": info.get("ip"),
                "java_version": info.get("java_version"),
                "pack_commit": info.get("pack_commit"),
                "jars_sha256": info.get("jars_sha256"),
                "command": mask_command(started[i]["command"]),
                # loader clock times put on this machine's clock
                "start_time": _iso(started[i]["start"] - off),
                "end_time": _iso(ends[i] - off) if ends[i] else None,
                "clock_offset_s": off,
                "clock_rtt_s": offsets[i]["rtt_s"],
                "utc_offset_s": info.get("utc_offset_s"),
                "exit_status": statuses[i],
            }
            if i in self._failures:
                c["error"] = self._failures[i]
            clients.append(c)
        starts = [s["start"] - o["offset_s"] for s, o in zip(started, offsets)]
        finished = [e - o["offset_s"] for e, o in zip(ends, offsets) if e]
        self._meta = {
            "fleet": {
                "ray_address": self.address,
                "clients_per_node": self.per_node,
                "coordinator_pack_commit": self.commit,
                "coordinator_jars_sha256": self.jars,
                "start_spread_s": round(max(starts) - min(starts), 3),
                # every client ran in [latest start, earliest end]: the merged throughput's window
                "all_running": {
                    "start": _iso(max(starts)),
                    "end": _iso(min(finished)) if len(finished) == len(ends) else None,
                },
                "clients": clients,
            }
        }
