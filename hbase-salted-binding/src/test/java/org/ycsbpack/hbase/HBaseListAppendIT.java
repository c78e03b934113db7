package org.ycsbpack.hbase;

import static org.ycsbpack.common.testing.ServerScripts.concat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
import org.ycsbpack.common.testing.ListOperationsContract;
import org.ycsbpack.common.listappend.ListBindings;
import org.ycsbpack.common.listappend.ListOperations;
import site.ycsb.DBException;
import site.ycsb.Status;

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
  protected String bindingName() {
    return "hbase-salted";
  }

  @Override
  protected String[] runConnection() {
    return concat(LocalHBase.ycsbArgs(), new String[] {"-p", "table=it_lists_ycsb",
        "-p", "hbase.createtable=true", "-p", "listappend.table=it_lists_run"});
  }

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
}
