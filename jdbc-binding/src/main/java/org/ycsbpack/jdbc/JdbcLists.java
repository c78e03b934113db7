package org.ycsbpack.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.batch.BatchResult;
import org.ycsbpack.common.listappend.ListOperations;
import site.ycsb.Status;

/**
 * The anti-fraud history of scenario S1 in the relational idiom: a row per list element in a
 * child table clustered by the list's key, so a list read is one range of neighbouring rows.
 *
 * <pre>
 * (custom_id, type, appended_us, writer) primary key, expires_ms, element
 * </pre>
 *
 * {@code appended_us} is microseconds since the epoch, strictly increasing within a client JVM,
 * and {@code writer} a random number per JVM: the primary key orders a list by append time, as
 * Cassandra's list and the HBase binding's cell qualifiers do. An append is one single-row
 * INSERT (a blind write: no read, no lock on the other elements); a read selects the list's
 * rows in key order. An element's TTL is its {@code expires_ms}: reads and counts skip expired
 * rows, and {@link ExpiredElementPurger} deletes them in the background.
 */
final class JdbcLists implements ListOperations {
  private static final Object SCHEMA_LOCK = new Object();
  private static final AtomicLong LAST_MICROS = new AtomicLong();
  private static final int WRITER = ThreadLocalRandom.current().nextInt();
  /** TTL 0 never expires. */
  static final long NEVER = Long.MAX_VALUE;

  private final JdbcConnection connection;
  private final ErrorLog errors;
  // one client thread's statement texts per list table
  private final Map<String, String[]> byTable = new HashMap<>();

  JdbcLists(JdbcConnection connection, ErrorLog errors) {
    this.connection = connection;
    this.errors = errors;
  }

  static String createTableSql(String table) {
    return "CREATE TABLE IF NOT EXISTS " + table + " (custom_id VARCHAR(255) NOT NULL, "
        + "type VARCHAR(64) NOT NULL, appended_us BIGINT NOT NULL, writer INT NOT NULL, "
        + "expires_ms BIGINT NOT NULL, element MEDIUMTEXT NOT NULL, "
        + "PRIMARY KEY (custom_id, type, appended_us, writer), KEY expiry (expires_ms)) "
        + "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin";
  }

  private static final int APPEND = 0;
  private static final int READ = 1;

  private String[] sql(String table) {
    return byTable.computeIfAbsent(table, t -> new String[] {
        "INSERT INTO " + SqlStatements.checked(t)
            + " (custom_id, type, appended_us, writer, expires_ms, element) VALUES ",
        "SELECT element FROM " + t + " WHERE custom_id = ? AND type = ? AND expires_ms > ? "
            + "ORDER BY appended_us, writer"});
  }

  private static String appendSql(String prefix, int rows) {
    StringBuilder sb = new StringBuilder(prefix);
    for (int i = 0; i < rows; i++) {
      sb.append(i == 0 ? "(?, ?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?, ?)");
    }
    return sb.toString();
  }

  /** Microseconds since the epoch, strictly increasing within this JVM. */
  static long nextMicros() {
    long now = System.currentTimeMillis() * 1000L;
    return LAST_MICROS.updateAndGet(last -> Math.max(now, last + 1));
  }

  static long expiry(int ttlSeconds) {
    return ttlSeconds <= 0 ? NEVER : System.currentTimeMillis() + ttlSeconds * 1000L;
  }

  @Override
  public String prepareListTable(String table) {
    synchronized (SCHEMA_LOCK) {
      try {
        SqlStatements.checked(table);
      } catch (IllegalArgumentException e) {
        return "listappend.table='" + table + "' is not a plain SQL name";
      }
      try (Connection c = connection.pool.getConnection(); Statement st = c.createStatement()) {
        if (connection.settings.createTable) {
          st.execute(createTableSql(table));
        }
        st.executeQuery("SELECT custom_id, type, appended_us, writer, expires_ms, element FROM "
            + table + " WHERE 1 = 0").close();
      } catch (SQLException e) {
        if (e.getErrorCode() == 1146) {
          return "table '" + table + "' does not exist at " + connection.settings.printableUrl()
              + ": create it (" + createTableSql(table) + ") or run with -p jdbc.createtable=true";
        }
        return "table '" + table + "' is not a list table of this binding: "
            + SqlErrors.firstLine(e);
      }
      connection.startPurger(table);
      return null;
    }
  }

  private static int bindAppend(PreparedStatement st, int p, String key, String type,
                                String element, long expires) throws SQLException {
    st.setString(p++, key);
    st.setString(p++, type);
    st.setLong(p++, nextMicros());
    st.setInt(p++, WRITER);
    st.setLong(p++, expires);
    st.setString(p++, element);
    return p;
  }

  @Override
  public Status append(String table, String key, String type, String element, int ttlSeconds) {
    try (Connection c = connection.pool.getConnection();
         PreparedStatement st = c.prepareStatement(appendSql(sql(table)[APPEND], 1))) {
      bindAppend(st, 1, key, type, element, expiry(ttlSeconds));
      st.executeUpdate();
      return Status.OK;
    } catch (SQLException | RuntimeException e) {
      return errors.failed(SqlErrors.statusOf(e), "APPEND", key, e);
    }
  }

  @Override
  public Status readList(String table, String key, String type, List<String> out) {
    try (Connection c = connection.pool.getConnection();
         PreparedStatement st = c.prepareStatement(sql(table)[READ])) {
      st.setString(1, key);
      st.setString(2, type);
      st.setLong(3, System.currentTimeMillis());
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
      return out.isEmpty() ? Status.NOT_FOUND : Status.OK;
    } catch (SQLException | RuntimeException e) {
      return errors.failed(SqlErrors.statusOf(e), "READ_LIST", key, e);
    }
  }

  /** One multi-row INSERT (or, with jdbc.batchupdateapi=true, a JDBC batch) of the appends. */
  @Override
  public BatchResult batchAppend(String table, List<String> keys, String type,
                                 List<String> elements, int ttlSeconds) {
    long expires = expiry(ttlSeconds);
    boolean jdbcBatch = connection.settings.jdbcBatch;
    String text = appendSql(sql(table)[APPEND], jdbcBatch ? 1 : keys.size());
    try (Connection c = connection.pool.getConnection();
         PreparedStatement st = c.prepareStatement(text)) {
      int p = 1;
      for (int i = 0; i < keys.size(); i++) {
        p = bindAppend(st, jdbcBatch ? 1 : p, keys.get(i), type, elements.get(i), expires);
        if (jdbcBatch) {
          st.addBatch();
        }
      }
      if (!jdbcBatch) {
        st.executeUpdate();
        return BatchResult.of(keys.size(), 0, 0, null);
      }
      int[] n = JdbcBatches.counts(st.executeBatch(), keys.size(), null);
      return BatchResult.of(n[0], 0, n[1] + n[2], n[1] + n[2] == 0 ? null : Status.ERROR);
    } catch (java.sql.BatchUpdateException e) {
      Status s = errors.failed(SqlErrors.statusOf(e), "BATCH_APPEND", keys.get(0) + "...", e);
      int[] n = JdbcBatches.counts(e.getUpdateCounts(), keys.size(), e);
      return BatchResult.of(n[0], 0, n[1] + n[2], s);
    } catch (SQLException | RuntimeException e) {
      Status s = errors.failed(SqlErrors.statusOf(e), "BATCH_APPEND", keys.get(0) + "...", e);
      return BatchResult.allFailed(keys.size(), s);
    }
  }

  /** One {@code custom_id IN (...)} query, rows in list order. */
  @Override
  public BatchResult batchReadList(String table, List<String> keys, String type,
                                   Map<String, List<String>> out) {
    StringBuilder text = new StringBuilder("SELECT custom_id, element FROM ")
        .append(SqlStatements.checked(table)).append(" WHERE type = ? AND expires_ms > ? AND "
            + "custom_id IN (");
    for (int i = 0; i < keys.size(); i++) {
      text.append(i == 0 ? "?" : ", ?");
    }
    text.append(") ORDER BY custom_id, appended_us, writer");
    try (Connection c = connection.pool.getConnection();
         PreparedStatement st = c.prepareStatement(text.toString())) {
      st.setString(1, type);
      st.setLong(2, System.currentTimeMillis());
      for (int i = 0; i < keys.size(); i++) {
        st.setString(i + 3, keys.get(i));
      }
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
        }
      }
      int found = Math.min(out.size(), keys.size());
      return BatchResult.of(found, keys.size() - found, 0, null);
    } catch (SQLException | RuntimeException e) {
      Status s = errors.failed(SqlErrors.statusOf(e), "BATCH_READ_LIST", keys.get(0) + "...", e);
      return BatchResult.allFailed(keys.size(), s);
    }
  }

  @Override
  public long countElements(String table, String type) {
    try (Connection c = connection.pool.getConnection(); PreparedStatement st = c.prepareStatement(
        "SELECT COUNT(*) FROM " + SqlStatements.checked(table)
            + " WHERE type = ? AND expires_ms > ?")) {
      st.setString(1, type);
      st.setLong(2, System.currentTimeMillis());
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("counting the elements of " + table + " failed: "
          + SqlErrors.firstLine(e), e);
    }
  }
}
