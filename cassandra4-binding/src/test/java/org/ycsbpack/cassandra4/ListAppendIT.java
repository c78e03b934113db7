package org.ycsbpack.cassandra4;

import static org.ycsbpack.common.testing.ServerScripts.concat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.DBException;
import site.ycsb.Status;
import org.ycsbpack.common.testing.YcsbProcess;

/** The S1 anti-fraud history on the real test node: list appends with TTL and list reads. */
class ListAppendIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  private CassandraLists lists(String... more) throws DBException {
    List<String> kv = new ArrayList<>(Arrays.asList("cassandra.keyspace", "it_lists",
        "cassandra.createschema", "true"));
    kv.addAll(Arrays.asList(more));
    Cassandra4Client c = binding.client(kv.toArray(new String[0]));
    CassandraLists lists = new CassandraLists(c.connectionForTests(), c.settingsForTests(),
        new ErrorLog("cassandra4-test"));
    assertNull(lists.prepareListTable("history"));
    return lists;
  }

  @Test
  void aListReadReturnsEveryAppendedElementInOrder() throws DBException {
    CassandraLists lists = lists();
    List<String> appended = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      appended.add("{\"n\":" + i + "}");
      assertEquals(Status.OK, lists.append("history", "172.68.0.1", "ip", appended.get(i), 600));
    }
    List<String> read = new ArrayList<>();
    assertEquals(Status.OK, lists.readList("history", "172.68.0.1", "ip", read));
    assertEquals(appended, read);
    assertEquals(Status.NOT_FOUND, lists.readList("history", "172.68.0.1", "email",
        new ArrayList<>()));
  }

  @Test
  void appendedElementsExpireAfterTheirTtl() throws Exception {
    CassandraLists lists = lists();
    assertEquals(Status.OK, lists.append("history", "172.68.9.9", "ip", "short-lived", 2));
    assertEquals(Status.OK, lists.append("history", "172.68.9.9", "ip", "long-lived", 600));
    Thread.sleep(3500);
    List<String> read = new ArrayList<>();
    assertEquals(Status.OK, lists.readList("history", "172.68.9.9", "ip", read));
    assertEquals(Arrays.asList("long-lived"), read, "the 2 s element is gone, the other stays");
  }

  @ParameterizedTest
  @ValueSource(strings = {"in", "async"})
  void aBatchedListReadCountsMissingKeys(String mode) throws DBException {
    CassandraLists lists = lists("cassandra.batchread", mode, "cassandra.batchwrite", "logged");
    List<String> keys = Arrays.asList("10.0.0.1-" + mode, "10.0.0.2-" + mode, "10.0.0.3-" + mode);
    BatchResult written = lists.batchAppend("history", keys, "ip",
        Arrays.asList("a", "b", "c"), 600);
    assertEquals(3, written.ok());
    Map<String, List<String>> out = new HashMap<>();
    List<String> asked = new ArrayList<>(keys);
    asked.add("10.9.9.9-absent");
    BatchResult r = lists.batchReadList("history", asked, "ip", out);
    assertEquals(3, r.ok());
    assertEquals(1, r.missing());
    assertEquals(Arrays.asList("b"), out.get("10.0.0.2-" + mode));
  }

  @Test
  void everyAcknowledgedAppendOfARunIsStored(@TempDir Path tmp) throws Exception {
    String[] connection = {"-p", "hosts=" + LocalCassandra.hosts(),
        "-p", "cassandra.keyspace=it_lists_run", "-p", "cassandra.createschema=true"};
    String[] workload = {"-p", "workload=org.ycsbpack.common.listappend.ListAppendWorkload",
        "-p", "listappend.keys=200", "-threads", "4"};
    YcsbProcess load = YcsbProcess.run(concat(new String[] {"load", "cassandra4"}, connection,
        workload, new String[] {"-p", "recordcount=300"}));
    assertEquals(0, load.exitStatus, load.toString());
    assertEquals("300", load.reportValue("APPEND", "Return=OK"), load.toString());
    YcsbProcess batched = YcsbProcess.run(concat(new String[] {"run", "cassandra4"}, connection,
        workload, new String[] {"-p", "operationcount=40", "-p", "batchsize=10"}));
    assertEquals(0, batched.exitStatus, batched.toString());
    int batchReads = Integer.parseInt(batched.reportValue("BATCH_READ_LIST", "Operations"));
    int batchAppends = Integer.parseInt(batched.reportValue("BATCH_APPEND", "Operations"));
    assertEquals(40, batchReads + batchAppends);
    assertEquals(String.valueOf(batchAppends * 10),
        batched.reportValue("BATCH_APPEND-RECORDS", "Return=OK"));

    Path loadOut = tmp.resolve("load.out");
    Path runOut = tmp.resolve("run.out");
    Files.write(loadOut, load.stdout.getBytes(StandardCharsets.UTF_8));
    Files.write(runOut, batched.stdout.getBytes(StandardCharsets.UTF_8));
    List<String> check = new ArrayList<>(Arrays.asList(
        LocalCassandra.repoRoot().resolve("scripts/check-list-appends").toString(), "cassandra4",
        loadOut.toString(), runOut.toString(), "--"));
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
