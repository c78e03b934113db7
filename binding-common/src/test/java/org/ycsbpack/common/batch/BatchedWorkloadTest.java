package org.ycsbpack.common.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.MeasurementsExporter;

/**
 * BatchedWorkload against an in-memory DB, no server: what it asks the binding for and what it
 * reports to YCSB's measurements (read back through YCSB's own exporter interface).
 */
class BatchedWorkloadTest {
  @BeforeAll
  static void measurements() {
    Measurements.setProperties(new Properties());
  }

  @AfterEach
  void unpublish() {
    BatchBindings.clear();
  }

  private static BatchedWorkload workload(String... kv) throws WorkloadException {
    Properties p = new Properties();
    p.setProperty("fieldcount", "2");
    p.setProperty("fieldlength", "8");
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    BatchedWorkload w = new BatchedWorkload();
    w.init(p);
    return w;
  }

  /** Every count YCSB would print in its final report, as "[METRIC], name" -> value. */
  private static Map<String, Long> report() throws Exception {
    Map<String, Long> out = new HashMap<>();
    Measurements.getMeasurements().exportMeasurements(new MeasurementsExporter() {
      @Override
      public void write(String metric, String measurement, int i) {
        out.put("[" + metric + "], " + measurement, (long) i);
      }

      @Override
      public void write(String metric, String measurement, long i) {
        out.put("[" + metric + "], " + measurement, i);
      }

      @Override
      public void write(String metric, String measurement, double d) {
        // latencies: not what these tests are about
      }

      @Override
      public void close() {
        // nothing to close
      }
    });
    return out;
  }

  /** How much a report count grew between two reports (YCSB's measurements are per JVM). */
  private static long grew(Map<String, Long> before, Map<String, Long> after, String line) {
    return after.getOrDefault(line, 0L) - before.getOrDefault(line, 0L);
  }

  /** A batch load thread's whole job: doInsert until it says its key range is done. */
  private static int batchLoad(BatchedWorkload w, InMemoryDb db) {
    BatchBindings.publish(db);
    Object state = w.initThread(new Properties(), 0, 1);
    int calls = 0;
    while (w.doInsert(db, state) && calls < 10_000) {
      calls++;
    }
    return calls;
  }

  /** A plain load of n records, as YCSB's client runs it (n single INSERTs). */
  private static InMemoryDb loaded(int n, String... kv) throws WorkloadException {
    InMemoryDb db = new InMemoryDb();
    List<String> props = new ArrayList<>(Arrays.asList(kv));
    props.add("recordcount");
    props.add(String.valueOf(n));
    BatchedWorkload w = workload(props.toArray(new String[0]));
    Object state = w.initThread(new Properties(), 0, 1);
    for (int i = 0; i < n; i++) {
      assertTrue(w.doInsert(db, state));
    }
    return db;
  }

  @Test
  void aBatchLoadInsertsEveryKeyOfItsRangeOnceInBatchesOfBatchsize() throws Exception {
    BatchedWorkload w = workload("recordcount", "95", "batchload", "true", "batchsize", "10");
    InMemoryDb db = new InMemoryDb();
    Map<String, Long> before = report();
    assertEquals(10, batchLoad(w, db), "9 batches of 10 and one of 5, then the range is done");
    Map<String, Long> after = report();
    assertEquals(95, db.rows.size(), "95 distinct keys");
    assertEquals(10, db.batchCalls.get(0).size());
    assertEquals(5, db.batchCalls.get(9).size());
    assertTrue(db.singleCalls.isEmpty(), db.singleCalls.toString());
    assertEquals(10, grew(before, after, "[BATCH_INSERT], Return=OK"));
    assertEquals(95, grew(before, after, "[BATCH_INSERT-RECORDS], Return=OK"));
  }

  @Test
  void concurrentLoadThreadsEachTakeWholeRunsOfKeysSoOnlyTheLastBatchIsShort() throws Exception {
    BatchedWorkload w = workload("recordcount", "20000", "batchload", "true", "batchsize", "7",
        "insertorder", "ordered");
    int threads = 4;
    List<InMemoryDb> dbs = new ArrayList<>();
    List<Thread> loaders = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    for (int t = 0; t < threads; t++) {
      InMemoryDb db = new InMemoryDb();
      dbs.add(db);
      loaders.add(new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        batchLoad(w, db);
      }));
    }
    loaders.forEach(Thread::start);
    start.countDown();
    for (Thread t : loaders) {
      t.join();
    }
    Set<String> keys = new HashSet<>();
    int batches = 0;
    int short7 = 0;
    for (InMemoryDb db : dbs) {
      for (List<String> batch : db.batchCalls) {
        batches++;
        short7 += batch.size() < 7 ? 1 : 0;
        long first = Long.parseLong(batch.get(0).substring("user".length()));
        for (int i = 0; i < batch.size(); i++) {
          assertEquals("user" + (first + i), batch.get(i), "a batch is one run of keys " + batch);
        }
        keys.addAll(batch);
      }
    }
    assertEquals(20000, keys.size(), "every key once");
    assertEquals(2858, batches, "20000 / 7 rounded up, whatever the threads' timing");
    assertEquals(1, short7, "only the range's last batch is short");
  }

  @Test
  void aBatchReadCountsFoundAndMissingRecordsExactly() throws Exception {
    InMemoryDb db = loaded(50);
    List<String> gone = new ArrayList<>(db.rows.keySet()).subList(0, 20);
    Set<String> missing = new HashSet<>(gone);
    gone.forEach(db.rows::remove);
    BatchedWorkload w = workload("recordcount", "50", "batchreadproportion", "1",
        "batchsize", "10");
    BatchBindings.publish(db);
    Object state = w.initThread(new Properties(), 0, 1);
    db.singleCalls.clear();
    Map<String, Long> before = report();
    for (int i = 0; i < 30; i++) {
      assertTrue(w.doTransaction(db, state));
    }
    Map<String, Long> after = report();
    assertEquals(30, db.batchCalls.size(), "batchreadproportion=1 alone: only batch reads");
    assertTrue(db.singleCalls.isEmpty(), db.singleCalls.toString());
    long absent = 0;
    for (List<String> keys : db.batchCalls) {
      assertEquals(10, new HashSet<>(keys).size(), "10 distinct keys per batch: " + keys);
      absent += keys.stream().filter(missing::contains).count();
    }
    assertTrue(absent > 0, "the test deleted keys the batches asked for");
    assertEquals(30, grew(before, after, "[BATCH_READ], Return=OK"));
    assertEquals(300 - absent, grew(before, after, "[BATCH_READ-RECORDS], Return=OK"));
    assertEquals(absent, grew(before, after, "[BATCH_READ-RECORDS], Return=NOT_FOUND"));
  }

  @Test
  void failedRecordsCountUnderTheirStatusAndEndTheLoadThread() throws Exception {
    BatchedWorkload w = workload("recordcount", "40", "batchload", "true", "batchsize", "10");
    InMemoryDb db = new InMemoryDb();
    InMemoryDb keys = loaded(40);
    // the 15th key of the load fails: the second batch fails, the load thread stops there
    List<String> order = new ArrayList<>();
    keys.singleCalls.forEach(c -> order.add(c.substring("INSERT ".length())));
    db.failing.add(order.get(14));
    Map<String, Long> before = report();
    assertEquals(1, batchLoad(w, db), "one good batch, then the failed one ends the thread");
    Map<String, Long> after = report();
    assertEquals(1, grew(before, after, "[BATCH_INSERT], Return=SERVICE_UNAVAILABLE"));
    assertEquals(19, grew(before, after, "[BATCH_INSERT-RECORDS], Return=OK"));
    assertEquals(1, grew(before, after, "[BATCH_INSERT-RECORDS], Return=SERVICE_UNAVAILABLE"));
  }

  @Test
  void withoutABatchingBindingEachBatchRunsAsSingleOperations() throws Exception {
    InMemoryDb db = loaded(30);
    BatchedWorkload w = workload("recordcount", "30", "batchupdateproportion", "1",
        "batchsize", "5");
    Object state = w.initThread(new Properties(), 0, 1);
    db.singleCalls.clear();
    Map<String, Long> before = report();
    for (int i = 0; i < 4; i++) {
      w.doTransaction(db, state);
    }
    Map<String, Long> after = report();
    assertTrue(db.batchCalls.isEmpty());
    assertEquals(20, db.singleCalls.size());
    assertTrue(db.singleCalls.stream().allMatch(c -> c.startsWith("UPDATE ")), db.singleCalls
        .toString());
    assertEquals(20, grew(before, after, "[BATCH_UPDATE-RECORDS], Return=OK"));
  }

  @Test
  void batchAndCoreProportionsMix() throws Exception {
    InMemoryDb db = loaded(30);
    BatchedWorkload w = workload("recordcount", "30", "batchreadproportion", "0.5",
        "readproportion", "0.5", "batchsize", "3");
    BatchBindings.publish(db);
    Object state = w.initThread(new Properties(), 0, 1);
    db.singleCalls.clear();
    for (int i = 0; i < 200; i++) {
      w.doTransaction(db, state);
    }
    long reads = db.singleCalls.stream().filter(c -> c.startsWith("READ ")).count();
    assertEquals(200, reads + db.batchCalls.size());
    assertTrue(reads > 60 && db.batchCalls.size() > 60, reads + " reads, "
        + db.batchCalls.size() + " batch reads");
  }

  @Test
  void sequentialDeletesRemoveEachKeyOfTheRangeOnceInOrder() throws Exception {
    InMemoryDb db = loaded(20, "insertorder", "ordered");
    BatchedWorkload w = workload("recordcount", "20", "insertorder", "ordered",
        "deleteproportion", "1", "requestdistribution", "sequential");
    Object state = w.initThread(new Properties(), 0, 1);
    for (int i = 0; i < 20; i++) {
      w.doTransaction(db, state);
    }
    assertEquals(0, db.rows.size(), "every row deleted");
    assertEquals(20, db.deleted.size());
    List<String> inOrder = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      inOrder.add("user" + i);
    }
    assertEquals(inOrder, db.deleted, "each key once, in key order");
  }

  @Test
  void aProportionOutsideZeroToOneIsRefusedNamingTheProperty() {
    WorkloadException e = assertThrows(WorkloadException.class,
        () -> workload("batchreadproportion", "1.5"));
    assertEquals("property batchreadproportion='1.5' is not valid: expected a proportion from 0 "
        + "to 1 (default: 0)", e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }
}
