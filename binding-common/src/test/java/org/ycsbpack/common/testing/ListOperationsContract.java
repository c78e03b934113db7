package org.ycsbpack.common.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ycsbpack.common.testing.ServerScripts.concat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ycsbpack.common.ReadmePropertyTables;
import org.ycsbpack.common.batch.BatchResult;
import org.ycsbpack.common.listappend.ListOperations;
import site.ycsb.Status;

/**
 * What every binding's list-append must do, run by each binding against its real database: a
 * subclass says how to get its {@link ListOperations} (on a ready {@code history} table) and
 * which property sets select its batch modes; and how bin/ycsb reaches its test server, for a
 * real run whose every acknowledged append must be stored.
 */
public abstract class ListOperationsContract {
  /** The binding's list operations with these extra properties, table "history" prepared. */
  protected abstract ListOperations lists(String... properties) throws Exception;

  /** Property sets (key, value, ...) of every batch mode the binding has. */
  protected abstract List<String[]> batchModes();

  /** The binding's name in {@code bin/ycsb load|run <binding>}. */
  protected abstract String bindingName();

  /**
   * bin/ycsb arguments ({@code -p k=v} ...) that reach the test server and give a real run
   * tables of its own; {@code scripts/check-list-appends} gets them too.
   */
  protected abstract String[] runConnection();

  @Test
  void aListReadReturnsEveryAppendedElementInOrder() throws Exception {
    ListOperations lists = lists();
    List<String> appended = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      appended.add("{\"n\":" + i + "}");
      assertEquals(Status.OK, lists.append("history", "172.68.0.1", "ip", appended.get(i), 600));
    }
    List<String> read = new ArrayList<>();
    assertEquals(Status.OK, lists.readList("history", "172.68.0.1", "ip", read));
    assertEquals(appended, read);
    assertEquals(Status.NOT_FOUND, lists.readList("history", "172.68.0.1", "email",
        new ArrayList<>()), "another type of the same key is another list");
  }

  @Test
  void appendedElementsExpireAfterTheirTtl() throws Exception {
    ListOperations lists = lists();
    assertEquals(Status.OK, lists.append("history", "172.68.9.9", "ip", "short-lived", 2));
    assertEquals(Status.OK, lists.append("history", "172.68.9.9", "ip", "long-lived", 600));
    List<String> before = new ArrayList<>();
    assertEquals(Status.OK, lists.readList("history", "172.68.9.9", "ip", before));
    assertEquals(Arrays.asList("short-lived", "long-lived"), before);
    Thread.sleep(3500);
    List<String> read = new ArrayList<>();
    assertEquals(Status.OK, lists.readList("history", "172.68.9.9", "ip", read));
    assertEquals(Arrays.asList("long-lived"), read, "the 2 s element is gone, the other stays");
  }

  @Test
  void aListWhoseOnlyElementExpiredIsNotFound() throws Exception {
    ListOperations lists = lists();
    assertEquals(Status.OK, lists.append("history", "172.68.9.10", "ip", "short-lived", 1));
    Thread.sleep(2500);
    assertEquals(Status.NOT_FOUND, lists.readList("history", "172.68.9.10", "ip",
        new ArrayList<>()));
  }

  @Test
  void aBatchedListReadEqualsTheSingleReadsAndCountsMissingKeysInEveryMode() throws Exception {
    int mode = 0;
    for (String[] properties : batchModes()) {
      ListOperations lists = lists(properties);
      String tag = "-mode" + mode++;
      List<String> keys = Arrays.asList("10.0.0.1" + tag, "10.0.0.2" + tag, "10.0.0.3" + tag);
      BatchResult written = lists.batchAppend("history", keys, "ip",
          Arrays.asList("a", "b", "c"), 600);
      assertSame(Status.OK, written.status(), Arrays.toString(properties) + " " + written);
      assertEquals(3, written.ok());
      Map<String, List<String>> out = new HashMap<>();
      List<String> asked = new ArrayList<>(keys);
      asked.add(1, "10.9.9.9-absent");
      BatchResult r = lists.batchReadList("history", asked, "ip", out);
      assertSame(Status.OK, r.status(), Arrays.toString(properties) + " " + r);
      assertEquals(3, r.ok());
      assertEquals(1, r.missing());
      for (String key : keys) {
        List<String> single = new ArrayList<>();
        assertEquals(Status.OK, lists.readList("history", key, "ip", single));
        assertEquals(single, out.get(key), "a batched read equals the single read of " + key);
      }
      assertEquals(Arrays.asList("b"), out.get("10.0.0.2" + tag));
    }
  }

  @Test
  void everyAcknowledgedAppendOfARunIsStored(@TempDir Path tmp) throws Exception {
    String[] connection = runConnection();
    String[] workload = {"-p", "workload=org.ycsbpack.common.listappend.ListAppendWorkload",
        "-p", "listappend.keys=200", "-threads", "4"};
    YcsbProcess load = YcsbProcess.run(concat(new String[] {"load", bindingName()}, connection,
        workload, new String[] {"-p", "recordcount=300"}));
    assertEquals(0, load.exitStatus, load.toString());
    assertEquals("300", load.reportValue("APPEND", "Return=OK"), load.toString());
    YcsbProcess batched = YcsbProcess.run(concat(new String[] {"run", bindingName()}, connection,
        workload, new String[] {"-p", "operationcount=40", "-p", "batchsize=10"}));
    assertEquals(0, batched.exitStatus, batched.toString());
    int batchReads = Integer.parseInt(batched.reportValue("BATCH_READ_LIST", "Operations"));
    int batchAppends = Integer.parseInt(batched.reportValue("BATCH_APPEND", "Operations"));
    assertEquals(40, batchReads + batchAppends);
    assertEquals(String.valueOf(batchAppends * 10),
        batched.reportValue("BATCH_APPEND-RECORDS", "Return=OK"), batched.toString());

    Path loadOut = tmp.resolve("load.out");
    Path runOut = tmp.resolve("run.out");
    Files.write(loadOut, load.stdout.getBytes(StandardCharsets.UTF_8));
    Files.write(runOut, batched.stdout.getBytes(StandardCharsets.UTF_8));
    List<String> check = new ArrayList<>(Arrays.asList(
        ReadmePropertyTables.repoRoot().resolve("scripts/check-list-appends").toString(),
        bindingName(), loadOut.toString(), runOut.toString(), "--"));
    check.addAll(Arrays.asList(connection));
    Path out = tmp.resolve("check.txt");
    Process p = new ProcessBuilder(check).redirectErrorStream(true).redirectOutput(out.toFile())
        .redirectInput(new File("/dev/null")).start();
    assertTrue(p.waitFor(3, TimeUnit.MINUTES));
    String report = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), report);
    int expected = 300 + batchAppends * 10;
    assertTrue(report.contains("successful appends reported: " + expected + "; list elements "
        + "stored: " + expected), report);
  }
}
