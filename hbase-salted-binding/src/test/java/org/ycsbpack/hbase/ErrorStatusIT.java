package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Collections;
import java.util.HashMap;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * Operations on a table that changes under a running client get the status that names the
 * cause, not a generic ERROR. Few, short retries keep each failure to seconds.
 */
class ErrorStatusIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  private HBaseSaltedClient client(String table) throws DBException {
    HBaseSaltedClient c = binding.client("table", table, "hbase.createtable", "true",
        "hbase.presplit", "2", "hbase.client.retries.number", "2", "hbase.client.pause", "50");
    assertEquals(Status.OK, c.insert(table, "user1",
        Collections.singletonMap("field0", new StringByteIterator("v"))));
    return c;
  }

  @Test
  void aTableDroppedDuringTheRunIsTableNotFound() throws Exception {
    HBaseSaltedClient c = client("it_errors_dropped");
    try (Connection raw = LocalHBase.rawConnection(); Admin admin = raw.getAdmin()) {
      admin.disableTable(TableName.valueOf("it_errors_dropped"));
      admin.deleteTable(TableName.valueOf("it_errors_dropped"));
    }
    assertEquals(HBaseErrors.TABLE_NOT_FOUND, c.read("t", "user1", null, new HashMap<>()));
    assertEquals(HBaseErrors.TABLE_NOT_FOUND, c.insert("t", "user2",
        Collections.singletonMap("field0", new StringByteIterator("v"))));
  }

  @Test
  void aTableDisabledDuringTheRunIsTableDisabled() throws Exception {
    HBaseSaltedClient c = client("it_errors_disabled");
    try (Connection raw = LocalHBase.rawConnection(); Admin admin = raw.getAdmin()) {
      admin.disableTable(TableName.valueOf("it_errors_disabled"));
    }
    assertEquals(HBaseErrors.TABLE_DISABLED, c.read("t", "user1", null, new HashMap<>()));
    assertEquals(HBaseErrors.TABLE_DISABLED, c.delete("t", "user1"));
  }
}
