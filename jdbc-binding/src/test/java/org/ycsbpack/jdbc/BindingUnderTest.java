package org.ycsbpack.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * Test support: jdbc clients on the test server, each with its own properties, all cleaned up
 * by {@link #close()}; and a plain JDBC connection to look at what the binding did.
 */
final class BindingUnderTest implements AutoCloseable {
  private final List<JdbcClient> clients = new ArrayList<>();

  /** A client initialised with the test server's URL and the given properties (key, value...). */
  JdbcClient client(String... kv) throws DBException {
    Properties p = new Properties();
    p.setProperty("db.url", LocalMariaDB.url());
    p.setProperty("db.user", "root");
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    JdbcClient c = new JdbcClient();
    c.setProperties(p);
    c.init();
    clients.add(c);
    return c;
  }

  /** A JDBC connection of the test's own, independent of the binding. */
  static Connection plain() throws SQLException {
    return DriverManager.getConnection(LocalMariaDB.url(), "root", "");
  }

  @Override
  public void close() throws DBException {
    for (JdbcClient c : clients) {
      c.cleanup();
    }
    clients.clear();
  }
}
