package org.ycsbpack.common.batch;

import java.util.function.Supplier;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;

/**
 * Measures an operation that a workload performs itself (YCSB's DBWrapper only measures the five
 * DB methods): latency, intended latency (from the -target schedule), and status; for batches
 * also one status per record under {@code <OP>-RECORDS}.
 */
public final class OperationMeasurement {
  private OperationMeasurement() {
  }

  /** Times a single operation and reports its latency and status under {@code operation}. */
  public static Status single(String operation, Supplier<Status> op) {
    Measurements m = Measurements.getMeasurements();
    long intendedStart = m.getIntendedtartTimeNs();
    long start = System.nanoTime();
    Status s = op.get();
    report(m, operation, intendedStart, start, System.nanoTime(), s);
    return s;
  }

  /** Times a batch; reports it as one operation plus per-record statuses. */
  public static BatchResult batch(String operation, Supplier<BatchResult> op) {
    Measurements m = Measurements.getMeasurements();
    long intendedStart = m.getIntendedtartTimeNs();
    long start = System.nanoTime();
    BatchResult r = op.get();
    report(m, operation, intendedStart, start, System.nanoTime(), r.status());
    String records = operation + BatchedWorkload.RECORDS_SUFFIX;
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

  private static void report(Measurements m, String operation, long intendedStart, long start,
                             long end, Status status) {
    m.measure(operation, (int) ((end - start) / 1000));
    // without -target YCSB sets no intended start; the operation's own start stands in
    m.measureIntended(operation, (int) ((end - (intendedStart == 0 ? start : intendedStart))
        / 1000));
    m.reportStatus(operation, status);
  }
}
