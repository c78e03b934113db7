package org.ycsbpack.hbase;

import java.io.IOException;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.probe.Samples;
import org.ycsbpack.common.probe.ServerFacts;
import org.ycsbpack.common.probe.ServerSource;
import site.ycsb.DBException;

/**
 * The HBase cluster as the hbase-salted binding reaches it (same properties, same connection):
 * the cluster's and each region server's version, the machine (cores, memory) of each region
 * server and of the master (their info servers' {@code /jmx}), the binding's table descriptor,
 * the master's
 * configuration where it differs from the defaults (its info server's {@code /conf}), and, under
 * -watch, each region server's flush and compaction counters, GC time and CPU from its info
 * server's {@code /jmx} (and the master's GC and CPU when it is a JVM of its own).
 */
final class HBaseServers implements ServerSource {
  /** What ServerMetrics.getVersion() says when the region server's version did not reach it. */
  private static final String UNKNOWN_VERSION = "0.0.0";

  private final HBaseSettings settings;
  private final HBaseConnection connection;
  private final ClusterMetrics cluster;
  /** Node name -> info server; null when the node has none. */
  private final Map<String, InfoServer> regionServers = new LinkedHashMap<>();
  private final String masterName;
  private final InfoServer master;
  /** Set by facts(true): the master is a region server's JVM, whose GC and CPU count once. */
  private boolean masterSharesJvm;

  private HBaseServers(HBaseSettings settings, HBaseConnection connection,
                       ClusterMetrics cluster) {
    this.settings = settings;
    this.connection = connection;
    this.cluster = cluster;
    for (Map.Entry<ServerName, ServerMetrics> e : cluster.getLiveServerMetrics().entrySet()) {
      int port = e.getValue().getInfoServerPort();
      regionServers.put(name(e.getKey()), port > 0
          ? new InfoServer(e.getKey().getHostname(), port) : null);
    }
    ServerName m = cluster.getMasterName();
    masterName = m == null ? InfoServerRound.MASTER.strip()
        : InfoServerRound.MASTER + name(m);
    master = m != null && cluster.getMasterInfoPort() > 0
        ? new InfoServer(m.getHostname(), cluster.getMasterInfoPort()) : null;
  }

  static HBaseServers open(Properties props) throws DBException {
    HBaseSettings s = new HBaseSettings(props);
    HBaseConnection c = HBaseConnection.open(s);
    try (Admin admin = c.connection.getAdmin()) {
      ClusterMetrics metrics = admin.getClusterMetrics(EnumSet.of(
          ClusterMetrics.Option.HBASE_VERSION, ClusterMetrics.Option.LIVE_SERVERS,
          ClusterMetrics.Option.MASTER, ClusterMetrics.Option.MASTER_INFO_PORT));
      return new HBaseServers(s, c, metrics);
    } catch (IOException | RuntimeException e) {
      closeQuietly(c);
      throw new DBException("cannot read the cluster's status at " + HBaseConnection.where(
          HBaseConnection.configuration(s)) + ": " + ErrorLog.describe(e));
    }
  }

  private static String name(ServerName s) {
    return s.getHostname() + ":" + s.getPort();
  }

  @Override
  public ServerFacts facts(boolean watching) {
    ServerFacts facts = new ServerFacts("hbase");
    facts.clusterVersion(cluster.getHBaseVersion());
    for (Map.Entry<ServerName, ServerMetrics> e : cluster.getLiveServerMetrics().entrySet()) {
      String version = e.getValue().getVersion();
      if (version == null || version.isEmpty() || UNKNOWN_VERSION.equals(version)) {
        facts.nodeVersion(name(e.getKey()), "unknown");
        facts.skip("region server " + name(e.getKey()) + ": the master's metrics carry no "
            + "version for it (\"" + version + "\", as for the region server of a standalone "
            + "HBase)");
      } else {
        facts.nodeVersion(name(e.getKey()), version);
      }
    }
    readMachines(facts);
    readSettings(facts);
    readSchema(facts);
    if (watching) {
      noteWatchSources(facts);
      sampled().forEach((node, info) -> facts.sampledFrom(node, info.where()));
    }
    return facts;
  }

  private void readSchema(ServerFacts facts) {
    try (Admin admin = connection.connection.getAdmin()) {
      if (admin.tableExists(settings.table)) {
        facts.schema(admin.getDescriptor(settings.table).toString());
      } else {
        facts.skip("schema: table " + settings.table + " does not exist yet (a load with "
            + "hbase.createtable=true creates it)");
      }
    } catch (IOException | RuntimeException e) {
      facts.skip("schema: the descriptor of table " + settings.table + " could not be read ("
          + ErrorLog.describe(e) + ")");
    }
  }

  private void readMachines(ServerFacts facts) {
    for (Map.Entry<String, InfoServer> e : regionServers.entrySet()) {
      if (e.getValue() == null) {
        facts.skip("region server " + e.getKey() + " has no info server "
            + "(hbase.regionserver.info.port=-1): its machine's cores and memory are not read");
      } else {
        readMachine(facts, "region server " + e.getKey(), e.getKey(), e.getValue());
      }
    }
    if (master == null) {
      facts.skip(masterName + " has no info server: its machine's cores and memory are not "
          + "read");
    } else {
      readMachine(facts, masterName, masterName, master);
    }
  }

  private static void readMachine(ServerFacts facts, String what, String node, InfoServer info) {
    try {
      facts.machine(node, JmxServletMetrics.machine(info.get("/jmx?qry="
          + JmxServletMetrics.OS_BEAN)));
    } catch (IOException | RuntimeException x) {
      facts.skip(what + ": its machine's cores and memory could not be read from "
          + info.where() + "/jmx (" + ErrorLog.describe(x) + ")");
    }
  }

  private void readSettings(ServerFacts facts) {
    if (master == null) {
      facts.settingsSource("none: the master has no info server");
      facts.skip("settings: the master " + masterName + " has no info server (info port "
          + cluster.getMasterInfoPort() + "; hbase.master.info.port=-1 turns it off), so its "
          + "configuration (/conf) cannot be read");
      return;
    }
    try {
      Map<String, String> conf = ConfSettings.nonDefault(master.get("/conf?format=json"));
      for (Map.Entry<String, String> e : conf.entrySet()) {
        facts.setting(e.getKey(), e.getValue());
      }
      facts.settingsSource("the master's configuration as its info server serves it ("
          + master.where() + "/conf?format=json), only the " + conf.size() + " properties "
          + "whose source is not a *-default.xml");
    } catch (IOException | RuntimeException e) {
      facts.settingsSource("none: the master's info server did not answer");
      facts.skip("settings: the master's configuration could not be read from " + master.where()
          + "/conf (" + ErrorLog.describe(e) + ")");
    }
  }

  private void noteWatchSources(ServerFacts facts) {
    Set<String> regionServerJvms = new HashSet<>();
    for (Map.Entry<String, InfoServer> e : regionServers.entrySet()) {
      if (e.getValue() == null) {
        facts.skip("region server " + e.getKey() + " has no info server "
            + "(hbase.regionserver.info.port=-1): its flushes, compactions, GC and CPU are "
            + "not sampled");
        continue;
      }
      try {
        regionServerJvms.add(JmxServletMetrics.jvmName(e.getValue().get(
            "/jmx?qry=" + JmxServletMetrics.RUNTIME_BEAN)));
      } catch (IOException | RuntimeException x) {
        facts.skip("region server " + e.getKey() + ": " + e.getValue().where() + "/jmx did not "
            + "answer (" + ErrorLog.describe(x) + "); it is sampled when it does");
      }
    }
    if (master == null) {
      facts.skip(masterName + " has no info server: its GC and CPU are not sampled");
      return;
    }
    try {
      if (regionServerJvms.contains(JmxServletMetrics.jvmName(master.get(
          "/jmx?qry=" + JmxServletMetrics.RUNTIME_BEAN)))) {
        masterSharesJvm = true;
        facts.skip(masterName + " runs in a region server's JVM (standalone HBase): its GC and "
            + "CPU are that region server's, so they are not sampled twice");
      }
    } catch (IOException | RuntimeException x) {
      facts.skip(masterName + ": " + master.where() + "/jmx did not answer ("
          + ErrorLog.describe(x) + "); its GC and CPU are sampled when it does");
    }
  }

  /** The nodes a round samples: the region servers with an info server, and the master when
   * it is a JVM of its own (known once facts(true) have been read). */
  private Map<String, InfoServer> sampled() {
    Map<String, InfoServer> nodes = new LinkedHashMap<>();
    regionServers.forEach((node, info) -> {
      if (info != null) {
        nodes.put(node, info);
      }
    });
    if (master != null && !masterSharesJvm) {
      nodes.put(masterName, master);
    }
    return nodes;
  }

  @Override
  public void sample(Samples out) {
    InfoServerRound.sample(sampled(), out);
  }

  private static void closeQuietly(HBaseConnection c) {
    try {
      c.close();
    } catch (IOException | RuntimeException e) {
      // already failing with a better message
    }
  }

  @Override
  public void close() {
    closeQuietly(connection);
  }
}
