package org.ycsbpack.common.batch;

import java.util.List;
import java.util.Map;
import java.util.Set;
import site.ycsb.ByteIterator;

/**
 * Multi-key operations a binding offers to {@link BatchedWorkload}: one call, many records, one
 * round trip where the database allows it. A binding publishes itself with
 * {@link BatchBindings#publish} in init(); without it the workload falls back to single
 * operations.
 */
public interface BatchOperations {
  /**
   * Reads the given keys; puts the found rows into {@code result} by key. Missing keys are
   * counted as {@link BatchResult#missing()}, not as failures.
   */
  BatchResult batchRead(String table, List<String> keys, Set<String> fields,
                        Map<String, Map<String, ByteIterator>> result);

  /** Inserts one row per key; {@code values.get(i)} belongs to {@code keys.get(i)}. */
  BatchResult batchInsert(String table, List<String> keys, List<Map<String, ByteIterator>> values);

  /** Updates one row per key; {@code values.get(i)} belongs to {@code keys.get(i)}. */
  BatchResult batchUpdate(String table, List<String> keys, List<Map<String, ByteIterator>> values);
}
