package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CQL of the five YCSB operations, each prepared once per (operation, field set) and shared by
 * all threads. Bound by position: the key is always the last marker except for INSERT, where it
 * is the first.
 */
final class CqlStatements {
  static final String KEY = "y_id";

  private final CqlSession session;
  private final String table;
  private final ConcurrentHashMap<String, PreparedStatement> prepared = new ConcurrentHashMap<>();

  CqlStatements(CqlSession session, String keyspace, String table) {
    this.session = session;
    this.table = keyspace + "." + table;
  }

  /** SELECT of the given fields (all columns for null) of one row. */
  PreparedStatement read(Set<String> fields) {
    String cols = columns(fields);
    return prepare("R" + cols, "SELECT " + cols + " FROM " + table + " WHERE " + KEY + " = ?");
  }

  /** SELECT of the key and the given fields (all for null) of the rows whose key is IN a list. */
  PreparedStatement readIn(Set<String> fields) {
    String cols = fields == null ? "*" : KEY + ", " + columns(fields);
    return prepare("RIN" + cols, "SELECT " + cols + " FROM " + table + " WHERE " + KEY
        + " IN ?");
  }

  /**
   * Rows from the key's token on, in token order: under Murmur3 token order is not key order,
   * so this is the only scan a hash-partitioned table can do efficiently.
   */
  PreparedStatement scan(Set<String> fields) {
    String cols = columns(fields);
    return prepare("S" + cols, "SELECT " + cols + " FROM " + table + " WHERE token(" + KEY
        + ") >= token(?) LIMIT ?");
  }

  /** INSERT of the key then the given fields, in the order of {@code fields}. */
  PreparedStatement insert(List<String> fields) {
    StringBuilder cql = new StringBuilder("INSERT INTO ").append(table).append(" (").append(KEY);
    StringBuilder marks = new StringBuilder("?");
    for (String f : fields) {
      cql.append(", ").append(quote(f));
      marks.append(", ?");
    }
    cql.append(") VALUES (").append(marks).append(')');
    return prepare("I" + fields, cql.toString());
  }

  /** UPDATE of the given fields (in the order of {@code fields}), then the key. */
  PreparedStatement update(List<String> fields) {
    StringBuilder cql = new StringBuilder("UPDATE ").append(table).append(" SET ");
    for (int i = 0; i < fields.size(); i++) {
      cql.append(i == 0 ? "" : ", ").append(quote(fields.get(i))).append(" = ?");
    }
    cql.append(" WHERE ").append(KEY).append(" = ?");
    return prepare("U" + fields, cql.toString());
  }

  PreparedStatement delete() {
    return prepare("D", "DELETE FROM " + table + " WHERE " + KEY + " = ?");
  }

  /** Any statement, prepared once per cache key for all threads of this session. */
  PreparedStatement prepare(String cacheKey, String cql) {
    return prepared.computeIfAbsent(cacheKey, k -> session.prepare(cql));
  }

  private static String columns(Collection<String> fields) {
    if (fields == null) {
      return "*";
    }
    StringBuilder sb = new StringBuilder();
    for (String f : new TreeSet<>(fields)) {
      sb.append(sb.length() == 0 ? "" : ", ").append(quote(f));
    }
    return sb.toString();
  }

  /** Field names come from workload properties; quoting keeps any name a valid identifier. */
  static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }
}
