package org.ycsbpack.hbase;

import java.io.IOException;
import java.util.Map;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.probe.Samples;

/**
 * One -watch round over HBase's info servers: each node's GC time and CPU from its
 * {@code /jmx}, and a region server's flush and compaction counters too. Both the watch's own
 * JVM ({@link HBaseWatch}) and the probe that holds a connection ({@link HBaseServers}) sample
 * this way; a node the info server does not answer for is skipped for the round, with why.
 */
final class InfoServerRound {
  /** How the master's node name begins ("master host:port"); a region server's is host:port. */
  static final String MASTER = "master ";

  private InfoServerRound() {
  }

  /** One round: every node's metrics; a region server's (not the master's) Server bean too. */
  static void sample(Map<String, InfoServer> nodes, Samples out) {
    for (Map.Entry<String, InfoServer> e : nodes.entrySet()) {
      sampleNode(e.getKey(), e.getValue(), !e.getKey().startsWith(MASTER), out);
    }
  }

  private static void sampleNode(String node, InfoServer info, boolean regionServer,
                                 Samples out) {
    try {
      if (regionServer) {
        long t = System.currentTimeMillis();
        String json = info.get("/jmx?qry=" + JmxServletMetrics.SERVER_BEAN);
        for (Map.Entry<String, Double> m : JmxServletMetrics.regionServer(json).entrySet()) {
          out.add(t, node, m.getKey(), m.getValue());
        }
      }
      long t = System.currentTimeMillis();
      out.add(t, node, "gc_pause_ms_total", JmxServletMetrics.gcMillis(
          info.get("/jmx?qry=" + JmxServletMetrics.JVM_BEAN)));
      out.add(t, node, "cpu_ms_total", JmxServletMetrics.cpuMillis(
          info.get("/jmx?qry=" + JmxServletMetrics.OS_BEAN)));
    } catch (IOException | RuntimeException e) {
      out.skip(System.currentTimeMillis(), node, "jmx", info.where() + "/jmx could not be read ("
          + ErrorLog.describe(e) + "); this node's samples are missing until it can");
    }
  }
}
