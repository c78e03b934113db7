package org.ycsbpack.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.SharedConnections;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding for MariaDB and MySQL over JDBC ({@code bin/ycsb ... jdbc}).
 *
 * <p>All client threads share one HikariCP pool (opened by the first init(), closed by the last
 * cleanup()); each operation borrows a connection for one prepared statement, so a connection
 * the server dropped costs one failed operation (CONNECTION_LOST), not the rest of the run.
 * Rows are bound and read by {@link JdbcRows}; batches: {@link JdbcBatches}; lists:
 * {@link JdbcLists}.
 */
public class JdbcClient extends DB {
  private static final SharedConnections<JdbcConnection> POOLS =
      new SharedConnections<>(JdbcProperties.BINDING, "the pool", JdbcConnection::describe);
  private static final ErrorLog ERRORS = new ErrorLog(JdbcProperties.BINDING);

  private JdbcSettings settings;
  private JdbcConnection connection;
  private SharedConnections.Lease<JdbcConnection> lease;
  // one client thread's: statements of each table it touched
  private final Map<String, SqlStatements> statements = new HashMap<>();

  @Override
  public void init() throws DBException {
    try {
      settings = new JdbcSettings(getProperties());
      JdbcSettings s = settings;
      lease = POOLS.acquire(s.connectionKey(), () -> JdbcConnection.open(s));
      connection = lease.connection();
      lease.publish(new JdbcBatches(connection, s.jdbcBatch, ERRORS),
          new JdbcLists(connection, ERRORS));
    } catch (Exception e) {
      connection = null;
      throw POOLS.initFailed(lease, e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    if (connection != null) {
      connection = null;
      lease.release();
    }
  }

  private SqlStatements sql(String table) {
    return statements.computeIfAbsent(table, SqlStatements::of);
  }

  private Connection borrow() throws SQLException {
    return connection.pool.getConnection();
  }

  JdbcConnection connectionForTests() {
    return connection;
  }

  @Override
  public Status read(String table, String key, Set<String> fields,
                     Map<String, ByteIterator> result) {
    try (Connection c = borrow();
         PreparedStatement st = c.prepareStatement(sql(table).read(JdbcRows.fieldList(fields)))) {
      st.setString(1, key);
      try (ResultSet rs = st.executeQuery()) {
        if (!rs.next()) {
          return Status.NOT_FOUND;
        }
        JdbcRows.copyFields(rs, result);
        return Status.OK;
      }
    } catch (SQLException | RuntimeException e) {
      return ERRORS.failed(SqlErrors.statusOf(e), "READ", key, e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                     Vector<HashMap<String, ByteIterator>> result) {
    try (Connection c = borrow();
         PreparedStatement st = c.prepareStatement(sql(table).scan(JdbcRows.fieldList(fields)))) {
      st.setString(1, startkey);
      st.setInt(2, recordcount);
      st.setFetchSize(settings.fetchSize);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          HashMap<String, ByteIterator> row = new HashMap<>();
          JdbcRows.copyFields(rs, row);
          result.add(row);
        }
      }
      return Status.OK;
    } catch (SQLException | RuntimeException e) {
      return ERRORS.failed(SqlErrors.statusOf(e), "SCAN", startkey, e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    TreeMap<String, ByteIterator> sorted = new TreeMap<>(values);
    try (Connection c = borrow(); PreparedStatement st = c.prepareStatement(
        sql(table).insert(new ArrayList<>(sorted.keySet()), 1))) {
      JdbcRows.bindInsert(st, 1, key, sorted);
      st.executeUpdate();
      return Status.OK;
    } catch (SQLException | RuntimeException e) {
      return ERRORS.failed(SqlErrors.statusOf(e), "INSERT", key, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    TreeMap<String, ByteIterator> sorted = new TreeMap<>(values);
    try (Connection c = borrow(); PreparedStatement st = c.prepareStatement(
        sql(table).update(new ArrayList<>(sorted.keySet())))) {
      JdbcRows.bindUpdate(st, key, sorted);
      // both drivers report matched rows (CLIENT_FOUND_ROWS), so 0 means no such key
      return st.executeUpdate() == 0 ? Status.NOT_FOUND : Status.OK;
    } catch (SQLException | RuntimeException e) {
      return ERRORS.failed(SqlErrors.statusOf(e), "UPDATE", key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try (Connection c = borrow(); PreparedStatement st = c.prepareStatement(
        sql(table).delete())) {
      st.setString(1, key);
      return st.executeUpdate() == 0 ? Status.NOT_FOUND : Status.OK;
    } catch (SQLException | RuntimeException e) {
      return ERRORS.failed(SqlErrors.statusOf(e), "DELETE", key, e);
    }
  }
}
