package org.ycsbpack.common.batch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * The fallback for a binding without {@link BatchOperations} (e.g. YCSB's BasicDB): a batch is
 * its records done one by one through YCSB's DB interface. They then also show up as single
 * READ/INSERT/UPDATE operations in the report.
 */
final class SingleOperationBatches implements BatchOperations {
  private final DB db;

  SingleOperationBatches(DB db) {
    this.db = db;
  }

  @Override
  public BatchResult batchRead(String table, List<String> keys, Set<String> fields,
                               Map<String, Map<String, ByteIterator>> result) {
    int ok = 0;
    int missing = 0;
    List<String> failed = new ArrayList<>();
    Status firstError = null;
    for (String key : keys) {
      HashMap<String, ByteIterator> row = new HashMap<>();
      Status s = db.read(table, key, fields, row);
      if (s.isOk()) {
        ok++;
        result.put(key, row);
      } else if (Status.NOT_FOUND.equals(s)) {
        missing++;
      } else {
        failed.add(key);
        firstError = firstError == null ? s : firstError;
      }
    }
    return BatchResult.ofRows(ok, missing, failed, firstError);
  }

  @Override
  public BatchResult batchInsert(String table, List<String> keys,
                                 List<Map<String, ByteIterator>> values) {
    return write(table, keys, values, true);
  }

  @Override
  public BatchResult batchUpdate(String table, List<String> keys,
                                 List<Map<String, ByteIterator>> values) {
    return write(table, keys, values, false);
  }

  private BatchResult write(String table, List<String> keys,
                            List<Map<String, ByteIterator>> values, boolean insert) {
    int ok = 0;
    List<String> failed = new ArrayList<>();
    Status firstError = null;
    for (int i = 0; i < keys.size(); i++) {
      Status s = insert ? db.insert(table, keys.get(i), values.get(i))
          : db.update(table, keys.get(i), values.get(i));
      if (s.isOk()) {
        ok++;
      } else {
        failed.add(keys.get(i));
        firstError = firstError == null ? s : firstError;
      }
    }
    return BatchResult.ofRows(ok, 0, failed, firstError);
  }
}
