package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.testing.YcsbProcess;

/** bin/ycsb with the hbase-salted binding, run as a user runs it, against the real test HBase. */
class YcsbCommandIT {

  private static String[] args(String command, String... more) {
    List<String> all = new ArrayList<>(Arrays.asList(command, "hbase-salted",
        "-p", "workload=site.ycsb.workloads.CoreWorkload", "-p", "recordcount=300",
        "-p", "operationcount=600", "-p", "maxexecutiontime=120", "-threads", "4"));
    all.addAll(Arrays.asList(LocalHBase.ycsbArgs()));
    all.addAll(Arrays.asList(more));
    return all.toArray(new String[0]);
  }

  private static void assertInitFailure(YcsbProcess p, String sentence) {
    p.assertStoppedAtInit("hbase-salted", sentence);
  }

  @Test
  void dataIntegrityRunsCleanWithEveryOperationKind() throws Exception {
    String[] integrity = {"-p", "table=it_integrity", "-p", "hbase.salt=buckets:16",
        "-p", "hbase.createtable=true", "-p", "dataintegrity=true",
        "-p", "fieldlengthdistribution=constant", "-p", "readproportion=0.5",
        "-p", "updateproportion=0.2", "-p", "scanproportion=0.2", "-p", "insertproportion=0.1"};
    YcsbProcess load = YcsbProcess.run(args("load", integrity));
    assertEquals(0, load.exitStatus, load.toString());
    assertEquals("300", load.reportValue("INSERT", "Return=OK"), load.toString());

    YcsbProcess run = YcsbProcess.run(args("run", integrity));
    assertEquals(0, run.exitStatus, run.toString());
    String reads = run.reportValue("READ", "Operations");
    assertTrue(Integer.parseInt(reads) > 200, run.toString());
    assertEquals(reads, run.reportValue("READ", "Return=OK"), run.toString());
    assertEquals(reads, run.reportValue("VERIFY", "Return=OK"), run.toString());
    assertNull(run.reportValue("VERIFY", "Return=UNEXPECTED_STATE"), run.toString());
    for (String op : new String[] {"UPDATE", "SCAN", "INSERT"}) {
      assertEquals(run.reportValue(op, "Operations"), run.reportValue(op, "Return=OK"),
          op + " all OK:\n" + run);
    }
    assertFalse(run.stderr.contains("WARN hbase-salted"), run.stderr);
  }

  @Test
  void anUnknownSaltModeIsOneSentence() throws Exception {
    assertInitFailure(YcsbProcess.run(args("run", "-p", "hbase.salt=md5")),
        "property hbase.salt='md5' is not valid: expected crc32, buckets:N with N from 1 to 256, "
            + "or none (default: crc32)");
  }

  @Test
  void aBucketCountOutOfRangeIsOneSentence() throws Exception {
    assertInitFailure(YcsbProcess.run(args("run", "-p", "hbase.salt=buckets:300")),
        "property hbase.salt='buckets:300' is not valid: expected crc32, buckets:N with N from 1 "
            + "to 256");
  }

  @Test
  void anUnknownCodecIsOneSentence() throws Exception {
    assertInitFailure(YcsbProcess.run(args("run", "-p", "hbase.compression=zip")),
        "property hbase.compression='zip' is not valid: expected one of ");
  }

  @Test
  void aCodecTheServerLacksIsNamedWithTheWayOut() throws Exception {
    assertInitFailure(YcsbProcess.run(args("load", "-p", "table=it_lzo",
        "-p", "hbase.createtable=true", "-p", "hbase.compression=LZO")),
        "the HBase servers cannot use hbase.compression=LZO");
  }

  @Test
  void aMissingTableSaysHowToCreateIt() throws Exception {
    assertInitFailure(YcsbProcess.run(args("run", "-p", "table=it_never_created")),
        "table it_never_created does not exist at ZooKeeper " + LocalHBase.quorum() + ":"
            + LocalHBase.port() + " (properties hbase.zookeeper.quorum, "
            + "hbase.zookeeper.property.clientPort): create it (HBase shell: create "
            + "'it_never_created', 'cf') or run with -p hbase.createtable=true");
  }

  @Test
  void aMissingFamilyListsTheTablesFamilies() throws Exception {
    YcsbProcess create = YcsbProcess.run(args("load", "-p", "table=it_family",
        "-p", "hbase.createtable=true", "-p", "recordcount=10"));
    assertEquals(0, create.exitStatus, create.toString());
    assertInitFailure(YcsbProcess.run(args("run", "-p", "table=it_family",
        "-p", "columnfamily=data")),
        "table it_family has no column family 'data' (property columnfamily); its families are "
            + "[cf]");
  }

  @Test
  void aZooKeeperPortWhereNothingListensIsNamedInSecondsWithoutStackTraces() throws Exception {
    long start = System.nanoTime();
    YcsbProcess p = YcsbProcess.run("run", "hbase-salted",
        "-p", "workload=site.ycsb.workloads.CoreWorkload", "-p", "operationcount=10",
        "-p", "hbase.zookeeper.quorum=127.0.0.1", "-p", "hbase.zookeeper.property.clientPort=1",
        "-p", "hbase.connecttimeoutms=30000");
    long seconds = (System.nanoTime() - start) / 1_000_000_000L;
    assertInitFailure(p, "cannot connect to HBase at ZooKeeper 127.0.0.1:1 "
        + "(properties hbase.zookeeper.quorum, hbase.zookeeper.property.clientPort): connection "
        + "refused at 127.0.0.1:1: nothing listens there; check that HBase is running and "
        + "reachable (a local one: scripts/hbase-local start)");
    assertFalse(p.stderr.contains("\tat "), "ZooKeeper's stack traces go to the client log");
    assertTrue(seconds < 20, "failed after " + seconds + " s, not after the 30 s timeout");
  }

  @Test
  void scansUnderCrc32SaltAreCountedAsUnsupported() throws Exception {
    String[] scans = {"-p", "table=it_crc32_scan", "-p", "hbase.createtable=true",
        "-p", "hbase.presplit=4", "-p", "readproportion=0", "-p", "scanproportion=1",
        "-p", "updateproportion=0", "-p", "operationcount=50"};
    assertEquals(0, YcsbProcess.run(args("load", scans)).exitStatus);
    YcsbProcess run = YcsbProcess.run(args("run", scans));
    assertEquals(0, run.exitStatus, run.toString());
    assertEquals("50", run.reportValue("SCAN", "Return=SCAN_UNSUPPORTED"), run.toString());
    assertTrue(run.stderr.contains("WARN hbase-salted: scanproportion=1 but hbase.salt=crc32 "
        + "cannot scan in key order"), run.stderr);
    assertTrue(run.stderr.contains("use hbase.salt=buckets:N (N up to 256)"), run.stderr);
  }
}
