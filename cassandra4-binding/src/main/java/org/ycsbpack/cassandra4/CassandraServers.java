package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.probe.HostPorts;
import org.ycsbpack.common.probe.Samples;
import org.ycsbpack.common.probe.ServerFacts;
import org.ycsbpack.common.probe.ServerSource;
import site.ycsb.DBException;

/**
 * The Cassandra nodes as the cassandra4 binding reaches them (same properties, same session
 * settings): each node's {@code release_version}, with {@code serverprobe.jmx} each node's
 * machine (cores, memory), one node's {@code system_views.settings}, the binding's keyspace and
 * table as the driver describes them, and, under -watch, each node's
 * flushes and compactions over CQL plus, with {@code serverprobe.jmx}, bytes flushed, GC time
 * and CPU from JMX ({@link NodeSamples}).
 */
final class CassandraServers implements ServerSource {
  /** JMX address of each node, host:port, in the nodes' order (by address). */
  static final String JMX_PROPERTY = "serverprobe.jmx";

  private final CassandraSettings settings;
  private final CqlSession session;
  private final List<Node> nodes;
  private final List<JmxNode> jmx;

  private CassandraServers(CassandraSettings settings, CqlSession session, List<Node> nodes,
                           List<JmxNode> jmx) {
    this.settings = settings;
    this.session = session;
    this.nodes = nodes;
    this.jmx = jmx;
  }

  static CassandraServers open(Properties props) throws DBException {
    CassandraSettings s = new CassandraSettings(props);
    List<InetSocketAddress> jmxAddresses;
    try {
      jmxAddresses = HostPorts.parse(JMX_PROPERTY, props.getProperty(JMX_PROPERTY));
    } catch (IllegalArgumentException e) {
      throw new DBException(e.getMessage());
    }
    CqlSession session = CassandraConnection.connect(s);
    List<Node> nodes = new ArrayList<>(session.getMetadata().getNodes().values());
    nodes.sort(Comparator.comparing(CassandraServers::sortKey));
    List<JmxNode> jmx = new ArrayList<>();
    for (InetSocketAddress a : jmxAddresses) {
      jmx.add(new JmxNode(a));
    }
    return new CassandraServers(s, session, nodes, jmx);
  }

  /** A node's name in the output: its CQL address. */
  static String name(Node node) {
    SocketAddress a = node.getBroadcastRpcAddress().isPresent()
        ? node.getBroadcastRpcAddress().get() : node.getEndPoint().resolve();
    if (a instanceof InetSocketAddress) {
      InetSocketAddress i = (InetSocketAddress) a;
      return i.getAddress() != null ? i.getAddress().getHostAddress() : i.getHostString();
    }
    return String.valueOf(a);
  }

  /** Orders 127.0.0.2 before 127.0.0.10. */
  private static String sortKey(Node node) {
    StringBuilder sb = new StringBuilder();
    for (String part : name(node).split("[.:]")) {
      sb.append(String.format("%8s", part)).append('.');
    }
    return sb.toString();
  }

  @Override
  public ServerFacts facts(boolean watching) {
    ServerFacts facts = new ServerFacts("cassandra").notSecret("token");
    for (Node node : nodes) {
      try {
        Row row = session.execute(SimpleStatement.newInstance(
            "SELECT release_version FROM system.local").setNode(node)).one();
        facts.nodeVersion(name(node), row == null ? "" : row.getString("release_version"));
      } catch (RuntimeException e) {
        facts.skip("node " + name(node) + ": release_version could not be read ("
            + ErrorLog.describe(e) + ")");
      }
    }
    Map<Integer, String> jmxFailed = readMachines(facts);
    readSettings(facts);
    facts.schema(schema(facts));
    if (watching) {
      noteWatchSources(facts, jmxFailed);
    }
    return facts;
  }

  /**
   * Each node's machine over its JMX; returns, by node index, why a node's JMX could not be
   * read (the watch's note says it without waiting on the node again).
   */
  private Map<Integer, String> readMachines(ServerFacts facts) {
    Map<Integer, String> failed = new HashMap<>();
    if (jmx.isEmpty()) {
      facts.skip("machines: the cores and memory of the nodes' machines need JMX (-p "
          + JMX_PROPERTY + "=host:port,... one per node, in the nodes' order)");
      return failed;
    }
    for (int i = 0; i < nodes.size(); i++) {
      if (i >= jmx.size()) {
        facts.skip("node " + name(nodes.get(i)) + ": its machine's cores and memory are not "
            + "read (" + JMX_PROPERTY + " gives no JMX address for it)");
        continue;
      }
      try {
        facts.machine(name(nodes.get(i)), jmx.get(i).machine());
      } catch (java.io.IOException | RuntimeException e) {
        if (e instanceof java.io.IOException) {
          failed.put(i, e.getMessage());
        }
        facts.skip("node " + name(nodes.get(i)) + ": its machine's cores and memory could not "
            + "be read from " + jmx.get(i).where() + " (" + e.getMessage() + ")");
      }
    }
    return failed;
  }

  private void readSettings(ServerFacts facts) {
    for (Node node : nodes) {
      try {
        for (Row row : session.execute(SimpleStatement.newInstance(
            "SELECT name, value FROM system_views.settings").setNode(node))) {
          facts.setting(row.getString("name"), row.getString("value"));
        }
        facts.settingsSource("system_views.settings of node " + name(node) + ", all "
            + facts.settingCount() + " rows (Cassandra does not mark which differ from its "
            + "defaults; the other nodes were not read)");
        return;
      } catch (RuntimeException e) {
        facts.skip("node " + name(node) + ": system_views.settings could not be read ("
            + ErrorLog.describe(e) + ")");
      }
    }
    facts.settingsSource("none: no node answered for system_views.settings");
  }

  private String schema(ServerFacts facts) {
    Optional<KeyspaceMetadata> ks = session.refreshSchema().getKeyspace(settings.keyspace);
    if (!ks.isPresent()) {
      facts.skip("schema: keyspace " + settings.keyspace + " does not exist yet (a load with "
          + "cassandra.createschema=true creates it)");
      return "";
    }
    Optional<TableMetadata> table = ks.get().getTable(settings.table);
    if (!table.isPresent()) {
      facts.skip("schema: table " + settings.keyspace + "." + settings.table + " does not "
          + "exist yet (a load with cassandra.createschema=true creates it)");
      return ks.get().describe(true);
    }
    return ks.get().describe(true) + "\n\n" + table.get().describe(true);
  }

  private void noteWatchSources(ServerFacts facts, Map<Integer, String> jmxFailed) {
    if (jmx.isEmpty()) {
      facts.skip("flushed_bytes_total, gc_pause_ms_total and cpu_ms_total: Cassandra 5.0 "
          + "has no virtual table for them (no system_metrics keyspace) and no JMX address "
          + "was given (-p " + JMX_PROPERTY + "=host:port,... one per node, in the nodes' "
          + "order); pending_compactions is the CompactionExecutor queue instead of JMX's "
          + "estimate");
      return;
    }
    if (jmx.size() != nodes.size()) {
      facts.skip(JMX_PROPERTY + " gives " + jmx.size() + " JMX address(es) for " + nodes.size()
          + " node(s): the first " + Math.min(jmx.size(), nodes.size()) + " node(s) by "
          + "address get them in order, the others are sampled without JMX");
    }
    for (int i = 0; i < Math.min(jmx.size(), nodes.size()); i++) {
      String error = jmxFailed.get(i);
      if (error == null) {
        try {
          jmx.get(i).read();
        } catch (java.io.IOException e) {
          error = e.getMessage();
        }
      }
      if (error != null) {
        facts.skip("node " + name(nodes.get(i)) + ": " + jmx.get(i).where() + " could not be "
            + "read (" + error + "): its bytes flushed, GC and CPU are skipped until it can");
      }
    }
  }

  @Override
  public void sample(Samples out) {
    for (int i = 0; i < nodes.size(); i++) {
      NodeSamples.read(session, nodes.get(i), name(nodes.get(i)),
          i < jmx.size() ? jmx.get(i) : null, out);
    }
  }

  @Override
  public void close() {
    for (JmxNode j : jmx) {
      j.close();
    }
    session.close();
  }
}
