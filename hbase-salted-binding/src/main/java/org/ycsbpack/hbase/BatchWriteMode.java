package org.ycsbpack.hbase;

/** How BatchedWorkload's batch writes are sent ({@code hbase.batchwrite}). */
enum BatchWriteMode {
  /** One {@code Table.batch} call: the report's {@code table.put(List<Put>)}. */
  BATCH,
  /** The Puts into a per-thread BufferedMutator of their own, then {@code flush()}. */
  MUTATOR
}
