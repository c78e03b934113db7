package org.ycsbpack.bench;

import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;
import site.ycsb.RandomByteIterator;
import site.ycsb.Utils;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * scripts/bench-binding's raw client harness: the operations of YCSB's CoreWorkload at
 * readproportion=0.5 updateproportion=0.5 requestdistribution=zipfian (the same key chooser and
 * key names, a random 100-byte value for one random field per update, reads of every field)
 * called directly on the client library, with each operation's latency recorded in an
 * HdrHistogram as YCSB's default measurement does. What it leaves out is exactly what the
 * binding is measured for: YCSB's DB layer and the binding's own code.
 *
 * <p>Arguments {@code key=value}: db (cassandra|hbase), threads, seconds, recordcount,
 * fieldcount, fieldlength, host, port (CQL or ZooKeeper), keyspace, table. It prints YCSB-style
 * status lines on stderr every second and {@code [OVERALL]}/{@code [READ]}/{@code [UPDATE]}
 * counts on stdout.
 */
public final class RawLoop {
  private final RawClient client;
  private final int fieldCount;
  private final int fieldLength;
  private final ScrambledZipfianGenerator keys;
  private final Recorder readLatency = new Recorder(3);
  private final Recorder updateLatency = new Recorder(3);
  private final AtomicLong operations = new AtomicLong();
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong notFound = new AtomicLong();
  private final AtomicLong updates = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();

  private RawLoop(RawClient client, long records, int fieldCount, int fieldLength) {
    this.client = client;
    this.fieldCount = fieldCount;
    this.fieldLength = fieldLength;
    this.keys = new ScrambledZipfianGenerator(0, records - 1);
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> a = new HashMap<>();
    for (String arg : argv) {
      int eq = arg.indexOf('=');
      if (eq < 1) {
        System.err.println("RawLoop: argument '" + arg + "' is not key=value");
        System.exit(2);
      }
      a.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    String db = a.getOrDefault("db", "cassandra");
    int threads = Integer.parseInt(a.getOrDefault("threads", "8"));
    int seconds = Integer.parseInt(a.getOrDefault("seconds", "50"));
    long records = Long.parseLong(a.getOrDefault("recordcount", "20000"));
    int fields = Integer.parseInt(a.getOrDefault("fieldcount", "10"));
    int length = Integer.parseInt(a.getOrDefault("fieldlength", "100"));
    String host = a.getOrDefault("host", "127.0.0.1");
    String table = a.getOrDefault("table", "usertable");
    RawClient client;
    if ("cassandra".equals(db)) {
      client = new RawCassandra(host, Integer.parseInt(a.getOrDefault("port", "9042")),
          a.getOrDefault("keyspace", "ycsb"), table, fields);
    } else if ("hbase".equals(db)) {
      client = new RawHBase(host, Integer.parseInt(a.getOrDefault("port", "2181")), table,
          fields);
    } else {
      System.err.println("RawLoop: db='" + db + "' is not cassandra or hbase");
      System.exit(2);
      return;
    }
    new RawLoop(client, records, fields, length).run(threads, seconds);
    client.close();
  }

  private void run(int threadCount, int seconds) throws Exception {
    long start = System.nanoTime();
    long deadline = start + seconds * 1_000_000_000L;
    Thread[] threads = new Thread[threadCount];
    for (int i = 0; i < threadCount; i++) {
      RawClient mine = client.forThread();
      threads[i] = new Thread(() -> work(mine, deadline), "raw-" + i);
      threads[i].start();
    }
    SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd HH:mm:ss:SSS");
    long next = start;
    while (System.nanoTime() < deadline) {
      next += 1_000_000_000L;
      Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
      System.err.println(format.format(new Date()) + " " + (System.nanoTime() - start)
          / 1_000_000_000L + " sec: " + operations.get() + " operations;");
    }
    for (Thread t : threads) {
      t.join();
    }
    long ms = (System.nanoTime() - start) / 1_000_000;
    System.out.println("[OVERALL], RunTime(ms), " + ms);
    System.out.println("[OVERALL], Operations, " + operations.get());
    System.out.println("[READ], Return=OK, " + (reads.get() - notFound.get()));
    System.out.println("[READ], Return=NOT_FOUND, " + notFound.get());
    System.out.println("[READ], AverageLatency(us), "
        + readLatency.getIntervalHistogram().getMean());
    System.out.println("[UPDATE], Return=OK, " + updates.get());
    System.out.println("[UPDATE], AverageLatency(us), "
        + updateLatency.getIntervalHistogram().getMean());
    System.out.println("[OVERALL], Failures, " + failures.get());
  }

  private void work(RawClient c, long deadline) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    while (System.nanoTime() < deadline) {
      String key = "user" + Utils.hash(keys.nextValue());
      boolean read = random.nextBoolean();
      long t0 = System.nanoTime();
      try {
        if (read) {
          if (!c.read(key)) {
            notFound.incrementAndGet();
          }
        } else {
          c.update(key, random.nextInt(fieldCount),
              new RandomByteIterator(fieldLength).toArray());
        }
      } catch (Exception e) {
        if (failures.incrementAndGet() <= 3) {
          System.err.println("RawLoop: " + (read ? "read" : "update") + " of " + key
              + " failed: " + e);
        }
      }
      long us = (System.nanoTime() - t0) / 1000;
      (read ? readLatency : updateLatency).recordValue(us);
      (read ? reads : updates).incrementAndGet();
      operations.incrementAndGet();
    }
  }
}
