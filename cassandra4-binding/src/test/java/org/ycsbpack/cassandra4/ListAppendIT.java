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
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.testing.ListOperationsContract;
import site.ycsb.DBException;
import org.ycsbpack.common.testing.YcsbProcess;

/**
 * The S1 anti-fraud history on the real test node: the list-append contract of every binding
 * (order, TTL, batched reads in every mode) and nothing lost in a real run.
 */
class ListAppendIT extends ListOperationsContract {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  @Override
  protected List<String[]> batchModes() {
    return Arrays.asList(
        new String[] {"cassandra.batchread", "in", "cassandra.batchwrite", "unlogged"},
        new String[] {"cassandra.batchread", "async", "cassandra.batchwrite", "logged"},
        new String[] {"cassandra.batchread", "in", "cassandra.batchwrite", "async"});
  }

  @Override
  protected CassandraLists lists(String... more) throws DBException {
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
