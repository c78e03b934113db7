package org.ycsbpack.hbase;

import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * YCSB rows to and from HBase: each field is one column (qualifier = field name) of the family
 * {@code columnfamily}, its value the exact bytes the workload wrote. The single operations and
 * the batches both use it; it uses neither.
 */
final class HBaseRows {
  private HBaseRows() {
  }

  /** The Get of a YCSB read: the whole family, or the given fields' columns. */
  static Get getOf(HBaseSettings s, String key, Set<String> fields) {
    Get get = new Get(s.rowKeys.rowKey(key));
    if (fields == null) {
      get.addFamily(s.family);
    } else {
      for (String field : fields) {
        get.addColumn(s.family, Bytes.toBytes(field));
      }
    }
    return get;
  }

  /**
   * The Put of a YCSB insert or update: one column per field, with hbase.durability. It
   * remembers its operation and key, for the count of a buffered write that fails later.
   */
  static Put putOf(HBaseSettings s, String operation, String key,
                   Map<String, ByteIterator> values) {
    Put put = new BufferedWrites.OperationPut(operation, key, s.rowKeys.rowKey(key));
    for (Map.Entry<String, ByteIterator> field : values.entrySet()) {
      put.addColumn(s.family, Bytes.toBytes(field.getKey()), field.getValue().toArray());
    }
    put.setDurability(s.durability);
    return put;
  }

  /**
   * The columns of {@code family} in a read row into {@code into}, as their bytes. Straight from
   * the Result's cells (sorted by family, qualifier, newest version first): no per-read
   * NavigableMap as Result.getFamilyMap builds, and for a qualifier with several versions the
   * newest, as getFamilyMap gives.
   */
  static void copyFields(Result row, byte[] family, Map<String, ByteIterator> into) {
    Cell[] cells = row.rawCells();
    if (cells == null) {
      return; // an empty Result has no cell array
    }
    Cell previous = null;
    for (Cell cell : cells) {
      if (!CellUtil.matchingFamily(cell, family)
          || previous != null && CellUtil.matchingQualifier(cell, previous)) {
        continue;
      }
      previous = cell;
      into.put(Bytes.toString(cell.getQualifierArray(), cell.getQualifierOffset(),
          cell.getQualifierLength()), new ByteArrayByteIterator(CellUtil.cloneValue(cell)));
    }
  }
}
