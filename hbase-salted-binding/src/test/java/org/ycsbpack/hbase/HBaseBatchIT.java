package org.ycsbpack.hbase;

import static org.ycsbpack.common.testing.ServerScripts.concat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.ycsbpack.common.testing.TestRows.row;
import static org.ycsbpack.common.testing.TestRows.strings;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.batch.BatchBindings;
import org.ycsbpack.common.batch.BatchOperations;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import org.ycsbpack.common.testing.YcsbProcess;

/**
 * What HBase batches add to the binding contract (BindingContractIT) on the real test HBase:
 * a mutator batch is written when it returns, a batch is not overtaken by earlier buffered
 * writes, and BatchedWorkload through bin/ycsb runs batches and counts every record.
 */
class HBaseBatchIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  /** A client of this thread and the batch operations it published in init(). */
  private BatchOperations batches(String... more) throws DBException {
    List<String> kv = new ArrayList<>(Arrays.asList("table", "it_batch", "hbase.keyencoding",
        "long", "hbase.createtable", "true", "hbase.presplit", "8"));
    kv.addAll(Arrays.asList(more));
    binding.client(kv.toArray(new String[0]));
    return BatchBindings.current();
  }

  @Test
  void aBatchWriteThroughTheBufferedMutatorWritesEveryRowBeforeItReturns() throws DBException {
    BatchOperations ops = batches("hbase.batchwrite", "mutator");
    HBaseSaltedClient reader = binding.client("table", "it_batch", "hbase.keyencoding", "long");
    List<String> keys = new ArrayList<>();
    List<Map<String, ByteIterator>> values = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      keys.add("user" + (8000 + i));
      values.add(row("user" + (8000 + i), " mutator"));
    }
    BatchResult written = ops.batchInsert("usertable", keys, values);
    assertSame(Status.OK, written.status(), written.toString());
    assertEquals(50, written.ok());
    for (String key : keys) {
      Map<String, ByteIterator> read = new HashMap<>();
      assertEquals(Status.OK, reader.read("usertable", key, null, read), key);
      assertEquals(strings(row(key, " mutator")), strings(read));
    }
  }

  @Test
  void aBatchUpdateIsNotOvertakenByEarlierBufferedWrites() throws DBException {
    HBaseSaltedClient buffered = binding.client("table", "it_batch", "hbase.keyencoding", "long",
        "hbase.createtable", "true", "hbase.presplit", "8", "hbase.clientbuffering", "true");
    BatchOperations ops = BatchBindings.current();
    HBaseSaltedClient reader = binding.client("table", "it_batch", "hbase.keyencoding", "long");
    List<String> keys = Arrays.asList("user7001", "user7002", "user7003");
    List<Map<String, ByteIterator>> updated = new ArrayList<>();
    for (String key : keys) {
      assertEquals(Status.BATCHED_OK, buffered.update("usertable", key, row(key, " older")));
      updated.add(row(key, " updated"));
    }
    BatchResult result = ops.batchUpdate("usertable", keys, updated);
    assertEquals(3, result.ok(), result.toString());
    // had the older buffered writes stayed in the buffer, this flush would overwrite the batch
    binding.cleanup(buffered);
    for (String key : keys) {
      Map<String, ByteIterator> read = new HashMap<>();
      assertEquals(Status.OK, reader.read("usertable", key, null, read));
      assertEquals(strings(row(key, " updated")), strings(read));
    }
  }

  @Test
  void batchedWorkloadCountsEveryRecordThroughBinYcsb() throws Exception {
    String[] common = {"-p", "workload=org.ycsbpack.common.batch.BatchedWorkload",
        "-p", "table=it_batched_workload", "-p", "hbase.salt=buckets:16",
        "-p", "hbase.createtable=true", "-p", "recordcount=500", "-p", "fieldcount=2",
        "-threads", "3"};
    YcsbProcess load = YcsbProcess.run(concat(new String[] {"load", "hbase-salted"}, common,
        LocalHBase.ycsbArgs(), new String[] {"-p", "batchload=true", "-p", "batchsize=50"}));
    assertEquals(0, load.exitStatus, load.toString());
    assertEquals("10", load.reportValue("BATCH_INSERT", "Operations"), load.toString());
    assertEquals("500", load.reportValue("BATCH_INSERT-RECORDS", "Return=OK"), load.toString());

    YcsbProcess run = YcsbProcess.run(concat(new String[] {"run", "hbase-salted"}, common,
        LocalHBase.ycsbArgs(), new String[] {"-p", "batchreadproportion=0.5",
            "-p", "batchupdateproportion=0.5", "-p", "batchsize=10", "-p", "operationcount=60",
            "-p", "requestdistribution=uniform"}));
    assertEquals(0, run.exitStatus, run.toString());
    int reads = Integer.parseInt(run.reportValue("BATCH_READ", "Operations"));
    int updates = Integer.parseInt(run.reportValue("BATCH_UPDATE", "Operations"));
    assertEquals(60, reads + updates, run.toString());
    assertEquals(String.valueOf(reads * 10), run.reportValue("BATCH_READ-RECORDS", "Return=OK"));
    assertEquals(String.valueOf(updates * 10),
        run.reportValue("BATCH_UPDATE-RECORDS", "Return=OK"));
  }
}
