package org.ycsbpack.common.batch;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.ycsbpack.common.YcsbCore;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;

/**
 * Measures an operation that a workload performs itself (YCSB's DBWrapper only measures the five
 * DB methods): latency, intended latency (from the -target schedule), and status; for batches
 * also one status per record under {@code <OP>-RECORDS}.
 *
 * <p>YCSB 0.17's {@code Measurements.reportStatus} keeps a status count only inside a latency
 * measurement of the same name (its map of them is private), so every {@code <OP>-RECORDS} block
 * also prints {@code Count=0} in the status lines and {@code Operations, 0} with empty latencies
 * in the final report. They cannot be left out through YCSB's API; {@link #RECORDS_NOTICE}, printed
 * once before the first batch, tells the reader of the output to ignore them.
 */
public final class OperationMeasurement {
  /** Suffix of the companion metric that counts a batch's records by status. */
  public static final String RECORDS_SUFFIX = "-RECORDS";
  /** Said once per JVM on stderr, where the status lines with those empty latencies go. */
  public static final String RECORDS_NOTICE = "INFO ycsbpack: [<OP>-RECORDS] counts the records "
      + "of each batch by status (records/s = its Return=OK / run time); its latency figures "
      + "(Count=0, Operations 0, Max/Min/Avg) are always empty, by YCSB's design: ignore them "
      + "(README, \"Batched operations\", \"Reading the output\")";
  private static final AtomicBoolean NOTICE_SAID = new AtomicBoolean();

  private OperationMeasurement() {
  }

  /** Times a single operation and reports its latency and status under {@code operation}. */
  public static Status single(String operation, Supplier<Status> op) {
    Measurements m = Measurements.getMeasurements();
    long intendedStart = YcsbCore.intendedStartTimeNs(m);
    long start = System.nanoTime();
    Status s = op.get();
    report(m, operation, intendedStart, start, System.nanoTime(), s);
    return s;
  }

  /** Times a batch; reports it as one operation plus per-record statuses. */
  public static BatchResult batch(String operation, Supplier<BatchResult> op) {
    if (!NOTICE_SAID.get() && NOTICE_SAID.compareAndSet(false, true)) {
      System.err.println(RECORDS_NOTICE);
    }
    Measurements m = Measurements.getMeasurements();
    long intendedStart = YcsbCore.intendedStartTimeNs(m);
    long start = System.nanoTime();
    BatchResult r = op.get();
    report(m, operation, intendedStart, start, System.nanoTime(), r.status());
    String records = operation + RECORDS_SUFFIX;
    for (int i = 0; i < r.ok(); i++) {
      m.reportStatus(records, Status.OK);
    }
    for (int i = 0; i < r.missing(); i++) {
      m.reportStatus(records, Status.NOT_FOUND);
    }
    for (int i = 0; i < r.failed(); i++) {
      m.reportStatus(records, r.status());
    }
    return r;
  }

  /**
   * As YCSB's DBWrapper does for its five operations: the latency of a failed operation goes to
   * {@code <OP>-FAILED}, so status lines and .hdr logs show failures over time (a node failure
   * in S2's fault phase); the status is counted under the operation itself.
   */
  private static void report(Measurements m, String operation, long intendedStart, long start,
                             long end, Status status) {
    String measured = status != null && status.isOk() ? operation : operation + "-FAILED";
    m.measure(measured, (int) ((end - start) / 1000));
    // without -target YCSB sets no intended start; the operation's own start stands in
    m.measureIntended(measured, (int) ((end - (intendedStart == 0 ? start : intendedStart))
        / 1000));
    m.reportStatus(operation, status);
  }
}
