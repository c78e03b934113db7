package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.batch.BatchOperations;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.ByteIterator;
import site.ycsb.Status;

/**
 * Batch operations of the cassandra4 binding, in the modes the reports and the driver's own
 * advice compare: one {@code IN} query or concurrent single reads ({@code cassandra.batchread});
 * a logged/unlogged {@code BATCH} or concurrent single writes ({@code cassandra.batchwrite}).
 */
final class CassandraBatches implements BatchOperations {
  private final CassandraConnection connection;
  private final CassandraSettings settings;
  private final ErrorLog errors;

  CassandraBatches(CassandraConnection connection, CassandraSettings settings, ErrorLog errors) {
    this.connection = connection;
    this.settings = settings;
    this.errors = errors;
  }

  @Override
  public BatchResult batchRead(String table, List<String> keys, Set<String> fields,
                               Map<String, Map<String, ByteIterator>> result) {
    if (settings.batchRead == BatchReadMode.ASYNC) {
      return readAsync(keys, fields, result);
    }
    try {
      BoundStatement in = connection.statements.readIn(fields).boundStatementBuilder(keys)
          .setConsistencyLevel(settings.readCl).build();
      for (Row row : connection.session.execute(in)) {
        Map<String, ByteIterator> values = new HashMap<>();
        CassandraRows.copyFields(row, values);
        result.put(row.getString(CqlStatements.KEY), values);
      }
      int found = Math.min(result.size(), keys.size());
      return BatchResult.of(found, keys.size() - found, 0, null);
    } catch (RuntimeException e) {
      return refused("BATCH_READ", keys, e);
    }
  }

  /**
   * A batch that failed as a whole: the server refused to prepare its statement (an unknown
   * column) or to run its one IN query; none of its records was done.
   */
  private BatchResult refused(String operation, List<String> keys, RuntimeException e) {
    Status s = errors.failed(DriverErrors.statusOf(e), operation, keys.get(0) + "...", e);
    return BatchResult.allFailed(keys.size(), s);
  }

  private BatchResult readAsync(List<String> keys, Set<String> fields,
                                Map<String, Map<String, ByteIterator>> result) {
    List<BoundStatement> reads = new ArrayList<>(keys.size());
    try {
      for (String key : keys) {
        reads.add(connection.statements.read(fields).boundStatementBuilder(key)
            .setConsistencyLevel(settings.readCl).build());
      }
    } catch (RuntimeException e) {
      return refused("BATCH_READ", keys, e);
    }
    return ConcurrentRequests.execute(connection.session, reads, keys, "BATCH_READ", errors,
        (i, response) -> {
          Row row = response.one();
          if (row == null) {
            return false;
          }
          Map<String, ByteIterator> values = new HashMap<>();
          CassandraRows.copyFields(row, values);
          result.put(keys.get(i), values);
          return true;
        });
  }

  @Override
  public BatchResult batchInsert(String table, List<String> keys,
                                 List<Map<String, ByteIterator>> values) {
    return write("BATCH_INSERT", keys, i -> CassandraRows.insert(connection.statements,
        keys.get(i), values.get(i)).build());
  }

  @Override
  public BatchResult batchUpdate(String table, List<String> keys,
                                 List<Map<String, ByteIterator>> values) {
    return write("BATCH_UPDATE", keys, i -> CassandraRows.update(connection.statements,
        keys.get(i), values.get(i)).build());
  }

  private BatchResult write(String operation, List<String> keys,
                            Function<Integer, BoundStatement> statement) {
    List<BoundStatement> writes = new ArrayList<>(keys.size());
    try {
      for (int i = 0; i < keys.size(); i++) {
        writes.add(statement.apply(i));
      }
    } catch (RuntimeException e) {
      return refused(operation, keys, e);
    }
    return BatchWrites.execute(connection.session, settings.batchWrite, settings.writeCl, writes,
        keys, operation, errors);
  }
}
