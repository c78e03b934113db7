package org.ycsbpack.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The raw java-driver loop: one CqlSession, a prepared SELECT * and one prepared UPDATE per
 * field, consistency ONE, and the cassandra4 binding's default driver settings (2 s request
 * timeout, one connection per node, 1024 requests per connection, no compression).
 */
final class RawCassandra implements RawClient {
  private final CqlSession session;
  private final PreparedStatement read;
  private final PreparedStatement[] updates;

  RawCassandra(String host, int port, String keyspace, String table, int fieldCount) {
    DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofMillis(2000))
        .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, 1)
        .withInt(DefaultDriverOption.CONNECTION_POOL_REMOTE_SIZE, 1)
        .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, 1024)
        .withString(DefaultDriverOption.PROTOCOL_COMPRESSION, "none")
        .build();
    session = CqlSession.builder().withConfigLoader(config)
        .addContactPoint(new InetSocketAddress(host, port))
        .withLocalDatacenter("datacenter1").build();
    String t = keyspace + "." + table;
    read = session.prepare("SELECT * FROM " + t + " WHERE y_id = ?");
    updates = new PreparedStatement[fieldCount];
    for (int i = 0; i < fieldCount; i++) {
      updates[i] = session.prepare("UPDATE " + t + " SET field" + i + " = ? WHERE y_id = ?");
    }
  }

  @Override
  public boolean read(String key) {
    Row row = session.execute(read.bind(key)
        .setConsistencyLevel(DefaultConsistencyLevel.ONE)).one();
    if (row == null) {
      return false;
    }
    int n = row.getColumnDefinitions().size();
    for (int i = 0; i < n; i++) {
      String v = row.getString(i);
      if (v != null) {
        v.getBytes(StandardCharsets.ISO_8859_1);
      }
    }
    return true;
  }

  @Override
  public void update(String key, int field, byte[] value) {
    session.execute(updates[field].bind(new String(value, StandardCharsets.ISO_8859_1), key)
        .setConsistencyLevel(DefaultConsistencyLevel.ONE));
  }

  @Override
  public RawClient forThread() {
    return this;
  }

  @Override
  public void close() {
    session.close();
  }
}
