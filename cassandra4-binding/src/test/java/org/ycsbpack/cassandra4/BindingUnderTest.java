package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.CqlSession;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * Test support: cassandra4 clients on the test node, each with its own properties, all cleaned
 * up by {@link #close()}; and a plain driver session to look at what the binding did.
 */
final class BindingUnderTest implements AutoCloseable {
  private final List<Cassandra4Client> clients = new ArrayList<>();

  /** A client initialised with the test node's hosts and the given properties (key, value...). */
  Cassandra4Client client(String... kv) throws DBException {
    Properties p = new Properties();
    p.setProperty("hosts", LocalCassandra.hosts());
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    Cassandra4Client c = new Cassandra4Client();
    c.setProperties(p);
    c.init();
    clients.add(c);
    return c;
  }

  /** A driver session of the test's own, independent of the binding. */
  static CqlSession session() {
    String host = LocalCassandra.hosts().split(",")[0];
    return CqlSession.builder().addContactPoint(new InetSocketAddress(host, 9042))
        .withLocalDatacenter("datacenter1").build();
  }

  @Override
  public void close() throws DBException {
    for (Cassandra4Client c : clients) {
      c.cleanup();
    }
    clients.clear();
  }
}
