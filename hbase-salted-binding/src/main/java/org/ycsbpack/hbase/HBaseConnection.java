package org.ycsbpack.hbase;

import static org.ycsbpack.hbase.HBaseClientSettings.isClientSetting;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.ycsbpack.common.Deadline;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.Reachability;
import org.ycsbpack.common.UnknownProperties;
import site.ycsb.DBException;

/**
 * The one HBase {@link Connection} of a client JVM, opened with the first client's cluster
 * settings. Opening it connects within {@code hbase.connecttimeoutms}; {@link #prepareTable}
 * creates the table when asked and verifies that it exists, is enabled and has the column
 * family, so every problem surfaces in init() as one sentence rather than as failed operations.
 */
final class HBaseConnection implements AutoCloseable {
  /** How long a table being created (ENABLING) by another client is waited for. */
  static final Duration ENABLING_WAIT = Duration.ofSeconds(60);
  private static final Duration ENABLING_POLL = Duration.ofMillis(200);

  static final String RPC_REGISTRY = "org.apache.hadoop.hbase.client.RpcConnectionRegistry";

  final Connection connection;
  private final Configuration conf;
  private final Set<TableName> preparedTables = new HashSet<>();

  private HBaseConnection(Connection connection, Configuration conf) {
    this.connection = connection;
    this.conf = conf;
  }

  static HBaseConnection open(HBaseSettings s) throws DBException {
    Configuration conf = configuration(s);
    warnAboutUnknownSettings(s, conf);
    s.rpcEventLoop.applyTo(conf);
    for (String host : zooKeeperHosts(conf)) {
      String unresolved = Reachability.unresolved(host, HBaseProperties.ZK_QUORUM.name());
      if (unresolved != null) {
        throw new DBException(unresolved);
      }
    }
    return new HBaseConnection(connect(s, conf), conf);
  }

  /** The ZooKeeper host names of the quorum, or none when the RPC registry is used. */
  static List<String> zooKeeperHosts(Configuration conf) {
    List<String> hosts = new ArrayList<>();
    if (RPC_REGISTRY.equals(conf.get(HConstants.CLIENT_CONNECTION_REGISTRY_IMPL_CONF_KEY))) {
      return hosts;
    }
    for (String h : conf.getTrimmedStrings(HConstants.ZOOKEEPER_QUORUM)) {
      int colon = h.indexOf(':');
      hosts.add(colon > 0 && colon == h.lastIndexOf(':') ? h.substring(0, colon) : h);
    }
    return hosts;
  }

  /**
   * "connection refused at ..." when no ZooKeeper server of the quorum accepts a TCP connection
   * because nothing listens, else null (a host that answers slowly may still be starting).
   */
  static String zooKeeperRefuses(Configuration conf) {
    String first = null;
    int port = conf.getInt(HConstants.ZOOKEEPER_CLIENT_PORT,
        HConstants.DEFAULT_ZOOKEEPER_CLIENT_PORT);
    for (String h : conf.getTrimmedStrings(HConstants.ZOOKEEPER_QUORUM)) {
      int colon = h.indexOf(':');
      String host = colon > 0 && colon == h.lastIndexOf(':') ? h.substring(0, colon) : h;
      int p = colon > 0 && colon == h.lastIndexOf(':') ? Integer.parseInt(h.substring(colon + 1))
          : port;
      String problem = Reachability.problem(host, p, 1000);
      if (problem == null || !problem.startsWith("connection refused")) {
        return null;
      }
      first = first == null ? problem : first;
    }
    return first;
  }

  /**
   * Creates the table when asked and checks it, once per table and JVM (YCSB's threads share
   * one table; a JVM running clients on several tables, as the tests do, checks each).
   */
  void prepareTable(HBaseSettings s) throws DBException {
    prepareTable(s, s.table, HBaseProperties.TABLE.name());
  }

  /**
   * As {@link #prepareTable(HBaseSettings)} for another table of the binding (a list table);
   * {@code property} names the property that chose it, for the message when it is missing.
   */
  synchronized void prepareTable(HBaseSettings s, TableName table, String property)
      throws DBException {
    if (preparedTables.contains(table)) {
      return;
    }
    try (Admin admin = connection.getAdmin()) {
      if (s.createTable) {
        TableCreator.createIfMissing(admin, s, table);
      }
      checkTable(admin, s, table, property, conf);
      preparedTables.add(table);
    } catch (IOException | RuntimeException e) {
      throw new DBException("checking table " + table + " at " + where(conf) + " failed: "
          + ErrorLog.describe(e));
    }
  }

  /**
   * HBase's defaults and any {@code hbase-site.xml} on the classpath, then every YCSB property
   * named {@code hbase.*} or {@code zookeeper.*} that is not a binding property (so any client
   * setting can be given with -p), then the binding properties the user set.
   */
  static Configuration configuration(HBaseSettings s) {
    Configuration conf = HBaseConfiguration.create();
    for (String name : s.properties.stringPropertyNames()) {
      if (isClientSetting(name)) {
        conf.set(name, s.properties.getProperty(name).trim());
      }
    }
    if (s.zkQuorum != null) {
      conf.set(HConstants.ZOOKEEPER_QUORUM, s.zkQuorum);
    }
    if (s.zkPort != null) {
      conf.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, s.zkPort);
    }
    if (s.bootstrapServers != null) {
      conf.set(HBaseProperties.BOOTSTRAP_SERVERS.name(), s.bootstrapServers);
      conf.set(HConstants.CLIENT_CONNECTION_REGISTRY_IMPL_CONF_KEY, RPC_REGISTRY);
    }
    String tmpDir = HBaseProperties.TMP_DIR.name();
    if (s.values.isSet(HBaseProperties.TMP_DIR) || !setBySite(conf, tmpDir)) {
      conf.set(tmpDir, s.tmpDir);
      // HBase also builds a Configuration of its own (the class loader for server exceptions);
      // ${hbase.tmp.dir} in its defaults expands from this system property first.
      System.setProperty(tmpDir, s.tmpDir);
    }
    return conf;
  }

  private static boolean setBySite(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return false;
    }
    for (String source : sources) {
      if (!source.contains("hbase-default.xml")) {
        return true;
      }
    }
    return false;
  }

  /** A misspelt binding property would otherwise silently reach HBase and do nothing. */
  private static void warnAboutUnknownSettings(HBaseSettings s, Configuration conf) {
    Configuration defaults = HBaseConfiguration.create();
    for (String name : new TreeSet<>(s.properties.stringPropertyNames())) {
      if (name.startsWith("hbase.") && isClientSetting(name) && defaults.get(name) == null) {
        String nearest = UnknownProperties.closest(name,
            HBaseClientSettings.BINDING_PROPERTY_NAMES, "hbase.");
        System.err.println("WARN hbase-salted: property " + name + " is neither a binding "
            + "property nor an HBase default setting"
            + (nearest == null ? " (a typo?)" : " (did you mean " + nearest + "?)")
            + "; it was passed to the HBase client as it is");
      }
    }
    // unprefixed near-misses of the binding's own names (columnfamilly for columnfamily)
    for (String warning : UnknownProperties.find(HBaseProperties.BINDING, s.properties,
        HBaseClientSettings.BINDING_PROPERTY_NAMES, "hbase.")) {
      if (!warning.startsWith("property hbase.") && !warning.startsWith("property zookeeper.")) {
        System.err.println("WARN hbase-salted: " + warning);
      }
    }
    String scans = s.properties.getProperty("scanproportion", "0").trim();
    if (!s.rowKeys.scansInKeyOrder() && !scans.matches("0*\\.?0*")) {
      System.err.println("WARN hbase-salted: scanproportion=" + scans + " but hbase.salt="
          + s.rowKeys.salt() + " cannot scan in key order: every SCAN will return "
          + HBaseErrors.SCAN_UNSUPPORTED.getName() + "; use hbase.salt=buckets:N");
    }
  }

  /** How long a refused ZooKeeper connection is retried before init() fails naming it. */
  private static final long REFUSED_AFTER_MS = 3000;

  /**
   * Connects and asks for the table within hbase.connecttimeoutms. HBase's own retries against
   * an unreachable ZooKeeper or master last minutes; a benchmark should fail in seconds.
   */
  private static Connection connect(HBaseSettings s, Configuration conf) throws DBException {
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "hbase-salted-connect");
      t.setDaemon(true);
      return t;
    });
    AtomicReference<Connection> opened = new AtomicReference<>();
    AtomicBoolean abandoned = new AtomicBoolean();
    Future<Connection> attempt = executor.submit(() -> {
      Connection c = ConnectionFactory.createConnection(conf);
      opened.set(c);
      if (abandoned.get()) {
        closeQuietly(c);
        return null;
      }
      try (Admin admin = c.getAdmin()) {
        admin.tableExists(s.table);
      }
      return c;
    });
    executor.shutdown();
    long start = System.nanoTime();
    try {
      while (true) {
        long waited = (System.nanoTime() - start) / 1_000_000L;
        try {
          return attempt.get(Math.max(1, Math.min(1000, s.connectTimeoutMs - waited)),
              TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          waited = (System.nanoTime() - start) / 1_000_000L;
          // nothing listening will not change within the timeout: say so after a few seconds
          String refused = waited >= REFUSED_AFTER_MS && !zooKeeperHosts(conf).isEmpty()
              ? zooKeeperRefuses(conf) : null;
          if (refused != null || waited >= s.connectTimeoutMs) {
            abandoned.set(true);
            attempt.cancel(true);
            closeInBackground(opened.get());
            throw new DBException(refused != null
                ? "cannot connect to HBase at " + where(conf) + ": " + refused + "; check that "
                    + "HBase is running and reachable (a local one: scripts/hbase-local start)"
                : "HBase did not answer within " + s.connectTimeoutMs + " ms at " + where(conf)
                    + ": check that HBase is running and reachable (a local one: "
                    + "scripts/hbase-local start), or raise hbase.connecttimeoutms");
          }
        }
      }
    } catch (ExecutionException e) {
      closeInBackground(opened.get());
      throw new DBException("cannot connect to HBase at " + where(conf) + ": "
          + ErrorLog.describe(e.getCause()) + "; check that HBase is running and reachable");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closeInBackground(opened.get());
      throw new DBException("interrupted while connecting to HBase at " + where(conf));
    }
  }

  private static void checkTable(Admin admin, HBaseSettings s, TableName table, String property,
                                 Configuration conf) throws IOException, DBException {
    if (!admin.tableExists(table)) {
      throw new DBException("table " + table + " does not exist at " + where(conf)
          + ": create it (HBase shell: create '" + table + "', '" + s.familyName + "') or run "
          + "with -p hbase.createtable=true (property " + property + ")");
    }
    TableDescriptor descriptor = admin.getDescriptor(table);
    if (!descriptor.hasColumnFamily(s.family)) {
      Set<String> families = new TreeSet<>();
      for (ColumnFamilyDescriptor f : descriptor.getColumnFamilies()) {
        families.add(f.getNameAsString());
      }
      throw new DBException("table " + table + " has no column family '" + s.familyName
          + "' (property columnfamily); its families are " + families);
    }
    if (!admin.isTableEnabled(table) && !becomesEnabled(admin, table)) {
      throw new DBException("table " + table + " is disabled: enable it (HBase shell: "
          + "enable '" + table + "')");
    }
  }

  /**
   * Whether {@code table}, not enabled now, becomes enabled within {@link #ENABLING_WAIT}.
   * Several clients start at once: a table another client is creating exists (ENABLING) from
   * the moment its regions are written to meta until they are all assigned, which takes
   * seconds for a presplit table; this client waits for it instead of calling it disabled.
   * A DISABLED (or DISABLING) table is not waited for.
   */
  private static boolean becomesEnabled(Admin admin, TableName table)
      throws IOException, DBException {
    Deadline deadline = Deadline.after(ENABLING_WAIT);
    while (!admin.isTableDisabled(table) && !deadline.passed()) {
      if (admin.isTableEnabled(table)) {
        return true;
      }
      Deadline.pause(ENABLING_POLL, "table " + table + " to be enabled");
    }
    return false;
  }

  /** Where the client looks for the cluster, with the properties that set it. */
  static String where(Configuration conf) {
    String bootstrap = conf.get(HBaseProperties.BOOTSTRAP_SERVERS.name());
    if (RPC_REGISTRY.equals(conf.get(HConstants.CLIENT_CONNECTION_REGISTRY_IMPL_CONF_KEY))
        && bootstrap != null) {
      return "bootstrap servers " + bootstrap + " (property hbase.client.bootstrap.servers)";
    }
    return "ZooKeeper " + conf.get(HConstants.ZOOKEEPER_QUORUM) + ":"
        + conf.get(HConstants.ZOOKEEPER_CLIENT_PORT) + " (properties "
        + HBaseProperties.ZK_QUORUM.name() + ", " + HBaseProperties.ZK_PORT.name() + ")";
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (IOException | RuntimeException e) {
      // already failing with a better message
    }
  }

  /** A connection stuck retrying may take long to close; init() does not wait for it. */
  private static void closeInBackground(Connection c) {
    if (c != null) {
      Thread t = new Thread(() -> closeQuietly(c), "hbase-salted-close");
      t.setDaemon(true);
      t.start();
    }
  }

  @Override
  public void close() throws IOException {
    connection.close();
  }
}
