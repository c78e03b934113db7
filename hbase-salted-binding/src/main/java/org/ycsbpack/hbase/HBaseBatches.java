package org.ycsbpack.hbase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Table;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.batch.BatchOperations;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.ByteIterator;
import site.ycsb.Status;

/**
 * BatchedWorkload's multi-key operations as the comparison report (S2) ran them on HBase:
 * {@code table.get(List<Get>)} and {@code table.put(List<Put>)}, here both through
 * {@link Table#batch}, which groups the rows per region server and reports each row's outcome,
 * so a partly failed batch counts exactly. With {@code hbase.batchwrite=mutator} batch writes go
 * through a BufferedMutator of their own instead ({@code mutate(List)}, then {@code flush()}),
 * whose listener hands back each failed row. Batch writes are sent at once even with
 * {@code hbase.clientbuffering=true} (a batch is its own buffer); the thread's buffered writes
 * are flushed first so a batch never overtakes them.
 */
final class HBaseBatches implements BatchOperations, AutoCloseable {
  private final Connection connection;
  private final Table table;
  private final HBaseSettings settings;
  private final BufferedWrites buffered;
  private final ErrorLog errors;
  /** hbase.batchwrite=mutator: opened by the first batch write, failures of the last flush. */
  private BufferedMutator mutator;
  private final List<RetriesExhaustedWithDetailsException> mutatorFailures = new ArrayList<>();

  HBaseBatches(Connection connection, Table table, HBaseSettings settings,
               BufferedWrites buffered, ErrorLog errors) {
    this.connection = connection;
    this.table = table;
    this.settings = settings;
    this.buffered = buffered;
    this.errors = errors;
  }

  @Override
  public BatchResult batchRead(String tableName, List<String> keys, Set<String> fields,
                               Map<String, Map<String, ByteIterator>> result) {
    List<Row> gets = new ArrayList<>(keys.size());
    try {
      for (String key : keys) {
        gets.add(HBaseRows.getOf(settings, key, fields));
      }
    } catch (IllegalArgumentException e) {
      return BatchResult.allFailed(keys.size(),
          errors.failed(Status.BAD_REQUEST, "BATCH_READ", keys.get(0) + "...", e));
    }
    return BatchOutcomes.reads("BATCH_READ", keys, BatchOutcomes.run(table, gets), errors,
        (i, row) -> {
          Map<String, ByteIterator> values = new HashMap<>();
          HBaseRows.copyFields(row, settings.family, values);
          result.put(keys.get(i), values);
        });
  }

  @Override
  public BatchResult batchInsert(String tableName, List<String> keys,
                                 List<Map<String, ByteIterator>> values) {
    return write("BATCH_INSERT", "INSERT", keys, values);
  }

  @Override
  public BatchResult batchUpdate(String tableName, List<String> keys,
                                 List<Map<String, ByteIterator>> values) {
    return write("BATCH_UPDATE", "UPDATE", keys, values);
  }

  private BatchResult write(String batchOperation, String operation, List<String> keys,
                            List<Map<String, ByteIterator>> values) {
    List<Row> puts = new ArrayList<>(keys.size());
    try {
      for (int i = 0; i < keys.size(); i++) {
        puts.add(HBaseRows.putOf(settings, operation, keys.get(i), values.get(i)));
      }
      if (buffered != null) {
        buffered.flush();
      }
    } catch (IllegalArgumentException e) {
      return BatchResult.allFailed(keys.size(),
          errors.failed(Status.BAD_REQUEST, batchOperation, keys.get(0) + "...", e));
    } catch (IOException e) {
      return BatchResult.allFailed(keys.size(), errors.failed(HBaseErrors.statusOf(e),
          batchOperation, keys.get(0) + "...", e));
    }
    Object[] outcomes = settings.batchWrite == BatchWriteMode.MUTATOR ? viaMutator(puts)
        : BatchOutcomes.run(table, puts);
    return BatchOutcomes.writes(batchOperation, keys, outcomes, errors);
  }

  /**
   * Sends the Puts through this thread's batch BufferedMutator and flushes it; a slot holds
   * {@link Result#EMPTY_RESULT} for a written row (as Table.batch gives for a Put), or why the
   * row failed.
   */
  private Object[] viaMutator(List<Row> puts) {
    Object[] outcomes = new Object[puts.size()];
    Map<Row, Integer> slot = new IdentityHashMap<>();
    List<Mutation> mutations = new ArrayList<>(puts.size());
    for (int i = 0; i < puts.size(); i++) {
      slot.put(puts.get(i), i);
      mutations.add((Mutation) puts.get(i));
    }
    mutatorFailures.clear();
    try {
      if (mutator == null) {
        mutator = connection.getBufferedMutator(new BufferedMutatorParams(settings.table)
            .writeBufferSize(settings.writeBufferSize)
            .listener((e, from) -> mutatorFailures.add(e)));
      }
      mutator.mutate(mutations);
      mutator.flush();
    } catch (IOException e) {
      Arrays.fill(outcomes, e);
      return outcomes;
    }
    for (RetriesExhaustedWithDetailsException e : mutatorFailures) {
      for (int i = 0; i < e.getNumExceptions(); i++) {
        Integer at = slot.get(e.getRow(i));
        if (at != null) {
          outcomes[at] = e.getCause(i);
        }
      }
    }
    for (int i = 0; i < outcomes.length; i++) {
      outcomes[i] = outcomes[i] == null ? Result.EMPTY_RESULT : outcomes[i];
    }
    return outcomes;
  }

  @Override
  public void close() throws IOException {
    if (mutator != null) {
      mutator.close();
      mutator = null;
    }
  }
}
