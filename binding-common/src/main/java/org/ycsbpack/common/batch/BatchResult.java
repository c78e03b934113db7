package org.ycsbpack.common.batch;

import java.util.Collections;
import java.util.List;
import site.ycsb.Status;

/**
 * Outcome of one batch: a status for the batch as a whole and how many of its records were done
 * ({@code ok}), absent ({@code missing}, reads only) or failed. The counts make records/s exact
 * when some keys of a batch are missing or some writes fail. A binding that learns each record's
 * outcome ({@link #ofRows}) also names the failed keys, so that the key log ({@link KeyLog}) can
 * say which keys of a partly failed batch were not done.
 */
public final class BatchResult {
  private final Status status;
  private final int ok;
  private final int missing;
  private final int failed;
  private final List<String> failedKeys;

  private BatchResult(Status status, int ok, int missing, int failed, List<String> failedKeys) {
    this.status = status;
    this.ok = ok;
    this.missing = missing;
    this.failed = failed;
    this.failedKeys = failedKeys;
  }

  /**
   * The batch status follows its records: OK when every record was done or found missing,
   * otherwise {@code firstError} (the status of the first record that failed).
   */
  public static BatchResult of(int ok, int missing, int failed, Status firstError) {
    return new BatchResult(status(failed, firstError), ok, missing, failed,
        failed == 0 ? Collections.emptyList() : null);
  }

  /** As {@link #of}, from each record's outcome: {@code failedKeys} are the keys that failed. */
  public static BatchResult ofRows(int ok, int missing, List<String> failedKeys,
                                   Status firstError) {
    return new BatchResult(status(failedKeys.size(), firstError), ok, missing,
        failedKeys.size(), failedKeys);
  }

  private static Status status(int failed, Status firstError) {
    return failed == 0 ? Status.OK : (firstError == null ? Status.ERROR : firstError);
  }

  /** The whole batch failed with one status (e.g. a rejected BATCH statement). */
  public static BatchResult allFailed(int records, Status status) {
    return new BatchResult(status, 0, 0, records, null);
  }

  public Status status() {
    return status;
  }

  public int ok() {
    return ok;
  }

  public int missing() {
    return missing;
  }

  public int failed() {
    return failed;
  }

  /**
   * The keys of {@code batch} (the keys this result is for) that failed, or null when some
   * failed and the binding did not say which.
   */
  public List<String> failedKeys(List<String> batch) {
    if (failedKeys != null) {
      return failedKeys;
    }
    return failed == batch.size() ? batch : null;
  }

  @Override
  public String toString() {
    return status.getName() + " ok=" + ok + " missing=" + missing + " failed=" + failed;
  }
}
