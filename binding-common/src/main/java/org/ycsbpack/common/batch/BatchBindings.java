package org.ycsbpack.common.batch;

/**
 * How a workload reaches the binding behind YCSB's DBWrapper: YCSB calls a client thread's
 * DB.init() and then the workload's operations on that same thread, so a binding that publishes
 * itself here in init() is found by the workload on that thread.
 */
public final class BatchBindings {
  private static final ThreadLocal<BatchOperations> CURRENT = new ThreadLocal<>();

  private BatchBindings() {
  }

  public static void publish(BatchOperations ops) {
    CURRENT.set(ops);
  }

  public static void clear() {
    CURRENT.remove();
  }

  /** The binding of this client thread, or null when it offers no batching. */
  public static BatchOperations current() {
    return CURRENT.get();
  }
}
