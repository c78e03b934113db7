package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import java.io.IOException;
import java.util.Map;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.probe.Samples;

/**
 * One round of one Cassandra node's samples, each query run on that node: flushes (completed
 * tasks of the MemtableFlushWriter pool, {@code system_views.thread_pools}), compactions and
 * their input bytes ({@code system.compaction_history}, a row per finished compaction) and,
 * when the node's JMX is given, bytes flushed, the estimate of compactions to do, GC time and
 * process CPU (without JMX, pending_compactions is the CompactionExecutor pool's queue).
 */
final class NodeSamples {
  private static final String THREAD_POOLS = "SELECT name, completed_tasks, pending_tasks "
      + "FROM system_views.thread_pools";

  private static final String COMPACTIONS = "SELECT count(*) AS n, sum(bytes_in) AS bytes "
      + "FROM system.compaction_history";

  private NodeSamples() {
  }

  static void read(CqlSession session, Node node, String name, JmxNode jmx, Samples out) {
    try {
      long t = System.currentTimeMillis();
      for (Row row : session.execute(SimpleStatement.newInstance(THREAD_POOLS).setNode(node))) {
        String pool = row.getString("name");
        if ("MemtableFlushWriter".equals(pool)) {
          out.add(t, name, "flushes_total", row.getLong("completed_tasks"));
        } else if ("CompactionExecutor".equals(pool) && jmx == null) {
          out.add(t, name, "pending_compactions", row.getInt("pending_tasks"));
        }
      }
    } catch (RuntimeException e) {
      out.skip(System.currentTimeMillis(), name, "thread_pools", "system_views.thread_pools "
          + "could not be read (" + ErrorLog.describe(e) + "); flushes_total is missing until "
          + "it can");
    }
    try {
      long t = System.currentTimeMillis();
      Row row = session.execute(SimpleStatement.newInstance(COMPACTIONS).setNode(node)).one();
      if (row != null) {
        out.add(t, name, "compactions_total", row.getLong("n"));
        out.add(t, name, "compacted_bytes_total", row.isNull("bytes") ? 0 : row.getLong("bytes"));
      }
    } catch (RuntimeException e) {
      out.skip(System.currentTimeMillis(), name, "compaction_history", "system.compaction_"
          + "history could not be read (" + ErrorLog.describe(e) + "); compactions_total and "
          + "compacted_bytes_total are missing until it can");
    }
    if (jmx == null) {
      return;
    }
    try {
      long t = System.currentTimeMillis();
      for (Map.Entry<String, Double> m : jmx.read().entrySet()) {
        out.add(t, name, m.getKey(), m.getValue());
      }
    } catch (IOException e) {
      out.skip(System.currentTimeMillis(), name, "jmx", jmx.where() + " could not be read ("
          + e.getMessage() + "); flushed_bytes_total, GC and CPU are missing until it can");
    }
  }
}
