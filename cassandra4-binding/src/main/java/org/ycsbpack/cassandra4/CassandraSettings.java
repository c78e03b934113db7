package org.ycsbpack.cassandra4;

import static org.ycsbpack.cassandra4.CassandraProperties.BATCH_READ;
import static org.ycsbpack.cassandra4.CassandraProperties.BATCH_WRITE;
import static org.ycsbpack.cassandra4.CassandraProperties.COMPRESSION;
import static org.ycsbpack.cassandra4.CassandraProperties.CONNECTIONS_PER_HOST;
import static org.ycsbpack.cassandra4.CassandraProperties.CREATE_SCHEMA;
import static org.ycsbpack.cassandra4.CassandraProperties.DRIVER_CONFIG;
import static org.ycsbpack.cassandra4.CassandraProperties.FIELD_COUNT;
import static org.ycsbpack.cassandra4.CassandraProperties.FIELD_PREFIX;
import static org.ycsbpack.cassandra4.CassandraProperties.HOSTS;
import static org.ycsbpack.cassandra4.CassandraProperties.KEYSPACE;
import static org.ycsbpack.cassandra4.CassandraProperties.LOCAL_DC;
import static org.ycsbpack.cassandra4.CassandraProperties.MAX_REQUESTS_PER_CONNECTION;
import static org.ycsbpack.cassandra4.CassandraProperties.PASSWORD;
import static org.ycsbpack.cassandra4.CassandraProperties.PORT;
import static org.ycsbpack.cassandra4.CassandraProperties.READ_CL;
import static org.ycsbpack.cassandra4.CassandraProperties.REPLICATION;
import static org.ycsbpack.cassandra4.CassandraProperties.REQUEST_TIMEOUT_MS;
import static org.ycsbpack.cassandra4.CassandraProperties.SCAN_CL;
import static org.ycsbpack.cassandra4.CassandraProperties.SCAN_PAGE_SIZE;
import static org.ycsbpack.cassandra4.CassandraProperties.SSL;
import static org.ycsbpack.cassandra4.CassandraProperties.TABLE;
import static org.ycsbpack.cassandra4.CassandraProperties.USERNAME;
import static org.ycsbpack.cassandra4.CassandraProperties.WRITE_CL;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.io.File;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Properties;
import org.ycsbpack.common.PropertyValues;
import org.ycsbpack.common.SessionKey;
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
  final BatchReadMode batchRead;
  final BatchWriteMode batchWrite;

  CassandraSettings(Properties props) throws DBException {
    values = new PropertyValues(props);
    values.requireNotBlank(HOSTS, "10.0.0.1,10.0.0.2");
    values.requireNotBlank(PORT, "9042");
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
    batchRead = values.word(BATCH_READ, BatchReadMode.class);
    batchWrite = values.word(BATCH_WRITE, BatchWriteMode.class);
  }

  /**
   * Identifies the session this client may share: every property but the per-client ones
   * (consistency levels, scan page size, batch modes), which each client applies itself.
   */
  String connectionKey() {
    return SessionKey.of(CassandraProperties.ALL, values);
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
