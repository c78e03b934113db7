package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ycsbpack.common.testing.ServerScripts.concat;

import org.junit.jupiter.api.Test;
import org.ycsbpack.common.testing.YcsbProcess;

/** bin/ycsb with the cassandra4 binding, run as a user runs it, against the real test node. */
class YcsbCommandIT {
  private static final String WORKLOAD = "workloads/s4/update-heavy.properties";

  private static String[] args(String command, String... more) {
    String[] base = {command, "cassandra4", "-P", WORKLOAD, "-p", "hosts=" + LocalCassandra.hosts(),
        "-p", "cassandra.createschema=true", "-p", "recordcount=300", "-p", "operationcount=600",
        "-p", "maxexecutiontime=120", "-threads", "4"};
    return concat(base, more);
  }

  @Test
  void dataIntegrityRunVerifiesEveryReadRow() throws Exception {
    String[] integrity = {"-p", "cassandra.keyspace=it_integrity", "-p", "dataintegrity=true",
        "-p", "fieldlengthdistribution=constant", "-p", "readproportion=1",
        "-p", "updateproportion=0"};
    YcsbProcess load = YcsbProcess.run(args("load", integrity));
    assertEquals(0, load.exitStatus, load.toString());
    assertEquals("300", load.reportValue("INSERT", "Return=OK"), load.toString());

    YcsbProcess run = YcsbProcess.run(args("run", integrity));
    assertEquals(0, run.exitStatus, run.toString());
    assertEquals("600", run.reportValue("READ", "Return=OK"), run.toString());
    assertEquals("600", run.reportValue("VERIFY", "Return=OK"), run.toString());
    assertNull(run.reportValue("VERIFY", "Return=UNEXPECTED_STATE"), run.toString());
    // closing the session is inside the run's RunTime: it must not idle through the driver's
    // 2-s event-loop quiet period (it took 2,000,000-2,050,000 us before, HBase's a few us)
    long cleanupUs = Long.parseLong(run.reportValue("CLEANUP", "MaxLatency(us)"));
    assertTrue(cleanupUs < 1_000_000, "cleanup took " + cleanupUs + " us: " + run);
  }

  @Test
  void aBadPropertyValueStopsTheClientWithOneSentence() throws Exception {
    YcsbProcess p = YcsbProcess.run(args("run",
        "-p", "cassandra.keyspace=it_integrity", "-p", "cassandra.readconsistencylevel=SOME"));
    p.assertStoppedAtInit("cassandra4", "property cassandra.readconsistencylevel='SOME' is not "
        + "valid: expected one of ANY, ONE, TWO, THREE");
  }

  @Test
  void anUnreachableHostIsNamedQuickly() throws Exception {
    long start = System.nanoTime();
    YcsbProcess p = YcsbProcess.run("run", "cassandra4", "-P", WORKLOAD,
        "-p", "hosts=127.0.0.1:1", "-p", "operationcount=10");
    long seconds = (System.nanoTime() - start) / 1_000_000_000L;
    assertEquals(3, p.exitStatus, p.toString());
    assertTrue(p.stderr.contains("ERROR cassandra4: cannot connect to Cassandra at 127.0.0.1:1"),
        p.stderr);
    assertTrue(p.stderr.contains("check that the nodes are up"), p.stderr);
    assertTrue(seconds < 60, "failed after " + seconds + " s");
  }

  @Test
  void aMissingKeyspaceSaysHowToCreateIt() throws Exception {
    YcsbProcess p = YcsbProcess.run("run", "cassandra4", "-P", WORKLOAD,
        "-p", "hosts=" + LocalCassandra.hosts(), "-p", "cassandra.keyspace=it_never_created",
        "-p", "operationcount=10");
    assertEquals(3, p.exitStatus, p.toString());
    assertTrue(p.stderr.contains("keyspace 'it_never_created' does not exist at "
        + LocalCassandra.hosts() + ":9042: create it, or run with -p cassandra.createschema=true"),
        p.stderr);
  }

  @Test
  void aWrongLocalDatacenterListsTheClustersDatacenters() throws Exception {
    YcsbProcess p = YcsbProcess.run(args("run", "-p", "cassandra.localdc=dc-east"));
    assertEquals(3, p.exitStatus, p.toString());
    assertTrue(p.stderr.contains("property cassandra.localdc='dc-east' matches no node of the "
        + "cluster"), p.stderr);
    assertTrue(p.stderr.contains("[datacenter1]"), p.stderr);
  }

  @Test
  void aPasswordNeverAppearsInTheOutput() throws Exception {
    YcsbProcess p = YcsbProcess.run(args("load", "-p", "cassandra.keyspace=it_secret",
        "-p", "cassandra.username=bench", "-p", "cassandra.password=Hunter2-do-not-print",
        "-p", "recordcount=20"));
    assertEquals(0, p.exitStatus, p.toString());
    assertFalse(p.stderr.contains("Hunter2"), p.stderr);
    assertFalse(p.stdout.contains("Hunter2"), p.stdout);
    assertTrue(p.stderr.contains("cassandra.password=*****"), p.stderr);
  }

  @Test
  void aRunThatNeverStartedExitsNonZero() throws Exception {
    YcsbProcess p = YcsbProcess.run("run", "cassandra4", "-p", "hosts=" + LocalCassandra.hosts());
    assertEquals(2, p.exitStatus, p.toString());
    assertTrue(p.stderr.contains("ERROR ycsb: property workload is not set: give a workload file "
        + "with -P"), p.stderr);
  }
}
