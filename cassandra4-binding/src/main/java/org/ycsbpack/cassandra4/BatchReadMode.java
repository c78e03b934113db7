package org.ycsbpack.cassandra4;

/** How a batch of reads runs ({@code cassandra.batchread}). */
enum BatchReadMode {
  /** One {@code SELECT ... WHERE y_id IN ?} statement, as the reports did. */
  IN,
  /** Concurrent single-partition reads, the driver's advice. */
  ASYNC
}
