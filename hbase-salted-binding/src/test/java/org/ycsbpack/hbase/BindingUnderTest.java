package org.ycsbpack.hbase;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import site.ycsb.DBException;

/**
 * Test support: hbase-salted clients on the test HBase, each with its own properties, all
 * cleaned up by {@link #close()} (which flushes buffered writes). Threads may create and clean
 * up clients at once (BufferedWritesIT does, as YCSB's threads do), so the list is thread-safe.
 */
final class BindingUnderTest implements AutoCloseable {
  private final List<HBaseSaltedClient> clients = new CopyOnWriteArrayList<>();

  /** A client initialised with the test HBase's address and the given properties (k, v...). */
  HBaseSaltedClient client(String... kv) throws DBException {
    HBaseSaltedClient c = new HBaseSaltedClient();
    c.setProperties(properties(kv));
    c.init();
    clients.add(c);
    return c;
  }

  static Properties properties(String... kv) {
    Properties p = new Properties();
    LocalHBase.connectionProperties().forEach(p::setProperty);
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  /** Cleans up one client now (as YCSB does at the end of its thread). */
  void cleanup(HBaseSaltedClient c) throws DBException {
    clients.remove(c);
    c.cleanup();
  }

  @Override
  public void close() throws DBException {
    DBException first = null;
    for (HBaseSaltedClient c : clients) {
      try {
        c.cleanup();
      } catch (DBException e) {
        first = first == null ? e : first;
      }
    }
    clients.clear();
    if (first != null) {
      throw first;
    }
  }
}
