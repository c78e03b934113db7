package org.ycsbpack.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * YCSB rows to and from SQL parameters and result rows: the key is the {@code YCSB_KEY} string,
 * each field one column bound and read as bytes (MEDIUMBLOB in a created table), so every byte a
 * workload writes is read back identical. Fields go in name order, the order of the columns in
 * {@link SqlStatements}' cached statements. The single operations and the batches both use it;
 * it uses neither.
 */
final class JdbcRows {
  private JdbcRows() {
  }

  /** The fields of a read, sorted as its cached statement lists them; null (all) stays null. */
  static List<String> fieldList(Set<String> fields) {
    return fields == null ? null : new ArrayList<>(new TreeSet<>(fields));
  }

  /**
   * Binds one row of an INSERT from parameter {@code first}: the key, then the values in the
   * map's order; returns the next parameter index, where a multi-row INSERT's next row starts.
   */
  static int bindInsert(PreparedStatement st, int first, String key,
                        TreeMap<String, ByteIterator> values) throws SQLException {
    int i = first;
    st.setString(i++, key);
    for (ByteIterator v : values.values()) {
      st.setBytes(i++, v.toArray());
    }
    return i;
  }

  /** Binds a single-row UPDATE: the values in the map's order, then the key. */
  static void bindUpdate(PreparedStatement st, String key, TreeMap<String, ByteIterator> values)
      throws SQLException {
    int i = 1;
    for (ByteIterator v : values.values()) {
      st.setBytes(i++, v.toArray());
    }
    st.setString(i, key);
  }

  /**
   * Every column but the key of the current row into {@code into}; SQL NULLs (fields never
   * written) are left out. Returns the row's key.
   */
  static String copyFields(ResultSet rs, Map<String, ByteIterator> into) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    String key = null;
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      String name = meta.getColumnLabel(i);
      if (SqlStatements.KEY.equalsIgnoreCase(name)) {
        key = rs.getString(i);
      } else {
        byte[] value = rs.getBytes(i);
        if (value != null) {
          into.put(name, new ByteArrayByteIterator(value));
        }
      }
    }
    return key;
  }
}
