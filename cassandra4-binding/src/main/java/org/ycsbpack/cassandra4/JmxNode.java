package org.ycsbpack.cassandra4;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.ycsbpack.common.probe.Machine;

/**
 * One Cassandra node's JMX port (as nodetool reaches it, without authentication): the
 * bytes flushed, the compactions still to do, GC time and process CPU of the probe's watch, and
 * the cores and memory of the node's machine.
 * Connects on first use and again after a failure.
 */
final class JmxNode implements AutoCloseable {
  private static final long CONNECT_TIMEOUT_S = 5;
  private static final String METRICS = "org.apache.cassandra.metrics:";
  /**
   * Probe metric -> MBean and attribute: the bytes flushed of all tables (a gauge summing the
   * tables' counters) and the estimate of compactions still to do (nodetool compactionstats).
   */
  private static final String[][] CASSANDRA_METRICS = {
      {"flushed_bytes_total", METRICS + "type=Table,name=BytesFlushed", "Value"},
      {"pending_compactions", METRICS + "type=Compaction,name=PendingTasks", "Value"}};

  final InetSocketAddress address;
  private JMXConnector connector;
  private MBeanServerConnection mbeans;

  JmxNode(InetSocketAddress address) {
    this.address = address;
  }

  String where() {
    return "JMX " + address.getHostString() + ":" + address.getPort();
  }

  /** Every metric this node's JMX gives, read now; an IOException when it cannot be reached. */
  Map<String, Double> read() throws IOException {
    try {
      MBeanServerConnection c = connection();
      Map<String, Double> out = new LinkedHashMap<>();
      for (String[] m : CASSANDRA_METRICS) {
        out.put(m[0], number(c.getAttribute(new ObjectName(m[1]), m[2])));
      }
      double gcMs = 0;
      for (ObjectName gc : c.queryNames(new ObjectName("java.lang:type=GarbageCollector,*"),
          null)) {
        gcMs += number(c.getAttribute(gc, "CollectionTime"));
      }
      out.put("gc_pause_ms_total", gcMs);
      out.put("cpu_ms_total", number(c.getAttribute(
          new ObjectName("java.lang:type=OperatingSystem"), "ProcessCpuTime")) / 1e6);
      return out;
    } catch (JMException e) {
      throw new IOException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      close();
      throw e instanceof IOException ? (IOException) e : new IOException(e.toString(), e);
    }
  }

  /**
   * The cores and memory of the node's machine as its JVM sees them; an IOException when JMX
   * cannot be reached, an IllegalArgumentException when the OperatingSystem bean lacks them.
   */
  Machine machine() throws IOException {
    try {
      Map<String, Object> attributes = new HashMap<>();
      for (Attribute a : connection().getAttributes(new ObjectName(Machine.OS_BEAN),
          Machine.ATTRIBUTES).asList()) {
        attributes.put(a.getName(), a.getValue());
      }
      return Machine.of(attributes);
    } catch (JMException e) {
      throw new IllegalArgumentException(e.getClass().getSimpleName() + ": " + e.getMessage(),
          e);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      close();
      throw e instanceof IOException ? (IOException) e : new IOException(e.toString(), e);
    }
  }

  private static double number(Object value) throws IOException {
    if (value instanceof Number) {
      return ((Number) value).doubleValue();
    }
    throw new IOException("a JMX attribute is not a number: " + value);
  }

  private synchronized MBeanServerConnection connection() throws IOException {
    if (mbeans != null) {
      return mbeans;
    }
    JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://"
        + address.getHostString() + ":" + address.getPort() + "/jmxrmi");
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "serverprobe-jmx-connect");
      t.setDaemon(true);
      return t;
    });
    try {
      Future<JMXConnector> attempt = executor.submit(() -> JMXConnectorFactory.connect(url));
      connector = attempt.get(CONNECT_TIMEOUT_S, TimeUnit.SECONDS);
      mbeans = connector.getMBeanServerConnection();
      return mbeans;
    } catch (TimeoutException e) {
      throw new IOException("no answer within " + CONNECT_TIMEOUT_S + " s");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      Throwable root = cause;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      throw new IOException(root.getClass().getSimpleName() + ": " + root.getMessage(), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while connecting");
    } finally {
      executor.shutdownNow();
    }
  }

  @Override
  public synchronized void close() {
    if (connector != null) {
      try {
        connector.close();
      } catch (IOException e) {
        // a broken connection is dropped all the same
      }
    }
    connector = null;
    mbeans = null;
  }
}
