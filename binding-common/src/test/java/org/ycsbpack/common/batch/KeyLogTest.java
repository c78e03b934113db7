package org.ycsbpack.common.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.Status;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;

/** ycsbpack.keylog: the keys of each batch not all done, against an in-memory DB and directly. */
class KeyLogTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void measurements() {
    Measurements.setProperties(new Properties());
  }

  @AfterEach
  void unpublish() {
    BatchBindings.clear();
  }

  private List<String> lines(Path log) throws Exception {
    return Files.readAllLines(log, StandardCharsets.UTF_8);
  }

  @Test
  void aReadBackLogsExactlyTheKeysItDidNotFind() throws Exception {
    Path log = dir.resolve("keys.tsv");
    InMemoryDb db = new InMemoryDb();
    for (int i = 0; i < 40; i++) {
      db.rows.put("user" + i, new HashMap<>());
    }
    db.rows.remove("user7");
    db.rows.remove("user31");
    Properties p = new Properties();
    for (String[] kv : new String[][] {{"recordcount", "40"}, {"batchreadproportion", "1"},
        {"batchsize", "10"}, {"requestdistribution", "sequential"}, {"insertorder", "ordered"},
        {"ycsbpack.keylog", log.toString()}}) {
      p.setProperty(kv[0], kv[1]);
    }
    BatchedWorkload w = new BatchedWorkload();
    w.init(p);
    BatchBindings.publish(db);
    Object state = w.initThread(new Properties(), 0, 1);
    for (int i = 0; i < 4; i++) {
      assertTrue(w.doTransaction(db, state));
    }
    w.cleanup();
    assertEquals(List.of("BATCH_READ\tmissing\tNOT_FOUND\tuser7",
        "BATCH_READ\tmissing\tNOT_FOUND\tuser31"), lines(log));
  }

  @Test
  void aWriteBatchWhoseFailedKeysAreNotNamedIsLoggedWhole() throws Exception {
    Path log = dir.resolve("writes.tsv");
    InMemoryDb db = new InMemoryDb();
    db.failing.add("user13");  // InMemoryDb counts its failures without naming them
    Properties p = new Properties();
    p.setProperty("recordcount", "30");
    p.setProperty("batchload", "true");
    p.setProperty("batchsize", "10");
    p.setProperty("insertorder", "ordered");
    p.setProperty("ycsbpack.keylog", log.toString());
    BatchedWorkload w = new BatchedWorkload();
    w.init(p);
    BatchBindings.publish(db);
    Object state = w.initThread(new Properties(), 0, 1);
    w.doInsert(db, state);
    w.doInsert(db, state);
    w.cleanup();
    List<String> keys = new ArrayList<>();
    for (int i = 10; i < 20; i++) {
      keys.add("user" + i);
    }
    assertEquals(List.of("BATCH_INSERT\tunknown\tSERVICE_UNAVAILABLE\t" + String.join(" ", keys)),
        lines(log));
  }

  @Test
  void namedFailuresAndMissingKeysAreLoggedApartAndAWholeBatchDoneIsNot() throws Exception {
    Path path = dir.resolve("direct.tsv");
    KeyLog log = KeyLog.open(path.toString());
    List<String> batch = List.of("a", "b", "c", "d");
    log.batch("BATCH_READ", batch, Set.of("a"),
        BatchResult.ofRows(1, 2, List.of("c"), Status.SERVICE_UNAVAILABLE));
    log.batch("BATCH_INSERT", batch, null, BatchResult.allFailed(4, Status.ERROR));
    log.batch("BATCH_INSERT", batch, null, BatchResult.of(4, 0, 0, null));
    log.batch("BATCH_INSERT", batch, null,
        BatchResult.ofRows(3, 0, List.of("b"), Status.ERROR));
    log.close();
    assertEquals(List.of("BATCH_READ\tfailed\tSERVICE_UNAVAILABLE\tc",
        "BATCH_READ\tmissing\tNOT_FOUND\tb d",
        "BATCH_INSERT\tfailed\tERROR\ta b c d",
        "BATCH_INSERT\tfailed\tERROR\tb"), lines(path));
  }

  @Test
  void aKeyLogThatCannotBeWrittenStopsTheWorkloadWithOneSentence() {
    Properties p = new Properties();
    p.setProperty("recordcount", "10");
    p.setProperty("ycsbpack.keylog", dir.resolve("no/such/dir/keys.tsv").toString());
    WorkloadException e = assertThrows(WorkloadException.class,
        () -> new BatchedWorkload().init(p));
    assertTrue(e.getMessage().startsWith("property ycsbpack.keylog="), e.getMessage());
  }
}
