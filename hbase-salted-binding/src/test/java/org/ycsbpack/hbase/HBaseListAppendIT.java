package org.ycsbpack.hbase;

import static org.ycsbpack.common.testing.ServerScripts.concat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ycsbpack.common.testing.ListOperationsContract;
import org.ycsbpack.common.listappend.ListBindings;
import org.ycsbpack.common.listappend.ListOperations;
import site.ycsb.DBException;
import site.ycsb.Status;
import org.ycsbpack.common.testing.YcsbProcess;

/**
 * The S1 anti-fraud history on the real test HBase: one cell per appended element with a cell
 * TTL, whole-list reads in append order, batched appends and reads, and nothing lost in a run.
 */
class HBaseListAppendIT extends ListOperationsContract {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  /** The list operations a client of this thread published in init(), on table "history". */
  @Override
  protected List<String[]> batchModes() {
    return Arrays.asList(new String[] {"hbase.clientbuffering", "false"},
        new String[] {"hbase.clientbuffering", "true"});
  }

  @Override
  protected ListOperations lists(String... more) throws DBException {
    List<String> kv = new ArrayList<>(Arrays.asList("table", "it_lists_ycsb",
        "hbase.createtable", "true", "hbase.presplit", "8"));
    kv.addAll(Arrays.asList(more));
    binding.client(kv.toArray(new String[0]));
    ListOperations lists = ListBindings.current();
    assertNull(lists.prepareListTable("history"));
    return lists;
  }

  @Test
  void aListIsOneRowOfOneCellPerElementUnderTheSaltedKeyAndType() throws Exception {
    ListOperations lists = lists("hbase.salt", "buckets:16");
    for (String e : Arrays.asList("first", "second", "third")) {
      assertEquals(Status.OK, lists.append("history", "172.68.7.7", "ip", e, 600));
    }
    byte[] row = SaltedRowKey.buckets(16, SaltedRowKey.KeyEncoding.STRING)
        .listRowKey("172.68.7.7", "ip");
    try (Connection raw = LocalHBase.rawConnection();
         Table t = raw.getTable(TableName.valueOf("history"));
         ResultScanner rows = t.getScanner(new Scan().withStartRow(row).withStopRow(row, true))) {
      Result stored = rows.next();
      assertArrayEquals(row, stored.getRow());
      List<String> values = new ArrayList<>();
      for (Cell cell : stored.rawCells()) {
        assertEquals(12, cell.getQualifierLength(), "8-byte time and 4-byte writer id");
        values.add(new String(CellUtil.cloneValue(cell), StandardCharsets.UTF_8));
      }
      assertEquals(Arrays.asList("first", "second", "third"), values);
      assertNull(rows.next());
    }
  }

  @Test
  void aMissingListTableIsNamedWithHowToCreateIt() throws DBException {
    binding.client("table", "it_lists_ycsb", "hbase.createtable", "true");
    binding.client("table", "it_lists_ycsb");
    String problem = ListBindings.current().prepareListTable("it_no_such_history");
    assertTrue(problem.startsWith("table it_no_such_history does not exist at ZooKeeper "),
        problem);
    assertTrue(problem.endsWith("create it (HBase shell: create 'it_no_such_history', 'cf') or "
        + "run with -p hbase.createtable=true (property listappend.table)"), problem);
  }

  @Test
  void everyAcknowledgedAppendOfARunIsStored(@TempDir Path tmp) throws Exception {
    List<String> connection = new ArrayList<>(Arrays.asList(LocalHBase.ycsbArgs()));
    connection.addAll(Arrays.asList("-p", "table=it_lists_ycsb", "-p", "hbase.createtable=true",
        "-p", "listappend.table=it_lists_run"));
    String[] workload = {"-p", "workload=org.ycsbpack.common.listappend.ListAppendWorkload",
        "-p", "listappend.keys=200", "-threads", "4"};
    String[] connect = connection.toArray(new String[0]);
    YcsbProcess load = YcsbProcess.run(concat(new String[] {"load", "hbase-salted"}, connect,
        workload, new String[] {"-p", "recordcount=300"}));
    assertEquals(0, load.exitStatus, load.toString());
    assertEquals("300", load.reportValue("APPEND", "Return=OK"), load.toString());
    YcsbProcess batched = YcsbProcess.run(concat(new String[] {"run", "hbase-salted"}, connect,
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
        LocalHBase.repoRoot().resolve("scripts/check-list-appends").toString(), "hbase-salted",
        loadOut.toString(), runOut.toString(), "--"));
    check.addAll(connection);
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
