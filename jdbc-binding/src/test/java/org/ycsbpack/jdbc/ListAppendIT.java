package org.ycsbpack.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.testing.ListOperationsContract;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The S1 anti-fraud history on the real test server: the list-append contract of every binding
 * (order, TTL, batched reads in both write modes), the rows it stores, the purge of expired
 * elements, and nothing lost in a real run.
 */
class ListAppendIT extends ListOperationsContract {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  @Override
  protected String bindingName() {
    return "jdbc";
  }

  @Override
  protected String[] runConnection() {
    return new String[] {"-p", "db.url=" + LocalMariaDB.url(), "-p", "db.user=root",
        "-p", "jdbc.createtable=true", "-p", "table=it_lists_run_usertable",
        "-p", "listappend.table=history_run"};
  }

  @Override
  protected List<String[]> batchModes() {
    return Arrays.asList(new String[] {"jdbc.batchupdateapi", "false"},
        new String[] {"jdbc.batchupdateapi", "true"});
  }

  private JdbcClient client(String... more) throws DBException {
    List<String> kv = new ArrayList<>(Arrays.asList("table", "it_lists_usertable",
        "jdbc.createtable", "true", "jdbc.listpurgeseconds", "0"));
    kv.addAll(Arrays.asList(more));
    return binding.client(kv.toArray(new String[0]));
  }

  @Override
  protected JdbcLists lists(String... more) throws DBException {
    JdbcLists lists = new JdbcLists(client(more).connectionForTests(), new ErrorLog("jdbc-test"));
    assertNull(lists.prepareListTable("history"));
    return lists;
  }

  private static long rows(String sql) throws Exception {
    try (Connection c = BindingUnderTest.plain(); Statement st = c.createStatement();
         ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aListIsOneRowPerElementOrderedByAppendTime() throws Exception {
    JdbcLists lists = lists();
    for (int i = 0; i < 3; i++) {
      assertEquals(Status.OK, lists.append("history", "172.68.7.7", "ip", "e" + i, 600));
    }
    assertEquals(3, rows("SELECT COUNT(*) FROM history WHERE custom_id = '172.68.7.7'"));
    assertEquals(1, rows("SELECT COUNT(DISTINCT writer) FROM history WHERE custom_id = "
        + "'172.68.7.7'"), "one writer id per client JVM");
    assertEquals(3, rows("SELECT COUNT(DISTINCT appended_us) FROM history WHERE custom_id = "
        + "'172.68.7.7'"), "append times strictly increase within a JVM");
  }

  @Test
  void thePurgeDeletesExpiredElementsAndKeepsTheOthers() throws Exception {
    JdbcClient c = client();
    JdbcLists lists = new JdbcLists(c.connectionForTests(), new ErrorLog("jdbc-test"));
    assertNull(lists.prepareListTable("history_purge"));
    for (int i = 0; i < 5; i++) {
      assertEquals(Status.OK, lists.append("history_purge", "172.68.1." + i, "ip", "old", 1));
    }
    assertEquals(Status.OK, lists.append("history_purge", "172.68.1.0", "ip", "new", 600));
    Thread.sleep(2100);
    assertEquals(6, rows("SELECT COUNT(*) FROM history_purge"), "expired rows stay until purged");
    assertEquals(1, lists.countElements("history_purge", "ip"), "but are never counted");
    long purged = ExpiredElementPurger.purge(c.connectionForTests().pool,
        "history_purge");
    assertEquals(5, purged);
    assertEquals(1, rows("SELECT COUNT(*) FROM history_purge"));
  }

  @Test
  void aMissingListTableSaysHowToCreateIt() throws Exception {
    JdbcClient c = binding.client("table", "it_lists_usertable", "jdbc.createtable", "false");
    String problem = new JdbcLists(c.connectionForTests(), new ErrorLog("jdbc-test"))
        .prepareListTable("history_never_created");
    assertTrue(problem.startsWith("table 'history_never_created' does not exist at "
        + LocalMariaDB.url() + ": create it (CREATE TABLE IF NOT EXISTS history_never_created"),
        problem);
    assertTrue(problem.endsWith("or run with -p jdbc.createtable=true"), problem);
  }
}
