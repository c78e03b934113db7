package org.ycsbpack.jdbc;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SQL text of the YCSB operations on one table, built once per (operation, field set, batch
 * size) and cached per client thread, so an operation only binds parameters. Field names come
 * from the workload and are checked to be plain identifiers before they reach SQL.
 */
final class SqlStatements {
  /** The key column, named as YCSB's jdbc binding names it. */
  static final String KEY = "YCSB_KEY";
  private final String table;
  private final Map<String, String> cache = new HashMap<>();

  private SqlStatements(String table) {
    this.table = table;
  }

  /** The statements of {@code table}, its name checked to be a plain identifier. */
  static SqlStatements of(String table) {
    return new SqlStatements(checked(table));
  }

  private static String columns(Collection<String> fields) {
    if (fields == null) {
      return "*";
    }
    StringBuilder sb = new StringBuilder(KEY);
    for (String f : fields) {
      sb.append(", ").append(checked(f));
    }
    return sb.toString();
  }

  static String checked(String field) {
    if (!field.matches("[A-Za-z_][A-Za-z0-9_]{0,63}")) {
      throw new IllegalArgumentException("field name '" + field + "' is not a plain SQL name");
    }
    return field;
  }

  private static String marks(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "?" : ", ?");
    }
    return sb.toString();
  }

  /** {@code fields} null means all columns; the list must be sorted for caching to work. */
  String read(List<String> fields) {
    return cache.computeIfAbsent("R" + fields, k -> "SELECT " + columns(fields) + " FROM "
        + table + " WHERE " + KEY + " = ?");
  }

  String readIn(List<String> fields, int keys) {
    return cache.computeIfAbsent("RI" + keys + fields, k -> "SELECT " + columns(fields)
        + " FROM " + table + " WHERE " + KEY + " IN (" + marks(keys) + ")");
  }

  /** Scans in key order: the key column has a binary collation, so that is byte order. */
  String scan(List<String> fields) {
    return cache.computeIfAbsent("S" + fields, k -> "SELECT " + columns(fields) + " FROM "
        + table + " WHERE " + KEY + " >= ? ORDER BY " + KEY + " LIMIT ?");
  }

  /** INSERT of {@code rows} rows of the key and the given fields, in that order. */
  String insert(List<String> fields, int rows) {
    return cache.computeIfAbsent("I" + rows + fields, k -> {
      StringBuilder sb = new StringBuilder("INSERT INTO ").append(table).append(" (")
          .append(KEY);
      for (String f : fields) {
        sb.append(", ").append(checked(f));
      }
      sb.append(") VALUES ");
      String row = "(" + marks(fields.size() + 1) + ")";
      for (int i = 0; i < rows; i++) {
        sb.append(i == 0 ? row : ", " + row);
      }
      return sb.toString();
    });
  }

  /** UPDATE of one row: the fields' values, then the key. */
  String update(List<String> fields) {
    return cache.computeIfAbsent("U" + fields, k -> {
      StringBuilder sb = new StringBuilder("UPDATE ").append(table).append(" SET ");
      for (int i = 0; i < fields.size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(checked(fields.get(i))).append(" = ?");
      }
      return sb.append(" WHERE ").append(KEY).append(" = ?").toString();
    });
  }

  /**
   * UPDATE of {@code rows} rows in one statement: per field {@code CASE YCSB_KEY WHEN ? THEN ?
   * ... END} (key, value pairs), then the keys of {@code WHERE YCSB_KEY IN (...)}. Keys that do
   * not exist change nothing, as a single UPDATE.
   */
  String updateMany(List<String> fields, int rows) {
    return cache.computeIfAbsent("UM" + rows + fields, k -> {
      StringBuilder sb = new StringBuilder("UPDATE ").append(table).append(" SET ");
      for (int i = 0; i < fields.size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(checked(fields.get(i))).append(" = CASE ")
            .append(KEY);
        for (int r = 0; r < rows; r++) {
          sb.append(" WHEN ? THEN ?");
        }
        sb.append(" END");
      }
      return sb.append(" WHERE ").append(KEY).append(" IN (").append(marks(rows)).append(")")
          .toString();
    });
  }

  String delete() {
    return cache.computeIfAbsent("D", k -> "DELETE FROM " + table + " WHERE " + KEY + " = ?");
  }
}
