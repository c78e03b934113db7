package org.ycsbpack.cassandra4;

import static org.ycsbpack.cassandra4.CassandraProperties.*;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.io.File;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Properties;
import org.ycsbpack.common.PropertyValues;
import site.ycsb.DBException;

/**
 * The binding's properties, parsed and validated once: a bad value fails init() with a sentence
 * naming the property, before any connection is made.
 */
final class CassandraSettings {
  final PropertyValues values;
  final List<InetSocketAddress> contactPoints;
  final String localDc;
  final String keyspace;
  final String table;
  final String username;
  final String password;
  final ConsistencyLevel readCl;
  final ConsistencyLevel writeCl;
  final ConsistencyLevel scanCl;
  final int scanPageSize;
  final boolean createSchema;
  final Replication replication;
  final TableOptions tableOptions;
  final int fieldCount;
  final String fieldPrefix;
  final boolean ssl;
  final File driverConfig;
  final int requestTimeoutMs;
  final int localConnections;
  final int remoteConnections;
  final int maxRequestsPerConnection;
  final String compression;
  final String batchRead;
  final String batchWrite;

  CassandraSettings(Properties props) throws DBException {
    values = new PropertyValues(props);
    int port = values.integer(PORT, 1, 65535);
    contactPoints = ContactPoints.parse(values.list(HOSTS), port);
    localDc = values.string(LOCAL_DC);
    keyspace = identifier(KEYSPACE.name(), values.string(KEYSPACE));
    table = identifier(TABLE.name(), values.string(TABLE));
    username = values.string(USERNAME);
    password = values.string(PASSWORD);
    if (username != null && password == null) {
      throw new DBException("property " + USERNAME.name() + " is set but "
          + PASSWORD.name() + " is not: give both or neither");
    }
    readCl = values.enumValue(READ_CL, DefaultConsistencyLevel.class);
    writeCl = values.enumValue(WRITE_CL, DefaultConsistencyLevel.class);
    scanCl = values.enumValue(SCAN_CL, DefaultConsistencyLevel.class);
    scanPageSize = values.integer(SCAN_PAGE_SIZE, 1, 1_000_000);
    createSchema = values.bool(CREATE_SCHEMA);
    replication = Replication.parse(values.string(REPLICATION));
    tableOptions = TableOptions.from(values);
    fieldCount = values.integer(FIELD_COUNT, 1, 10_000);
    fieldPrefix = identifier(FIELD_PREFIX.name(), values.string(FIELD_PREFIX));
    ssl = values.bool(SSL);
    String conf = values.string(DRIVER_CONFIG);
    driverConfig = conf == null ? null : new File(conf);
    if (driverConfig != null && !driverConfig.isFile()) {
      throw new DBException("property " + DRIVER_CONFIG.name() + "='" + conf
          + "': no such file; give the path of a java-driver application.conf");
    }
    requestTimeoutMs = values.integer(REQUEST_TIMEOUT_MS, 1, 3_600_000);
    int[] pools = pools(values.list(CONNECTIONS_PER_HOST));
    localConnections = pools[0];
    remoteConnections = pools[1];
    maxRequestsPerConnection = values.integer(MAX_REQUESTS_PER_CONNECTION, 1, 32_768);
    compression = values.choice(COMPRESSION, "none", "lz4");
    batchRead = values.choice(BATCH_READ, "in", "async");
    batchWrite = values.choice(BATCH_WRITE, "unlogged", "logged", "async");
  }

  /**
   * Identifies the session this client may share: every property except the per-operation ones
   * (consistency levels, scan page size, batch modes), which each client applies itself.
   */
  String connectionKey() {
    StringBuilder sb = new StringBuilder();
    for (org.ycsbpack.common.BindingProperty p : CassandraProperties.ALL) {
      if (p != READ_CL && p != WRITE_CL && p != SCAN_CL && p != SCAN_PAGE_SIZE
          && p != BATCH_READ && p != BATCH_WRITE) {
        sb.append(p.name()).append('=').append(values.string(p)).append('\n');
      }
    }
    return sb.toString();
  }

  private int[] pools(List<String> parts) throws DBException {
    String raw = values.string(CONNECTIONS_PER_HOST);
    try {
      if (parts.size() == 1) {
        int n = Integer.parseInt(parts.get(0));
        if (n >= 1 && n <= 1024) {
          return new int[] {n, n};
        }
      } else if (parts.size() == 2) {
        int local = Integer.parseInt(parts.get(0));
        int remote = Integer.parseInt(parts.get(1));
        if (local >= 1 && local <= 1024 && remote >= 0 && remote <= 1024) {
          return new int[] {local, remote};
        }
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw PropertyValues.bad(CONNECTIONS_PER_HOST, raw,
        "local,remote connection counts (local 1-1024, remote 0-1024), or one number for both");
  }

  /** CQL identifiers are spliced into statements, so only plain names are accepted. */
  private static String identifier(String property, String name) throws DBException {
    if (name == null || !name.matches("[A-Za-z][A-Za-z0-9_]{0,47}")) {
      throw new DBException("property " + property + "='" + name + "' is not a valid CQL name: "
          + "use letters, digits and _ starting with a letter");
    }
    return name;
  }
}
