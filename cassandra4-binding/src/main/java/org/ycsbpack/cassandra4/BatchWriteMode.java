package org.ycsbpack.cassandra4;

import com.datastax.oss.driver.api.core.cql.DefaultBatchType;

/** How a batch of writes runs ({@code cassandra.batchwrite}). */
enum BatchWriteMode {
  /** One UNLOGGED BATCH statement. */
  UNLOGGED(DefaultBatchType.UNLOGGED),
  /** One LOGGED BATCH statement (atomic through the batch log). */
  LOGGED(DefaultBatchType.LOGGED),
  /** Concurrent single statements, each counted on its own. */
  ASYNC(null);

  private final DefaultBatchType batchType;

  BatchWriteMode(DefaultBatchType batchType) {
    this.batchType = batchType;
  }

  /** The BATCH statement type, or null for {@link #ASYNC}, which sends no BATCH. */
  DefaultBatchType batchType() {
    return batchType;
  }
}
