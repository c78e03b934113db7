package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.internal.core.config.typesafe.DefaultDriverConfigLoader;
import com.datastax.oss.driver.internal.core.config.typesafe.DefaultProgrammaticDriverConfigLoaderBuilder;
import com.typesafe.config.ConfigFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.Reachability;
import site.ycsb.DBException;

/**
 * The one CqlSession of a client JVM with its prepared statements. Opening it connects, checks
 * the local datacenter, creates the schema when asked, and verifies that the keyspace and table
 * exist, so every problem surfaces in init() as one sentence rather than as failed operations.
 */
final class CassandraConnection implements AutoCloseable {
  private static final String QUIET_PERIOD_PATH = "advanced.netty.io-group.shutdown.quiet-period";
  final CqlSession session;
  final CqlStatements statements;
  /** List tables (S1) checked present and readable on every live node (SchemaWait). */
  final Set<String> listTablesReady = ConcurrentHashMap.newKeySet();

  private CassandraConnection(CqlSession session, CqlStatements statements) {
    this.session = session;
    this.statements = statements;
  }

  static CassandraConnection open(CassandraSettings s) throws DBException {
    CqlSession session = connect(s);
    try {
      checkLocalDc(session, s);
      if (s.createSchema) {
        SchemaCreator.create(session, s);
      }
      checkTable(session, s);
      return new CassandraConnection(session, new CqlStatements(session, s.keyspace, s.table));
    } catch (DBException | RuntimeException e) {
      session.close();
      throw e;
    }
  }

  static CqlSession connect(CassandraSettings s) throws DBException {
    CqlSessionBuilder builder = CqlSession.builder()
        .withConfigLoader(configLoader(s).build())
        .withLocalDatacenter(s.localDc);
    for (InetSocketAddress address : s.contactPoints) {
      builder.addContactPoint(address);
    }
    if (s.username != null) {
      builder.withAuthCredentials(s.username, s.password);
    }
    if (s.ssl) {
      try {
        builder.withSslContext(SSLContext.getDefault());
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new DBException("cassandra.ssl=true but the JVM has no default SSLContext: "
            + ErrorLog.describe(e));
      }
    }
    try {
      return builder.build();
    } catch (AllNodesFailedException e) {
      String error = firstError(e);
      String where = "cannot connect to Cassandra at " + hosts(s) + " (property hosts, port "
          + s.contactPoints.get(0).getPort() + "): ";
      if (error.contains("SSL") || error.contains("ssl")) {
        throw new DBException(where + error + "; check cassandra.ssl and that the JVM trusts "
            + "the nodes' certificate (-jvm-args \"-Djavax.net.ssl.trustStore=... "
            + "-Djavax.net.ssl.trustStorePassword=...\")");
      }
      // the driver says "closed channel" for a refused connection: ask the network directly
      String unreachable = unreachable(s);
      throw new DBException(where + (unreachable != null ? unreachable : error)
          + "; check that the nodes are up and reachable from here (a local node: "
          + "scripts/cassandra-local start)");
    } catch (RuntimeException e) {
      throw new DBException("cannot open a session to Cassandra at " + hosts(s) + ": "
          + ErrorLog.describe(e));
    }
  }

  /**
   * Binding properties that the user set override the driver file ({@code cassandra.driverconfig}
   * or the driver's reference.conf); properties left unset keep the file's values, whose defaults
   * are the ones the README lists.
   */
  private static ProgrammaticDriverConfigLoaderBuilder configLoader(CassandraSettings s) {
    ProgrammaticDriverConfigLoaderBuilder b;
    if (s.driverConfig == null) {
      b = new DefaultProgrammaticDriverConfigLoaderBuilder();
    } else {
      b = new DefaultProgrammaticDriverConfigLoaderBuilder(() -> {
        ConfigFactory.invalidateCaches();
        return ConfigFactory.defaultOverrides()
            .withFallback(ConfigFactory.parseFile(s.driverConfig))
            .withFallback(ConfigFactory.defaultReference())
            .resolve();
      }, DefaultDriverConfigLoader.DEFAULT_ROOT_PATH);
    }
    if (s.values.isSet(CassandraProperties.REQUEST_TIMEOUT_MS) || s.driverConfig == null) {
      b.withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofMillis(s.requestTimeoutMs));
    }
    if (s.values.isSet(CassandraProperties.CONNECTIONS_PER_HOST) || s.driverConfig == null) {
      b.withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, s.localConnections);
      b.withInt(DefaultDriverOption.CONNECTION_POOL_REMOTE_SIZE, s.remoteConnections);
    }
    if (s.values.isSet(CassandraProperties.MAX_REQUESTS_PER_CONNECTION)
        || s.driverConfig == null) {
      b.withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, s.maxRequestsPerConnection);
    }
    if (s.values.isSet(CassandraProperties.COMPRESSION) || s.driverConfig == null) {
      b.withString(DefaultDriverOption.PROTOCOL_COMPRESSION, s.compression);
    }
    // Schema DDL from several client processes at once needs time to reach agreement.
    b.withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT,
        SchemaWait.TIMEOUT);
    // Closing the session stops the driver's event loops, which by default first wait for a
    // 2-s quiet period with no new task. YCSB closes the session in cleanup(), inside the run's
    // RunTime: every Cassandra phase took 2 s longer than its operations ([CLEANUP] ~2,000,000
    // us against HBase's few), a bias against Cassandra's [OVERALL] throughput. Nothing is
    // submitted after the last operation, so no quiet period; a driver file's own value wins.
    if (!setsInFile(s, QUIET_PERIOD_PATH)) {
      b.withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0);
      b.withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0);
    }
    return b;
  }

  /** Whether the user's driver file ({@code cassandra.driverconfig}) sets {@code path}. */
  private static boolean setsInFile(CassandraSettings s, String path) {
    return s.driverConfig != null && ConfigFactory.parseFile(s.driverConfig)
        .hasPath(DefaultDriverConfigLoader.DEFAULT_ROOT_PATH + "." + path);
  }

  private static void checkLocalDc(CqlSession session, CassandraSettings s) throws DBException {
    Set<String> dcs = new TreeSet<>();
    for (Node node : session.getMetadata().getNodes().values()) {
      if (node.getDatacenter() != null) {
        dcs.add(node.getDatacenter());
      }
    }
    if (!dcs.isEmpty() && !dcs.contains(s.localDc)) {
      throw new DBException("property " + CassandraProperties.LOCAL_DC.name() + "='" + s.localDc
          + "' matches no node of the cluster at " + hosts(s) + "; its datacenters are " + dcs);
    }
  }

  private static void checkTable(CqlSession session, CassandraSettings s) throws DBException {
    Optional<KeyspaceMetadata> ks = session.getMetadata().getKeyspace(s.keyspace);
    if (!ks.isPresent() || !ks.get().getTable(s.table).isPresent()) {
      // Created by another client process a moment ago (IF NOT EXISTS did nothing here): it
      // reaches this session's metadata only with the next debounced refresh; ask for it now.
      ks = session.refreshSchema().getKeyspace(s.keyspace);
    }
    if (!ks.isPresent()) {
      throw new DBException("keyspace '" + s.keyspace + "' does not exist at " + hosts(s)
          + ": create it, or run with -p cassandra.createschema=true (property "
          + CassandraProperties.KEYSPACE.name() + ")");
    }
    Optional<TableMetadata> table = ks.get().getTable(s.table);
    if (!table.isPresent()) {
      throw new DBException("table '" + s.keyspace + "." + s.table + "' does not exist: create "
          + "it, or run with -p cassandra.createschema=true (property table)");
    }
    if (!table.get().getColumn(CqlStatements.KEY).isPresent()) {
      throw new DBException("table '" + s.keyspace + "." + s.table + "' has no key column "
          + CqlStatements.KEY + "; it was not made for YCSB");
    }
  }

  static String hosts(CassandraSettings s) {
    StringBuilder sb = new StringBuilder();
    for (InetSocketAddress a : s.contactPoints) {
      sb.append(sb.length() == 0 ? "" : ",").append(a.getHostString()).append(':')
          .append(a.getPort());
    }
    return sb.toString();
  }

  /** Why no contact point accepts a TCP connection, or null when one does. */
  private static String unreachable(CassandraSettings s) {
    String first = null;
    for (InetSocketAddress a : s.contactPoints.subList(0, Math.min(3, s.contactPoints.size()))) {
      String problem = Reachability.problem(a.getHostString(), a.getPort(), 2000);
      if (problem == null) {
        return null;
      }
      first = first == null ? problem : first;
    }
    return first;
  }

  private static String firstError(AllNodesFailedException e) {
    for (java.util.List<Throwable> errors : e.getAllErrors().values()) {
      if (!errors.isEmpty()) {
        return ErrorLog.describe(errors.get(0));
      }
    }
    return e.getMessage();
  }

  @Override
  public void close() {
    session.close();
  }
}
