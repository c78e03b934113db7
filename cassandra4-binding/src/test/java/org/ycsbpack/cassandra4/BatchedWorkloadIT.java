package org.ycsbpack.cassandra4;

import static org.ycsbpack.common.testing.ServerScripts.concat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.ycsbpack.common.testing.YcsbProcess;

/**
 * BatchedWorkload through bin/ycsb: a batch is one operation, and the records it touched are
 * counted exactly in the companion {@code <OP>-RECORDS} Return= lines.
 */
class BatchedWorkloadIT {
  private static final String WORKLOAD = "org.ycsbpack.common.batch.BatchedWorkload";

  @Test
  void batchLoadThenBatchReadsCountEveryRecord() throws Exception {
    String[] common = {"-p", "workload=" + WORKLOAD,
        "-p", "hosts=" + LocalCassandra.hosts(), "-p", "cassandra.keyspace=it_batched_workload",
        "-p", "cassandra.createschema=true", "-p", "recordcount=500", "-p", "fieldcount=2",
        "-threads", "3"};
    YcsbProcess load = YcsbProcess.run(concat(new String[] {"load", "cassandra4"}, common,
        new String[] {"-p", "batchload=true", "-p", "batchsize=50"}));
    assertEquals(0, load.exitStatus, load.toString());
    assertEquals("10", load.reportValue("BATCH_INSERT", "Operations"), load.toString());
    assertEquals("500", load.reportValue("BATCH_INSERT-RECORDS", "Return=OK"), load.toString());
    assertNull(load.reportValue("INSERT", "Operations"), "no single inserts");

    YcsbProcess run = YcsbProcess.run(concat(new String[] {"run", "cassandra4"}, common,
        new String[] {"-p", "batchreadproportion=0.5", "-p", "batchupdateproportion=0.5",
            "-p", "batchsize=10", "-p", "operationcount=60", "-p", "cassandra.batchwrite=async",
            "-p", "requestdistribution=uniform"}));
    assertEquals(0, run.exitStatus, run.toString());
    int reads = Integer.parseInt(run.reportValue("BATCH_READ", "Operations"));
    int updates = Integer.parseInt(run.reportValue("BATCH_UPDATE", "Operations"));
    assertEquals(60, reads + updates, run.toString());
    assertEquals(String.valueOf(reads * 10), run.reportValue("BATCH_READ-RECORDS", "Return=OK"));
    assertEquals(String.valueOf(updates * 10),
        run.reportValue("BATCH_UPDATE-RECORDS", "Return=OK"));
    assertNull(run.reportValue("READ", "Operations"), "batch proportions replace the defaults");
  }

  @Test
  void aBindingWithoutBatchingFallsBackToSingleOperations() throws Exception {
    YcsbProcess run = YcsbProcess.run("run", "basic", "-p", "workload=" + WORKLOAD,
        "-p", "recordcount=100", "-p", "operationcount=20",
        "-p", "batchreadproportion=1", "-p", "batchsize=5", "-p", "basicdb.verbose=false");
    assertEquals(0, run.exitStatus, run.toString());
    assertEquals("20", run.reportValue("BATCH_READ", "Operations"), run.toString());
    assertEquals("100", run.reportValue("BATCH_READ-RECORDS", "Return=OK"), run.toString());
    assertEquals("100", run.reportValue("READ", "Operations"), run.toString());
    assertTrue(run.stderr.contains("each batch runs as single operations"), run.stderr);
    String notice = "INFO ycsbpack: [<OP>-RECORDS] counts the records of each batch by status";
    assertTrue(run.stderr.contains(notice), run.stderr);
    assertEquals(run.stderr.indexOf(notice), run.stderr.lastIndexOf(notice), "said once");
  }
}
