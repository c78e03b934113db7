package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.DBException;

/**
 * The row keys the binding stores, read back raw with a plain scan by a client of the test's
 * own: salt ++ key in every mode. The expected bytes are written out literally; they were
 * computed with Python's zlib (see SaltedRowKeyTest): "user1" has CRC32 0x8c518555, the long 123
 * (8 bytes, 00..7b) has CRC32 0xa2f577dd.
 */
class RowKeyLayoutIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  @ParameterizedTest(name = "salt {0}, {1} keys: {2} -> {3}")
  @CsvSource({
      "crc32,      string, user1,   5185 75736572 31",
      "crc32,      long,   user123, f577 00000000 0000007b",
      "buckets:16, string, user1,   05 75736572 31",
      "buckets:16, long,   user123, 0d 00000000 0000007b",
      "none,       string, user1,   75736572 31",
      "none,       long,   user123, 00000000 0000007b"})
  void theStoredRowKeyIsSaltThenKey(String salt, String encoding, String key, String rowHex)
      throws Exception {
    String table = "it_rowkey_" + salt.replace(':', '_') + "_" + encoding;
    HBaseSaltedClient c = binding.client("table", table, "hbase.salt", salt,
        "hbase.keyencoding", encoding, "hbase.createtable", "true",
        "hbase.presplit", salt.equals("none") ? "1" : "2");
    c.insert(table, key, Collections.singletonMap("field0",
        new ByteArrayByteIterator("v".getBytes(StandardCharsets.UTF_8))));

    assertEquals(Collections.singletonList(rowHex.replace(" ", "")), rawRowKeys(table));
  }

  private static List<String> rawRowKeys(String table) throws Exception {
    List<String> keys = new ArrayList<>();
    try (Connection c = LocalHBase.rawConnection();
         Table t = c.getTable(TableName.valueOf(table));
         ResultScanner scanner = t.getScanner(new Scan())) {
      for (Result r : scanner) {
        StringBuilder hex = new StringBuilder();
        for (byte b : r.getRow()) {
          hex.append(String.format("%02x", b & 0xff));
        }
        keys.add(hex.toString());
      }
    }
    return keys;
  }
}
