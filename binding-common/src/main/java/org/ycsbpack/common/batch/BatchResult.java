package org.ycsbpack.common.batch;

import site.ycsb.Status;

/**
 * Outcome of one batch: a status for the batch as a whole and how many of its records were done
 * ({@code ok}), absent ({@code missing}, reads only) or failed. The counts make records/s exact
 * when some keys of a batch are missing or some writes fail.
 */
public final class BatchResult {
  private final Status status;
  private final int ok;
  private final int missing;
  private final int failed;

  private BatchResult(Status status, int ok, int missing, int failed) {
    this.status = status;
    this.ok = ok;
    this.missing = missing;
    this.failed = failed;
  }

  /**
   * The batch status follows its records: OK when every record was done or found missing,
   * otherwise {@code firstError} (the status of the first record that failed).
   */
  public static BatchResult of(int ok, int missing, int failed, Status firstError) {
    Status s = failed == 0 ? Status.OK : (firstError == null ? Status.ERROR : firstError);
    return new BatchResult(s, ok, missing, failed);
  }

  /** The whole batch failed with one status (e.g. a rejected BATCH statement). */
  public static BatchResult allFailed(int records, Status status) {
    return new BatchResult(status, 0, 0, records);
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

  @Override
  public String toString() {
    return status.getName() + " ok=" + ok + " missing=" + missing + " failed=" + failed;
  }
}
