package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.TextMeasurementsExporter;

/**
 * hbase.clientbuffering=true: writes return BATCHED_OK at once, every one of them is in HBase
 * after cleanup(), and rows a flush could not write are counted as errors, never dropped.
 */
class BufferedWritesIT {

  private static byte[] value(String key) {
    return ("value of " + key).getBytes(StandardCharsets.UTF_8);
  }

  private static long rowCount(String table) throws Exception {
    long n = 0;
    try (Connection c = LocalHBase.rawConnection();
         Table t = c.getTable(TableName.valueOf(table));
         ResultScanner rows = t.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter())
             .setCaching(1000))) {
      for (Result r = rows.next(); r != null; r = rows.next()) {
        n++;
      }
    }
    return n;
  }

  @Test
  void everyAcknowledgedRowOfEveryThreadIsReadableAfterCleanup() throws Exception {
    String table = "it_buffered";
    int threads = 3;
    int rowsPerThread = 1000;
    BindingUnderTest binding = new BindingUnderTest();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> acknowledged = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        // one client per thread, as YCSB does; a small buffer forces flushes during the run
        HBaseSaltedClient c = binding.client("table", table, "hbase.createtable", "true",
            "hbase.presplit", "8", "hbase.clientbuffering", "true",
            "hbase.writebuffersize", "4096");
        acknowledged.add(pool.submit(() -> {
          int ok = 0;
          for (int i = 0; i < rowsPerThread; i++) {
            String key = "user" + thread + "_" + i;
            Status s = c.insert(table, key,
                Collections.singletonMap("field0", new ByteArrayByteIterator(value(key))));
            ok += s == Status.BATCHED_OK ? 1 : 0;
          }
          binding.cleanup(c);
          return ok;
        }));
      }
      int total = 0;
      for (Future<Integer> f : acknowledged) {
        total += f.get();
      }
      assertEquals(threads * rowsPerThread, total, "every buffered insert is acknowledged");
    } finally {
      pool.shutdown();
      binding.close();
    }

    assertEquals(threads * rowsPerThread, rowCount(table));
    BindingUnderTest reader = new BindingUnderTest();
    try {
      HBaseSaltedClient c = reader.client("table", table);
      for (int thread = 0; thread < threads; thread++) {
        for (int i = 0; i < rowsPerThread; i += 97) {
          String key = "user" + thread + "_" + i;
          Map<String, ByteIterator> read = new HashMap<>();
          assertEquals(Status.OK, c.read(table, key, null, read), key);
          assertArrayEquals(value(key), read.get("field0").toArray(), key);
        }
      }
    } finally {
      reader.close();
    }
  }

  @BeforeAll
  static void measureAsYcsbDoes() {
    // YCSB's Client sets the measurement properties before any DB exists
    Measurements.setProperties(new Properties());
  }

  @Test
  void rowsAFlushCannotWriteAreCountedAsErrorsOfTheirOperation() throws Exception {
    String table = "it_buffered_lost";
    int rows = 150;
    BindingUnderTest binding = new BindingUnderTest();
    // few, short retries: the flush below fails in seconds, not minutes
    HBaseSaltedClient c = binding.client("table", table, "hbase.createtable", "true",
        "hbase.presplit", "2", "hbase.clientbuffering", "true",
        "hbase.client.retries.number", "2", "hbase.client.pause", "50");
    long before = reportedCount("INSERT", "Return=TABLE_NOT_FOUND");
    for (int i = 0; i < rows; i++) {
      assertEquals(Status.BATCHED_OK, c.insert(table, "user" + i,
          Collections.singletonMap("field0", new ByteArrayByteIterator(value("user" + i)))));
    }
    try (Connection raw = LocalHBase.rawConnection(); Admin admin = raw.getAdmin()) {
      admin.disableTable(TableName.valueOf(table));
      admin.deleteTable(TableName.valueOf(table));
    }

    DBException e = assertThrows(DBException.class, () -> binding.cleanup(c));
    assertEquals("hbase-salted: " + rows + " buffered writes of this thread failed (counted in "
        + "the Return= lines of their operations)", e.getMessage());
    assertEquals(rows, reportedCount("INSERT", "Return=TABLE_NOT_FOUND") - before,
        "each lost row is counted under INSERT with its cause");
  }

  /** A count from YCSB's own final report, as the run would print it. */
  private static long reportedCount(String metric, String name) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (TextMeasurementsExporter exporter = new TextMeasurementsExporter(out)) {
      Measurements.getMeasurements().exportMeasurements(exporter);
    }
    String prefix = "[" + metric + "], " + name + ", ";
    for (String line : out.toString("UTF-8").split("\n")) {
      if (line.startsWith(prefix)) {
        return Long.parseLong(line.substring(prefix.length()).trim());
      }
    }
    return 0;
  }
}
