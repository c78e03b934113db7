package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.charset.StandardCharsets;
import java.util.Map;
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

  /** INSERT of one row (one prepared statement per field set), to be built by the caller. */
  static BoundStatementBuilder insert(CqlStatements statements, String key,
                                      Map<String, ByteIterator> values) {
    CqlStatements.FieldStatement s = statements.insert(values.keySet());
    BoundStatementBuilder b = s.statement.boundStatementBuilder();
    b.setString(0, key);
    for (int i = 0; i < s.fields.length; i++) {
      b.setString(i + 1, text(values.get(s.fields[i])));
    }
    return b;
  }

  /** UPDATE of the given fields of one row. */
  static BoundStatementBuilder update(CqlStatements statements, String key,
                                      Map<String, ByteIterator> values) {
    CqlStatements.FieldStatement s = statements.update(values.keySet());
    BoundStatementBuilder b = s.statement.boundStatementBuilder();
    for (int i = 0; i < s.fields.length; i++) {
      b.setString(i, text(values.get(s.fields[i])));
    }
    b.setString(s.fields.length, key);
    return b;
  }

  /** The row's field columns (every column but the key) into {@code into}, as their bytes. */
  static void copyFields(Row row, Map<String, ByteIterator> into) {
    ColumnDefinitions columns = row.getColumnDefinitions();
    for (int i = 0, n = columns.size(); i < n; i++) {
      String name = columns.get(i).getName().asInternal();
      if (!CqlStatements.KEY.equals(name)) {
        String value = row.getString(i);
        if (value != null) {
          into.put(name, new ByteArrayByteIterator(value.getBytes(StandardCharsets.ISO_8859_1)));
        }
      }
    }
  }

  private static String text(ByteIterator value) {
    return new String(value.toArray(), StandardCharsets.ISO_8859_1);
  }
}
