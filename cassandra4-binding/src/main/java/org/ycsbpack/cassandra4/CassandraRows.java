package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * YCSB rows to and from CQL: the statements that write one row and the copy of a read row's
 * fields. Field values live in {@code text} columns as ISO-8859-1, which maps every byte to one
 * character, so whatever bytes a workload writes are read back identical. The single
 * operations and the batches both use it; it uses neither.
 */
final class CassandraRows {
  private CassandraRows() {
  }

  /** INSERT of one row, fields in name order (one prepared statement per field set). */
  static BoundStatement insert(CqlStatements statements, String key,
                               Map<String, ByteIterator> values) {
    TreeMap<String, ByteIterator> sorted = new TreeMap<>(values);
    BoundStatementBuilder b = statements.insert(new ArrayList<>(sorted.keySet()))
        .boundStatementBuilder();
    b.setString(0, key);
    int i = 1;
    for (ByteIterator v : sorted.values()) {
      b.setString(i++, text(v));
    }
    return b.build();
  }

  /** UPDATE of the given fields of one row, fields in name order. */
  static BoundStatement update(CqlStatements statements, String key,
                               Map<String, ByteIterator> values) {
    TreeMap<String, ByteIterator> sorted = new TreeMap<>(values);
    BoundStatementBuilder b = statements.update(new ArrayList<>(sorted.keySet()))
        .boundStatementBuilder();
    int i = 0;
    for (ByteIterator v : sorted.values()) {
      b.setString(i++, text(v));
    }
    b.setString(i, key);
    return b.build();
  }

  /** The row's field columns (every column but the key) into {@code into}, as their bytes. */
  static void copyFields(Row row, Map<String, ByteIterator> into) {
    int i = 0;
    for (ColumnDefinition column : row.getColumnDefinitions()) {
      String name = column.getName().asInternal();
      if (!CqlStatements.KEY.equals(name)) {
        String value = row.getString(i);
        if (value != null) {
          into.put(name, new ByteArrayByteIterator(value.getBytes(StandardCharsets.ISO_8859_1)));
        }
      }
      i++;
    }
  }

  private static String text(ByteIterator value) {
    return new String(value.toArray(), StandardCharsets.ISO_8859_1);
  }
}
