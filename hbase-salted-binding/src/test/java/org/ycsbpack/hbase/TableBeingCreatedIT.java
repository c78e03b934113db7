package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * Several clients start at once and each may create the table: one whose init() finds the
 * table while another is still creating it (the table exists, ENABLING, until its regions are
 * assigned) waits for it, instead of stopping with "table ... is disabled".
 */
class TableBeingCreatedIT {
  private static final TableName NAME = TableName.valueOf("it_being_created");
  // enough regions that assigning them takes the master a while on one region server
  private static final int REGIONS = 200;
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws Exception {
    binding.close();
    try (Connection raw = LocalHBase.rawConnection(); Admin admin = raw.getAdmin()) {
      if (admin.tableExists(NAME)) {
        if (!admin.isTableDisabled(NAME)) {
          admin.disableTable(NAME);
        }
        admin.deleteTable(NAME);
      }
    }
  }

  @Test
  void aClientStartingWhileAnotherCreatesTheTableWaitsForItAndRuns() throws Exception {
    try (Connection raw = LocalHBase.rawConnection(); Admin admin = raw.getAdmin()) {
      byte[][] splits = new byte[REGIONS - 1][];
      for (int i = 0; i < splits.length; i++) {
        splits[i] = Bytes.toBytes(String.format("%05d", (i + 1) * 100));
      }
      Future<Void> creating = admin.createTableAsync(TableDescriptorBuilder.newBuilder(NAME)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("cf")).build(), splits);
      // the moment this test is about: the table exists, its regions are not all assigned
      boolean seenEnabling = false;
      while (!creating.isDone() && !seenEnabling) {
        seenEnabling = admin.tableExists(NAME) && !admin.isTableEnabled(NAME);
      }
      assertTrue(seenEnabling, "the table was enabled before this test saw it being created "
          + "(raise REGIONS)");
      HBaseSaltedClient c = binding.client("table", NAME.getNameAsString(),
          "hbase.createtable", "true");
      assertTrue(admin.isTableEnabled(NAME), "init() returned before the table was enabled");
      assertEquals(Status.OK, c.insert(NAME.getNameAsString(), "user1",
          Collections.singletonMap("field0", new StringByteIterator("v"))));
      creating.get();
    }
  }

  @Test
  void aDisabledTableIsRefusedAtOnceNotWaitedFor() throws Exception {
    try (Connection raw = LocalHBase.rawConnection(); Admin admin = raw.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(NAME)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of("cf")).build());
      admin.disableTable(NAME);
    }
    long start = System.nanoTime();
    DBException e = assertThrows(DBException.class,
        () -> binding.client("table", NAME.getNameAsString()));
    double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(e.getMessage().contains("is disabled: enable it"), e.getMessage());
    assertTrue(seconds < HBaseConnection.ENABLING_WAIT.getSeconds() / 2.0,
        "refused after " + seconds + " s: a DISABLED table must not be waited for");
  }
}
