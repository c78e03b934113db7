package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * CQL of the five YCSB operations, each prepared once per (operation, field set) and shared by
 * all threads. Bound by position: the key is always the last marker except for INSERT, where it
 * is the first. Statements are looked up by the field set itself (a hash lookup of the
 * workload's own key set), so an operation builds no CQL text and no sorted copy of its fields;
 * the CQL is made only the first time a field set is seen.
 */
final class CqlStatements {
  static final String KEY = "y_id";

  /** A statement over some fields: {@code fields[i]} is bound at field marker i (name order). */
  static final class FieldStatement {
    final PreparedStatement statement;
    final String[] fields;

    FieldStatement(PreparedStatement statement, String[] fields) {
      this.statement = statement;
      this.fields = fields;
    }
  }

  private final CqlSession session;
  private final String table;
  private final ConcurrentHashMap<String, PreparedStatement> prepared = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Set<String>, PreparedStatement> reads =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Set<String>, PreparedStatement> readIns =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Set<String>, PreparedStatement> scans =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Set<String>, FieldStatement> inserts =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Set<String>, FieldStatement> updates =
      new ConcurrentHashMap<>();
  /** The statements without a field list, resolved once (null until first used). */
  private volatile PreparedStatement readAll;
  private volatile PreparedStatement readInAll;
  private volatile PreparedStatement scanAll;
  private volatile PreparedStatement delete;

  CqlStatements(CqlSession session, String keyspace, String table) {
    this.session = session;
    this.table = keyspace + "." + table;
  }

  /** SELECT of the given fields (all columns for null) of one row. */
  PreparedStatement read(Set<String> fields) {
    if (fields == null) {
      PreparedStatement p = readAll;
      return p != null ? p : (readAll = readCql("*"));
    }
    return cached(reads, fields, f -> readCql(columns(f)));
  }

  private PreparedStatement readCql(String cols) {
    return prepare("R" + cols, "SELECT " + cols + " FROM " + table + " WHERE " + KEY + " = ?");
  }

  /** SELECT of the key and the given fields (all for null) of the rows whose key is IN a list. */
  PreparedStatement readIn(Set<String> fields) {
    if (fields == null) {
      PreparedStatement p = readInAll;
      return p != null ? p : (readInAll = readInCql("*"));
    }
    return cached(readIns, fields, f -> readInCql(KEY + ", " + columns(f)));
  }

  private PreparedStatement readInCql(String cols) {
    return prepare("RIN" + cols, "SELECT " + cols + " FROM " + table + " WHERE " + KEY
        + " IN ?");
  }

  /**
   * Rows from the key's token on, in token order: under Murmur3 token order is not key order,
   * so this is the only scan a hash-partitioned table can do efficiently.
   */
  PreparedStatement scan(Set<String> fields) {
    if (fields == null) {
      PreparedStatement p = scanAll;
      return p != null ? p : (scanAll = scanCql("*"));
    }
    return cached(scans, fields, f -> scanCql(columns(f)));
  }

  private PreparedStatement scanCql(String cols) {
    return prepare("S" + cols, "SELECT " + cols + " FROM " + table + " WHERE token(" + KEY
        + ") >= token(?) LIMIT ?");
  }

  /** INSERT of the key then the given fields, in name order. */
  FieldStatement insert(Set<String> fields) {
    return cached(inserts, fields, f -> {
      StringBuilder cql = new StringBuilder("INSERT INTO ").append(table).append(" (")
          .append(KEY);
      StringBuilder marks = new StringBuilder("?");
      for (String name : f) {
        cql.append(", ").append(quote(name));
        marks.append(", ?");
      }
      cql.append(") VALUES (").append(marks).append(')');
      return new FieldStatement(prepare("I" + f, cql.toString()), f.toArray(new String[0]));
    });
  }

  /** UPDATE of the given fields (in name order), then the key. */
  FieldStatement update(Set<String> fields) {
    return cached(updates, fields, f -> {
      StringBuilder cql = new StringBuilder("UPDATE ").append(table).append(" SET ");
      String sep = "";
      for (String name : f) {
        cql.append(sep).append(quote(name)).append(" = ?");
        sep = ", ";
      }
      cql.append(" WHERE ").append(KEY).append(" = ?");
      return new FieldStatement(prepare("U" + f, cql.toString()), f.toArray(new String[0]));
    });
  }

  PreparedStatement delete() {
    PreparedStatement p = delete;
    return p != null ? p
        : (delete = prepare("D", "DELETE FROM " + table + " WHERE " + KEY + " = ?"));
  }

  /** Any statement, prepared once per cache key for all threads of this session. */
  PreparedStatement prepare(String cacheKey, String cql) {
    return prepared.computeIfAbsent(cacheKey, k -> session.prepare(cql));
  }

  /**
   * The entry of a field set: a plain lookup with the caller's set (no copy); the first time,
   * an immutable sorted copy becomes the key and {@code make} gets it.
   */
  private static <V> V cached(ConcurrentHashMap<Set<String>, V> cache, Set<String> fields,
                              Function<Set<String>, V> make) {
    V v = cache.get(fields);
    if (v == null) {
      v = cache.computeIfAbsent(Collections.unmodifiableSet(new TreeSet<>(fields)), make);
    }
    return v;
  }

  private static String columns(Set<String> sortedFields) {
    StringBuilder sb = new StringBuilder();
    for (String f : sortedFields) {
      sb.append(sb.length() == 0 ? "" : ", ").append(quote(f));
    }
    return sb.toString();
  }

  /** Field names come from workload properties; quoting keeps any name a valid identifier. */
  static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }
}
