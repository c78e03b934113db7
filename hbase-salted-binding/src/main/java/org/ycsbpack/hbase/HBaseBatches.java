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
        gets.add(HBaseSaltedClient.getOf(settings, key, fields));
      }
    } catch (IllegalArgumentException e) {
      return BatchResult.allFailed(keys.size(),
          errors.failed(Status.BAD_REQUEST, "BATCH_READ", keys.get(0) + "...", e));
    }
    Object[] outcomes = run(table, gets);
    int ok = 0;
    int missing = 0;
    int failed = 0;
    Status firstError = null;
    for (int i = 0; i < keys.size(); i++) {
      Object outcome = outcomes[i];
      if (outcome instanceof Result) {
        Result row = (Result) outcome;
        if (row.isEmpty()) {
          missing++;
        } else {
          Map<String, ByteIterator> values = new HashMap<>();
          HBaseSaltedClient.copyFields(row, settings.family, values);
          result.put(keys.get(i), values);
          ok++;
        }
      } else {
        failed++;
        Status s = failure(errors, "BATCH_READ", keys.get(i), outcome);
        firstError = firstError == null ? s : firstError;
      }
    }
    return BatchResult.of(ok, missing, failed, firstError);
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
        puts.add(HBaseSaltedClient.putOf(settings, operation, keys.get(i), values.get(i)));
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
    Object[] outcomes = "mutator".equals(settings.batchWrite) ? viaMutator(puts)
        : run(table, puts);
    return writeOutcomes(batchOperation, keys, outcomes, errors);
  }

  /** Counts the outcomes of a batch of writes: a Result per written row, else its failure. */
  static BatchResult writeOutcomes(String operation, List<String> keys, Object[] outcomes,
                                   ErrorLog errors) {
    int ok = 0;
    int failed = 0;
    Status firstError = null;
    for (int i = 0; i < keys.size(); i++) {
      if (outcomes[i] instanceof Result) {
        ok++;
      } else {
        failed++;
        Status s = failure(errors, operation, keys.get(i), outcomes[i]);
        firstError = firstError == null ? s : firstError;
      }
    }
    return BatchResult.of(ok, 0, failed, firstError);
  }

  /**
   * Runs the batch; each slot of the answer holds the row's Result, or the Throwable (or null)
   * of a row that failed. Table.batch fills the slots before it throws for the failed rows.
   */
  static Object[] run(Table table, List<Row> actions) {
    Object[] outcomes = new Object[actions.size()];
    try {
      table.batch(actions, outcomes);
    } catch (IOException e) {
      // the failed rows' slots say why; a slot left empty failed with this exception
      for (int i = 0; i < outcomes.length; i++) {
        if (outcomes[i] == null) {
          outcomes[i] = e;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      for (int i = 0; i < outcomes.length; i++) {
        if (!(outcomes[i] instanceof Result)) {
          outcomes[i] = e;
        }
      }
    }
    return outcomes;
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

  /** The status of a row that failed in a batch (its Throwable, or null for no answer). */
  static Status failure(ErrorLog errors, String operation, String key, Object outcome) {
    Throwable error = outcome instanceof Throwable ? (Throwable) outcome
        : new IOException("no result for this row");
    return errors.failed(HBaseErrors.statusOf(error), operation, key, error);
  }
}
