package org.ycsbpack.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import org.ycsbpack.common.ErrorLog;
import site.ycsb.DBException;

/**
 * The connection pool of a client JVM (HikariCP, sized to the client threads), shared by all
 * threads. Opening it loads the driver, connects, creates the table when asked and checks that
 * it exists, so every problem surfaces in init() as one sentence rather than as failed
 * operations.
 */
final class JdbcConnection implements AutoCloseable {
  final HikariDataSource pool;
  final JdbcSettings settings;
  private volatile ExpiredElementPurger purger;

  private JdbcConnection(HikariDataSource pool, JdbcSettings settings) {
    this.pool = pool;
    this.settings = settings;
  }

  static JdbcConnection open(JdbcSettings s) throws DBException {
    try {
      Class.forName(s.driver);
    } catch (ClassNotFoundException e) {
      throw new DBException("property " + JdbcProperties.DRIVER.name() + "='" + s.driver
          + "': no such class on the classpath; leave it unset to use the driver the URL "
          + "selects (MariaDB or MySQL Connector/J, both shipped), or add yours with -cp");
    }
    HikariConfig config = new HikariConfig();
    config.setPoolName("ycsb-jdbc");
    config.setJdbcUrl(s.url);
    config.setDriverClassName(s.driver);
    config.setUsername(s.user);
    if (s.password != null) {
      config.setPassword(s.password);
    }
    config.setMaximumPoolSize(s.poolSize);
    config.setMinimumIdle(s.poolSize);
    config.setConnectionTimeout(s.connectTimeoutMs);
    config.setAutoCommit(true);
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(config);
    } catch (HikariPool.PoolInitializationException | IllegalArgumentException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new DBException("cannot connect to " + s.printableUrl() + " as user '" + s.user
          + "' (properties db.url, db.user, db.passwd): " + SqlErrors.firstLine(cause)
          + hint(cause));
    }
    JdbcConnection c = new JdbcConnection(pool, s);
    try {
      if (s.createTable) {
        c.execute(createTableSql(s));
      }
      checkTable(c, s);
      return c;
    } catch (DBException | RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  static String hint(Throwable cause) {
    String m = String.valueOf(cause.getMessage());
    if (m.contains("Access denied")) {
      return "; check the user and password";
    }
    if (m.contains("Unknown database")) {
      return "; create it (CREATE DATABASE ...; scripts/mysql-local start creates `ycsb`) or "
          + "name another in db.url";
    }
    return "; check that the server is running and reachable (a local one: scripts/mysql-local "
        + "start), or raise jdbc.connecttimeoutms";
  }

  /**
   * The YCSB table: key column {@code YCSB_KEY} as YCSB's jdbc binding names it, with a binary
   * collation (scans in byte order), and each field a MEDIUMBLOB that keeps every byte.
   */
  static String createTableSql(JdbcSettings s) {
    StringBuilder sb = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(s.table)
        .append(" (").append(SqlStatements.KEY).append(" VARCHAR(255) NOT NULL PRIMARY KEY");
    for (int i = 0; i < s.fieldCount; i++) {
      sb.append(", ").append(s.fieldPrefix).append(i).append(" MEDIUMBLOB");
    }
    return sb.append(") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin").toString();
  }

  private static void checkTable(JdbcConnection c, JdbcSettings s) throws DBException {
    try (Connection conn = c.pool.getConnection(); Statement st = conn.createStatement();
         ResultSet rs = st.executeQuery("SELECT * FROM " + s.table + " WHERE 1 = 0")) {
      ResultSetMetaData meta = rs.getMetaData();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        if (SqlStatements.KEY.equalsIgnoreCase(meta.getColumnLabel(i))) {
          return;
        }
      }
      throw new DBException("table '" + s.table + "' has no key column " + SqlStatements.KEY
          + "; it was not made for YCSB");
    } catch (SQLException e) {
      if (e.getErrorCode() == 1146) {
        throw new DBException("table '" + s.table + "' does not exist at " + s.printableUrl()
            + ": create it (" + createTableSql(s) + ") or run with -p jdbc.createtable=true "
            + "(property table)");
      }
      throw new DBException("checking table '" + s.table + "' failed: " + SqlErrors.firstLine(e));
    }
  }

  /** Runs one DDL statement; a failure is an init() failure. */
  void execute(String sql) throws DBException {
    try (Connection conn = pool.getConnection(); Statement st = conn.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new DBException("'" + sql + "' failed: " + SqlErrors.firstLine(e));
    }
  }

  /** Starts the JVM's purge of expired list elements of {@code table}, once. */
  synchronized void startPurger(String table) {
    if (purger == null && settings.listPurgeSeconds > 0) {
      purger = ExpiredElementPurger.start(pool, table, settings.listPurgeSeconds);
    }
  }

  @Override
  public void close() {
    ExpiredElementPurger p = purger;
    if (p != null) {
      p.stop();
    }
    pool.close();
  }

  static String describe(Throwable e) {
    return JdbcSettings.masked(ErrorLog.describe(e));
  }
}
