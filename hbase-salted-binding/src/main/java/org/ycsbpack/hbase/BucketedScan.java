package org.ycsbpack.hbase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A YCSB scan (the first {@code count} records at or after a start key, in key order) over a
 * salted table. With {@code buckets:N} the rows of one key range are spread over N prefixes, so
 * each bucket is scanned from {@code bucket ++ startkey} to the next bucket, and the N sorted
 * streams are merged by the unsalted key: the result is what one scan of an unsalted table
 * would return. Each bucket's scan is limited to {@code count} rows, so at most N x count rows
 * are read for count returned. With {@code none} it is one plain scan. A salt with more prefixes
 * than that is worth ({@code crc32}: see {@link SaltedRowKey#scansInKeyOrder()}) is refused
 * before this is reached.
 */
final class BucketedScan {
  private BucketedScan() {
  }

  static List<Result> scan(Table table, SaltedRowKey keys, byte[] family, Set<String> fields,
                           String startKey, int count) throws IOException {
    List<Result> out = new ArrayList<>(Math.min(count, 10_000));
    if (count <= 0) {
      return out;
    }
    if (keys.mode() == SaltedRowKey.Mode.NONE) {
      try (ResultScanner scanner = table.getScanner(
          scanOf(family, fields, count).withStartRow(keys.rowKey(startKey)))) {
        for (Result r = scanner.next(); r != null && out.size() < count; r = scanner.next()) {
          out.add(r);
        }
      }
      return out;
    }
    int prefix = keys.prefixLength();
    PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> Bytes.compareTo(
        a.row.getRow(), prefix, a.row.getRow().length - prefix,
        b.row.getRow(), prefix, b.row.getRow().length - prefix));
    List<ResultScanner> scanners = new ArrayList<>();
    try {
      for (int bucket = 0; bucket < keys.prefixCount(); bucket++) {
        Scan scan = scanOf(family, fields, count)
            .withStartRow(keys.rowKeyInPrefix(bucket, startKey));
        if (bucket + 1 < 256) {
          scan.withStopRow(new byte[] {(byte) (bucket + 1)});
        }
        ResultScanner scanner = table.getScanner(scan);
        scanners.add(scanner);
        Result first = scanner.next();
        if (first != null) {
          heads.add(new Head(first, scanner));
        }
      }
      while (out.size() < count && !heads.isEmpty()) {
        Head smallest = heads.poll();
        out.add(smallest.row);
        Result next = smallest.scanner.next();
        if (next != null) {
          heads.add(new Head(next, smallest.scanner));
        }
      }
      return out;
    } finally {
      for (ResultScanner s : scanners) {
        s.close();
      }
    }
  }

  private static Scan scanOf(byte[] family, Set<String> fields, int count) {
    Scan scan = new Scan().setLimit(count).setCaching(Math.min(count, 1000));
    if (fields == null) {
      scan.addFamily(family);
    } else {
      for (String f : fields) {
        scan.addColumn(family, Bytes.toBytes(f));
      }
    }
    return scan;
  }

  /** The next row of one bucket's scan. */
  private static final class Head {
    final Result row;
    final ResultScanner scanner;

    Head(Result row, ResultScanner scanner) {
      this.row = row;
      this.scanner = scanner;
    }
  }
}
