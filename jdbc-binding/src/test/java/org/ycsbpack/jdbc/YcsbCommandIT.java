package org.ycsbpack.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ycsbpack.common.testing.ServerScripts.concat;

import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.testing.YcsbProcess;

/** bin/ycsb with the jdbc binding, run as a user runs it, against the real test server. */
class YcsbCommandIT {
  private static final String WORKLOAD = "workloads/s4/update-heavy.properties";

  private static String[] args(String command, String... more) {
    String[] base = {command, "jdbc", "-P", WORKLOAD, "-p", "db.url=" + LocalMariaDB.url(),
        "-p", "jdbc.createtable=true", "-p", "recordcount=300", "-p", "operationcount=600",
        "-p", "maxexecutiontime=120", "-threads", "4"};
    return concat(base, more);
  }

  @Test
  void dataIntegrityRunVerifiesEveryReadRow() throws Exception {
    String[] integrity = {"-p", "table=it_integrity", "-p", "dataintegrity=true",
        "-p", "fieldlengthdistribution=constant", "-p", "readproportion=0.5",
        "-p", "updateproportion=0.3", "-p", "scanproportion=0.2"};
    YcsbProcess load = YcsbProcess.run(args("load", integrity));
    assertEquals(0, load.exitStatus, load.toString());
    assertEquals("300", load.reportValue("INSERT", "Return=OK"), load.toString());

    YcsbProcess run = YcsbProcess.run(args("run", integrity));
    assertEquals(0, run.exitStatus, run.toString());
    int reads = Integer.parseInt(run.reportValue("READ", "Return=OK"));
    assertEquals(String.valueOf(reads), run.reportValue("VERIFY", "Return=OK"), run.toString());
    assertNull(run.reportValue("VERIFY", "Return=UNEXPECTED_STATE"), run.toString());
    assertNull(run.reportValue("UPDATE", "Return=ERROR"), run.toString());
    assertTrue(Integer.parseInt(run.reportValue("SCAN", "Return=OK")) > 0, run.toString());
  }

  @Test
  void aBadPropertyValueStopsTheClientWithOneSentence() throws Exception {
    YcsbProcess p = YcsbProcess.run(args("run", "-p", "table=it_integrity",
        "-p", "jdbc.batchupdateapi=maybe"));
    p.assertStoppedAtInit("jdbc", "property jdbc.batchupdateapi='maybe' is not valid: expected "
        + "true or false (default: false)");
  }

  @Test
  void ycsbsOwnBufferedInsertsAreRefusedWithWhatToUseInstead() throws Exception {
    YcsbProcess p = YcsbProcess.run(args("load", "-p", "table=it_integrity",
        "-p", "db.batchsize=1000"));
    assertEquals(3, p.exitStatus, p.toString());
    assertTrue(p.stderr.contains("ERROR jdbc: property db.batchsize=1000 (buffered inserts) is "
        + "not supported: use -p workload=org.ycsbpack.common.batch.BatchedWorkload"), p.stderr);
  }

  @Test
  void aUrlOfAnotherDatabaseIsRefused() throws Exception {
    YcsbProcess p = YcsbProcess.run(args("run", "-p", "db.url=jdbc:postgresql://127.0.0.1/ycsb"));
    assertEquals(3, p.exitStatus, p.toString());
    assertTrue(p.stderr.contains("ERROR jdbc: property db.url='jdbc:postgresql://127.0.0.1/ycsb' "
        + "is not a MariaDB or MySQL URL"), p.stderr);
  }

  @Test
  void anUnreachableServerIsNamedQuickly() throws Exception {
    long start = System.nanoTime();
    YcsbProcess p = YcsbProcess.run("run", "jdbc", "-P", WORKLOAD,
        "-p", "db.url=jdbc:mariadb://127.0.0.1:1/ycsb", "-p", "operationcount=10",
        "-threads", "4");
    long seconds = (System.nanoTime() - start) / 1_000_000_000L;
    assertEquals(3, p.exitStatus, p.toString());
    assertTrue(p.stderr.contains("ERROR jdbc: cannot connect to jdbc:mariadb://127.0.0.1:1/ycsb "
        + "as user 'root' (properties db.url, db.user, db.passwd): "), p.stderr);
    assertTrue(p.stderr.contains("check that the server is running and reachable"), p.stderr);
    assertEquals(1, p.stderr.split("ERROR jdbc").length - 1, p.stderr);
    assertFalse(p.stderr.contains("\tat "), "no stack trace: " + p.stderr);
    assertTrue(seconds < 60, "failed after " + seconds + " s");
  }

  @Test
  void theMysqlConnectorIsChosenByAJdbcMysqlUrl() throws Exception {
    String mysqlUrl = LocalMariaDB.url().replace("jdbc:mariadb:", "jdbc:mysql:")
        + "?useSSL=false&allowPublicKeyRetrieval=true";
    YcsbProcess p = YcsbProcess.run(args("load", "-p", "db.url=" + mysqlUrl,
        "-p", "table=it_mysql_connector", "-p", "recordcount=50"));
    assertEquals(0, p.exitStatus, p.toString());
    assertEquals("50", p.reportValue("INSERT", "Return=OK"), p.toString());
  }

  @Test
  void aMissingTableSaysHowToCreateIt() throws Exception {
    YcsbProcess p = YcsbProcess.run("run", "jdbc", "-P", WORKLOAD,
        "-p", "db.url=" + LocalMariaDB.url(), "-p", "table=it_never_created",
        "-p", "operationcount=10");
    assertEquals(3, p.exitStatus, p.toString());
    assertTrue(p.stderr.contains("ERROR jdbc: table 'it_never_created' does not exist at "
        + LocalMariaDB.url() + ": create it (CREATE TABLE IF NOT EXISTS it_never_created "
        + "(YCSB_KEY VARCHAR(255)"), p.stderr);
    assertTrue(p.stderr.contains("or run with -p jdbc.createtable=true"), p.stderr);
  }

  @Test
  void aPasswordNeverAppearsInTheOutputWhetherRightOrWrong() throws Exception {
    try (Connection c = BindingUnderTest.plain(); Statement st = c.createStatement()) {
      st.execute("CREATE USER IF NOT EXISTS 'bench'@'127.0.0.1' IDENTIFIED BY "
          + "'Hunter2-do-not-print'");
      st.execute("GRANT ALL ON ycsb.* TO 'bench'@'127.0.0.1'");
    }
    YcsbProcess ok = YcsbProcess.run(args("load", "-p", "table=it_secret", "-p", "db.user=bench",
        "-p", "db.passwd=Hunter2-do-not-print", "-p", "recordcount=20"));
    assertEquals(0, ok.exitStatus, ok.toString());
    assertFalse(ok.stderr.contains("Hunter2"), ok.stderr);
    assertFalse(ok.stdout.contains("Hunter2"), ok.stdout);
    assertTrue(ok.stderr.contains("db.passwd=*****"), ok.stderr);

    YcsbProcess wrong = YcsbProcess.run(args("load", "-p", "table=it_secret",
        "-p", "db.user=bench", "-p", "db.passwd=Wrong-Hunter3-secret", "-p", "recordcount=20"));
    assertEquals(3, wrong.exitStatus, wrong.toString());
    assertTrue(wrong.stderr.contains("Access denied for user 'bench'"), wrong.stderr);
    assertTrue(wrong.stderr.contains("check the user and password"), wrong.stderr);
    assertFalse(wrong.stderr.contains("Hunter3"), wrong.stderr);
    assertFalse(wrong.stdout.contains("Hunter3"), wrong.stdout);
  }

  @Test
  void aRunThatNeverStartedExitsNonZero() throws Exception {
    YcsbProcess p = YcsbProcess.run("run", "jdbc", "-p", "db.url=" + LocalMariaDB.url());
    assertEquals(2, p.exitStatus, p.toString());
    assertTrue(p.stderr.contains("ERROR ycsb: property workload is not set: give a workload file "
        + "with -P"), p.stderr);
  }
}
