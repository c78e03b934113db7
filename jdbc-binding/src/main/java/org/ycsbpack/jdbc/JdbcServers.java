package org.ycsbpack.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.ycsbpack.common.probe.Samples;
import org.ycsbpack.common.probe.ServerFacts;
import org.ycsbpack.common.probe.ServerSource;
import site.ycsb.DBException;

/**
 * The MariaDB or MySQL server as the jdbc binding reaches it (same URL, user, driver):
 * {@code VERSION()}, the global variables that move a benchmark ({@link #VARIABLES}) and the
 * binding's table as {@code SHOW CREATE TABLE} gives it. Not the server's machine (SQL does not
 * say it). No samples: -watch prints the facts only.
 */
final class JdbcServers implements ServerSource {
  /**
   * The variables that move a benchmark's figures: the buffer pool and redo log (how much is
   * served from memory, how often pages are written), durability (flush at commit, binary log
   * sync, doublewrite), the I/O budget, the binary log, isolation, connections, and which
   * server build it is.
   */
  static final List<String> VARIABLES = Collections.unmodifiableList(Arrays.asList(
      "innodb_buffer_pool_size", "innodb_buffer_pool_instances", "innodb_log_file_size",
      "innodb_log_buffer_size", "innodb_flush_log_at_trx_commit", "innodb_flush_method",
      "innodb_doublewrite", "innodb_io_capacity", "innodb_io_capacity_max",
      "innodb_read_io_threads", "innodb_write_io_threads", "innodb_adaptive_hash_index",
      "sync_binlog", "log_bin", "binlog_format", "transaction_isolation", "tx_isolation",
      "max_connections", "thread_handling", "query_cache_type", "performance_schema",
      "version_comment", "version_compile_machine"));

  private final JdbcSettings settings;
  private final Connection connection;

  private JdbcServers(JdbcSettings settings, Connection connection) {
    this.settings = settings;
    this.connection = connection;
  }

  static JdbcServers open(Properties props) throws DBException {
    JdbcSettings s = new JdbcSettings(props);
    try {
      Class.forName(s.driver);
    } catch (ClassNotFoundException e) {
      throw new DBException("property " + JdbcProperties.DRIVER.name() + "='" + s.driver
          + "': no such class on the classpath");
    }
    Properties login = new Properties();
    login.setProperty("user", s.user);
    if (s.password != null) {
      login.setProperty("password", s.password);
    }
    DriverManager.setLoginTimeout(Math.max(1, s.connectTimeoutMs / 1000));
    try {
      return new JdbcServers(s, DriverManager.getConnection(s.url, login));
    } catch (SQLException e) {
      throw new DBException("cannot connect to " + s.printableUrl() + " as user '" + s.user
          + "' (properties db.url, db.user, db.passwd): " + SqlErrors.firstLine(e)
          + JdbcConnection.hint(e));
    }
  }

  @Override
  public ServerFacts facts(boolean watching) {
    String version = "";
    try (Statement st = connection.createStatement();
         ResultSet rs = st.executeQuery("SELECT VERSION(), @@hostname, @@port")) {
      rs.next();
      version = rs.getString(1);
      ServerFacts facts = new ServerFacts(version.toLowerCase(Locale.ROOT).contains("mariadb")
          ? "mariadb" : "mysql");
      facts.nodeVersion(rs.getString(2) + ":" + rs.getInt(3), version);
      facts.skip("machines: the server's machine (cores, memory) is not readable over SQL");
      readVariables(facts);
      readSchema(facts);
      if (watching) {
        facts.skip("samples: the jdbc probe reads no server time series (-watch prints these "
            + "facts only)");
      }
      return facts;
    } catch (SQLException e) {
      ServerFacts facts = new ServerFacts("mysql");
      facts.skip("VERSION() could not be read: " + SqlErrors.firstLine(e));
      return facts;
    }
  }

  private void readVariables(ServerFacts facts) {
    StringBuilder in = new StringBuilder();
    for (String v : VARIABLES) {
      in.append(in.length() == 0 ? "'" : ",'").append(v).append('\'');
    }
    try (Statement st = connection.createStatement();
         ResultSet rs = st.executeQuery("SHOW GLOBAL VARIABLES WHERE Variable_name IN ("
             + in + ")")) {
      while (rs.next()) {
        facts.setting(rs.getString(1), rs.getString(2));
      }
      facts.settingsSource("SHOW GLOBAL VARIABLES, only the " + facts.settingCount()
          + " that move a benchmark (buffer pool, redo log, flushing, doublewrite, I/O "
          + "capacity, binary log, isolation, connections, build)");
    } catch (SQLException e) {
      facts.settingsSource("none: SHOW GLOBAL VARIABLES failed");
      facts.skip("settings: SHOW GLOBAL VARIABLES failed: " + SqlErrors.firstLine(e));
    }
  }

  private void readSchema(ServerFacts facts) {
    try (Statement st = connection.createStatement();
         ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + settings.table)) {
      rs.next();
      facts.schema(rs.getString(2));
    } catch (SQLException e) {
      facts.skip(e.getErrorCode() == 1146
          ? "schema: table " + settings.table + " does not exist yet at "
              + settings.printableUrl() + " (a load with jdbc.createtable=true creates it)"
          : "schema: SHOW CREATE TABLE " + settings.table + " failed: "
              + SqlErrors.firstLine(e));
    }
  }

  @Override
  public void sample(Samples out) {
    // MariaDB/MySQL: facts only
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      // the output is complete
    }
  }
}
