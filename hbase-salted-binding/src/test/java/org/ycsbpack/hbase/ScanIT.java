package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.Vector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * A bucketed scan returns what one scan of an unsalted table returns: the same rows in the same
 * order. The same 600 keys (random YCSB-like "user<number>" keys) are loaded into salted tables
 * and into unsalted ones; scans from many start keys with many lengths are compared.
 */
class ScanIT {
  private static final BindingUnderTest BINDING = new BindingUnderTest();
  private static final List<String> KEYS = new ArrayList<>();
  private static final Map<String, HBaseSaltedClient> CLIENTS = new HashMap<>();

  private static String table(String salt, String encoding) {
    return "it_scan_" + salt.replace(':', '_') + "_" + encoding;
  }

  @BeforeAll
  static void loadTheSameKeysEverywhere() throws DBException {
    Random random = new Random(42);
    for (int i = 0; i < 600; i++) {
      KEYS.add("user" + (random.nextLong() >>> 1));
    }
    String[][] layouts = {{"buckets:16", "string"}, {"none", "string"}, {"buckets:7", "long"},
        {"none", "long"}, {"crc32", "string"}};
    for (String[] layout : layouts) {
      String table = table(layout[0], layout[1]);
      HBaseSaltedClient c = BINDING.client("table", table, "hbase.salt", layout[0],
          "hbase.keyencoding", layout[1], "hbase.createtable", "true",
          "hbase.presplit", layout[0].equals("crc32") ? "2" : "auto");
      CLIENTS.put(layout[0] + "/" + layout[1], c);
      if (!layout[0].equals("crc32")) {
        for (String key : KEYS) {
          assertEquals(Status.OK, c.insert(table, key, fields(key)), table);
        }
      }
    }
  }

  @AfterAll
  static void cleanup() throws DBException {
    BINDING.close();
  }

  private static Map<String, ByteIterator> fields(String key) {
    Map<String, ByteIterator> f = new HashMap<>();
    f.put("field0", new StringByteIterator(key));
    f.put("field1", new StringByteIterator("second " + key));
    return f;
  }

  /** The rows of a scan as sorted field maps of strings, in scan order. */
  private static List<Map<String, String>> scan(String layout, String start, int count) {
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    Status status = CLIENTS.get(layout).scan("usertable", start, count, null, rows);
    assertEquals(Status.OK, status, layout);
    List<Map<String, String>> out = new ArrayList<>();
    for (HashMap<String, ByteIterator> row : rows) {
      Map<String, String> m = new TreeMap<>();
      row.forEach((k, v) -> m.put(k, v.toString()));
      out.add(m);
    }
    return out;
  }

  @ParameterizedTest(name = "{0} keys: buckets:{1} against an unsalted table")
  @CsvSource({"string, 16", "long, 7"})
  void bucketedScansMatchAnUnsaltedTable(String encoding, int buckets) {
    String salted = "buckets:" + buckets + "/" + encoding;
    String plain = "none/" + encoding;
    Random random = new Random(7);
    int[] counts = {1, 5, 37, 100, 1000};
    for (int i = 0; i < 40; i++) {
      String start = i % 2 == 0 ? KEYS.get(random.nextInt(KEYS.size()))
          : "user" + (random.nextLong() >>> 1);
      int count = counts[i % counts.length];
      List<Map<String, String>> expected = scan(plain, start, count);
      assertEquals(expected, scan(salted, start, count), "scan from " + start + ", " + count);
    }
  }

  @Test
  void aScanReturnsAtMostRecordcountRowsInKeyOrder() {
    List<String> sorted = new ArrayList<>(KEYS);
    Collections.sort(sorted);
    String start = sorted.get(100);
    List<Map<String, String>> rows = scan("buckets:16/string", start, 25);
    assertEquals(25, rows.size());
    for (int i = 0; i < 25; i++) {
      assertEquals(sorted.get(100 + i), rows.get(i).get("field0"));
    }
  }

  @Test
  void aScanOfOneFieldReturnsOnlyThatField() {
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, CLIENTS.get("buckets:16/string").scan("usertable", "user", 3,
        Collections.singleton("field1"), rows));
    assertEquals(3, rows.size());
    for (HashMap<String, ByteIterator> row : rows) {
      assertEquals(Collections.singleton("field1"), row.keySet());
    }
  }

  @Test
  void crc32SaltRefusesScansWithItsOwnStatus() {
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    Status status = CLIENTS.get("crc32/string").scan("usertable", "user1", 10, null, rows);
    assertEquals(HBaseErrors.SCAN_UNSUPPORTED, status);
    assertEquals("SCAN_UNSUPPORTED", status.getName());
    assertTrue(rows.isEmpty());
  }
}
