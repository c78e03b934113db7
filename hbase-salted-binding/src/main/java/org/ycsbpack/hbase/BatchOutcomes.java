package org.ycsbpack.hbase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Table;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.Status;

/**
 * One {@link Table#batch} call and the count of its per-row outcomes, for every kind of HBase
 * batch (rows of BatchedWorkload, list appends and reads of ListAppendWorkload): a slot holds
 * the row's Result, or why the row failed.
 */
final class BatchOutcomes {
  private BatchOutcomes() {
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

  /** Counts the outcomes of a batch of writes: a Result per written row, else its failure. */
  static BatchResult writes(String operation, List<String> keys, Object[] outcomes,
                            ErrorLog errors) {
    int ok = 0;
    List<String> failed = new ArrayList<>();
    Status firstError = null;
    for (int i = 0; i < keys.size(); i++) {
      if (outcomes[i] instanceof Result) {
        ok++;
      } else {
        failed.add(keys.get(i));
        Status s = failure(errors, operation, keys.get(i), outcomes[i]);
        firstError = firstError == null ? s : firstError;
      }
    }
    return BatchResult.ofRows(ok, 0, failed, firstError);
  }

  /** What a batch of reads does with each row found: keeps it under its key. */
  interface Found {
    void row(int index, Result row);
  }

  /**
   * Counts the outcomes of a batch of reads: an empty Result is a missing row, any other Result
   * a row found (handed to {@code found}), anything else a failure.
   */
  static BatchResult reads(String operation, List<String> keys, Object[] outcomes,
                           ErrorLog errors, Found found) {
    int ok = 0;
    int missing = 0;
    List<String> failed = new ArrayList<>();
    Status firstError = null;
    for (int i = 0; i < keys.size(); i++) {
      if (outcomes[i] instanceof Result) {
        Result row = (Result) outcomes[i];
        if (row.isEmpty()) {
          missing++;
        } else {
          found.row(i, row);
          ok++;
        }
      } else {
        failed.add(keys.get(i));
        Status s = failure(errors, operation, keys.get(i), outcomes[i]);
        firstError = firstError == null ? s : firstError;
      }
    }
    return BatchResult.ofRows(ok, missing, failed, firstError);
  }

  /** The status of a row that failed in a batch (its Throwable, or null for no answer). */
  static Status failure(ErrorLog errors, String operation, String key, Object outcome) {
    Throwable error = outcome instanceof Throwable ? (Throwable) outcome
        : new IOException("no result for this row");
    return errors.failed(HBaseErrors.statusOf(error), operation, key, error);
  }
}
