package org.ycsbpack.common.batch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * Test support: a YCSB DB that keeps rows in memory and notes every call, with batch operations
 * that a test can publish or not; a batch write of a key listed in {@link #failing} fails.
 */
final class InMemoryDb extends DB implements BatchOperations {
  final Map<String, Map<String, ByteIterator>> rows = new TreeMap<>();
  final List<String> singleCalls = new ArrayList<>();
  final List<List<String>> batchCalls = new ArrayList<>();
  final List<String> deleted = new ArrayList<>();
  final Set<String> failing = new HashSet<>();

  @Override
  public Status read(String table, String key, Set<String> fields,
                     Map<String, ByteIterator> result) {
    singleCalls.add("READ " + key);
    Map<String, ByteIterator> row = rows.get(key);
    if (row == null) {
      return Status.NOT_FOUND;
    }
    result.putAll(row);
    return Status.OK;
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                     Vector<HashMap<String, ByteIterator>> result) {
    singleCalls.add("SCAN " + startkey);
    return Status.NOT_IMPLEMENTED;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    singleCalls.add("UPDATE " + key);
    rows.computeIfAbsent(key, k -> new HashMap<>()).putAll(values);
    return Status.OK;
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    singleCalls.add("INSERT " + key);
    rows.put(key, new HashMap<>(values));
    return Status.OK;
  }

  @Override
  public Status delete(String table, String key) {
    singleCalls.add("DELETE " + key);
    deleted.add(key);
    return rows.remove(key) == null ? Status.NOT_FOUND : Status.OK;
  }

  @Override
  public BatchResult batchRead(String table, List<String> keys, Set<String> fields,
                               Map<String, Map<String, ByteIterator>> result) {
    batchCalls.add(new ArrayList<>(keys));
    int found = 0;
    for (String key : keys) {
      if (rows.containsKey(key)) {
        result.put(key, rows.get(key));
        found++;
      }
    }
    return BatchResult.of(found, keys.size() - found, 0, null);
  }

  @Override
  public BatchResult batchInsert(String table, List<String> keys,
                                 List<Map<String, ByteIterator>> values) {
    return write(keys, values);
  }

  @Override
  public BatchResult batchUpdate(String table, List<String> keys,
                                 List<Map<String, ByteIterator>> values) {
    return write(keys, values);
  }

  private BatchResult write(List<String> keys, List<Map<String, ByteIterator>> values) {
    batchCalls.add(new ArrayList<>(keys));
    int failed = 0;
    for (int i = 0; i < keys.size(); i++) {
      if (failing.contains(keys.get(i))) {
        failed++;
      } else {
        rows.put(keys.get(i), new HashMap<>(values.get(i)));
      }
    }
    return BatchResult.of(keys.size() - failed, 0, failed, Status.SERVICE_UNAVAILABLE);
  }
}
