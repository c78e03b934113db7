package org.ycsbpack.jdbc;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.batch.BatchOperations;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.ByteIterator;
import site.ycsb.Status;

/**
 * Batch operations of the jdbc binding: reads are one {@code WHERE YCSB_KEY IN (...)} query;
 * writes are one multi-row statement per distinct field set ({@code jdbc.batchupdateapi=false})
 * or a JDBC batch of single-row statements ({@code true}). Every statement commits on its own,
 * so a multi-row statement is all-or-nothing and a JDBC batch counts each row's outcome.
 */
final class JdbcBatches implements BatchOperations {
  private final JdbcConnection connection;
  private final boolean jdbcBatch;
  private final ErrorLog errors;
  // one client thread's statements per table
  private final Map<String, SqlStatements> statements = new HashMap<>();

  /** One client thread's batches; {@code jdbcBatch}: {@code jdbc.batchupdateapi}. */
  JdbcBatches(JdbcConnection connection, boolean jdbcBatch, ErrorLog errors) {
    this.connection = connection;
    this.jdbcBatch = jdbcBatch;
    this.errors = errors;
  }

  private SqlStatements sql(String table) {
    return statements.computeIfAbsent(table, SqlStatements::of);
  }

  private Connection borrow() throws SQLException {
    return connection.pool.getConnection();
  }

  @Override
  public BatchResult batchRead(String table, List<String> keys, Set<String> fields,
                               Map<String, Map<String, ByteIterator>> result) {
    try (Connection c = borrow(); PreparedStatement st = c.prepareStatement(
        sql(table).readIn(JdbcRows.fieldList(fields), keys.size()))) {
      for (int i = 0; i < keys.size(); i++) {
        st.setString(i + 1, keys.get(i));
      }
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          Map<String, ByteIterator> row = new HashMap<>();
          result.put(JdbcRows.copyFields(rs, row), row);
        }
      }
      int found = Math.min(result.size(), keys.size());
      return BatchResult.of(found, keys.size() - found, 0, null);
    } catch (SQLException | RuntimeException e) {
      return BatchResult.allFailed(keys.size(), errors.failed(SqlErrors.statusOf(e),
          "BATCH_READ", keys.get(0) + "...", e));
    }
  }

  @Override
  public BatchResult batchInsert(String table, List<String> keys,
                                 List<Map<String, ByteIterator>> values) {
    return write("BATCH_INSERT", table, keys, values, true);
  }

  @Override
  public BatchResult batchUpdate(String table, List<String> keys,
                                 List<Map<String, ByteIterator>> values) {
    return write("BATCH_UPDATE", table, keys, values, false);
  }

  private BatchResult write(String op, String table, List<String> keys,
                            List<Map<String, ByteIterator>> values, boolean insert) {
    // rows of one field set share a statement
    Map<List<String>, List<Integer>> groups = new LinkedHashMap<>();
    List<TreeMap<String, ByteIterator>> rows = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      TreeMap<String, ByteIterator> row = new TreeMap<>(values.get(i));
      rows.add(row);
      groups.computeIfAbsent(new ArrayList<>(row.keySet()), f -> new ArrayList<>()).add(i);
    }
    int ok = 0;
    int missing = 0;
    int failed = 0;
    Status firstError = null;
    for (Map.Entry<List<String>, List<Integer>> g : groups.entrySet()) {
      BatchResult r = jdbcBatch
          ? jdbcBatch(op, table, g.getKey(), g.getValue(), keys, rows, insert)
          : multiRow(op, table, g.getKey(), g.getValue(), keys, rows, insert);
      ok += r.ok();
      missing += r.missing();
      failed += r.failed();
      if (firstError == null && r.failed() > 0) {
        firstError = r.status();
      }
    }
    return BatchResult.of(ok, missing, failed, firstError);
  }

  /** One statement for the group's rows. */
  private BatchResult multiRow(String op, String table, List<String> fields, List<Integer> rows,
                         List<String> keys, List<TreeMap<String, ByteIterator>> values,
                         boolean insert) {
    SqlStatements sql = sql(table);
    String text = insert ? sql.insert(fields, rows.size()) : sql.updateMany(fields, rows.size());
    try (Connection c = borrow(); PreparedStatement st = c.prepareStatement(text)) {
      int p = 1;
      if (insert) {
        for (int r : rows) {
          p = JdbcRows.bindInsert(st, p, keys.get(r), values.get(r));
        }
      } else {
        for (String f : fields) {
          for (int r : rows) {
            st.setString(p++, keys.get(r));
            st.setBytes(p++, values.get(r).get(f).toArray());
          }
        }
        for (int r : rows) {
          st.setString(p++, keys.get(r));
        }
      }
      int matched = st.executeUpdate();
      if (insert) {
        return BatchResult.of(rows.size(), 0, 0, null);
      }
      // matched rows (CLIENT_FOUND_ROWS): the keys that were absent changed nothing
      int found = Math.min(matched, rows.size());
      return BatchResult.of(found, rows.size() - found, 0, null);
    } catch (SQLException | RuntimeException e) {
      return BatchResult.allFailed(rows.size(), errors.failed(SqlErrors.statusOf(e),
          op, keys.get(rows.get(0)) + "...", e));
    }
  }

  /** addBatch/executeBatch of single-row statements: each row's update count decides. */
  private BatchResult jdbcBatch(String op, String table, List<String> fields, List<Integer> rows,
                          List<String> keys, List<TreeMap<String, ByteIterator>> values,
                          boolean insert) {
    SqlStatements sql = sql(table);
    String text = insert ? sql.insert(fields, 1) : sql.update(fields);
    try (Connection c = borrow(); PreparedStatement st = c.prepareStatement(text)) {
      for (int r : rows) {
        if (insert) {
          JdbcRows.bindInsert(st, 1, keys.get(r), values.get(r));
        } else {
          JdbcRows.bindUpdate(st, keys.get(r), values.get(r));
        }
        st.addBatch();
      }
      int[] n = counts(st.executeBatch(), rows.size(), null);
      return BatchResult.of(n[0], n[1], n[2], n[2] == 0 ? null : Status.ERROR);
    } catch (BatchUpdateException e) {
      Status s = errors.failed(SqlErrors.statusOf(e), op, keys.get(rows.get(0))
          + "...", e);
      int[] n = counts(e.getUpdateCounts(), rows.size(), e);
      return BatchResult.of(n[0], n[1], n[2], s);
    } catch (SQLException | RuntimeException e) {
      return BatchResult.allFailed(rows.size(), errors.failed(SqlErrors.statusOf(e),
          op, keys.get(rows.get(0)) + "...", e));
    }
  }

  /**
   * Per-row update counts of a JDBC batch: n > 0 or SUCCESS_NO_INFO is done, 0 an absent key,
   * EXECUTE_FAILED failed; rows without a count (the batch stopped) failed too.
   */
  static int[] counts(int[] updateCounts, int rows, SQLException error) {
    int ok = 0;
    int missing = 0;
    int failed = 0;
    int n = updateCounts == null ? 0 : Math.min(updateCounts.length, rows);
    for (int i = 0; i < n; i++) {
      int u = updateCounts[i];
      if (u > 0 || u == Statement.SUCCESS_NO_INFO) {
        ok++;
      } else if (u == 0) {
        missing++;
      } else {
        failed++;
      }
    }
    failed += rows - n;
    if (error != null && failed == 0) {
      // a driver that reports success for every row and still throws: trust the exception
      return new int[] {0, 0, rows};
    }
    return new int[] {ok, missing, failed};
  }
}
