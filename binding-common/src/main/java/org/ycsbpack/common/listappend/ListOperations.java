package org.ycsbpack.common.listappend;

import java.util.List;
import java.util.Map;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.Status;

/**
 * Per-key lists for {@link ListAppendWorkload} (the anti-fraud history of scenario S1): append
 * one element with a time to live, read a whole list. A binding publishes its implementation
 * with {@link ListBindings#publish} in init().
 */
public interface ListOperations {
  /**
   * Makes sure the list table exists: creates it when the binding was asked to create schema,
   * otherwise returns a sentence saying how to create it. Null when the table is ready.
   */
  String prepareListTable(String table);

  /** Appends {@code element} to the list of (key, type); the element expires after ttlSeconds. */
  Status append(String table, String key, String type, String element, int ttlSeconds);

  /** Reads the whole list of (key, type) into {@code out}, oldest first; NOT_FOUND when empty. */
  Status readList(String table, String key, String type, List<String> out);

  /** One append per key ({@code elements.get(i)} to {@code keys.get(i)}) in one request. */
  BatchResult batchAppend(String table, List<String> keys, String type, List<String> elements,
                          int ttlSeconds);

  /** The lists of several keys in one request; absent lists count as missing. */
  BatchResult batchReadList(String table, List<String> keys, String type,
                            Map<String, List<String>> out);

  /** Total number of list elements stored for {@code type} (a full scan: for checks only). */
  long countElements(String table, String type);
}
