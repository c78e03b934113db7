package org.ycsbpack.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ycsbpack.common.testing.TestRows.allByteValues;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.Vector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * Single-row operations of the jdbc binding on the real test server beyond the shared contract
 * (BindingContractIT: byte-identical CRUD, partial reads and updates): MySQL's own outcomes
 * (updates of missing rows, duplicate keys, unknown columns, lock waits, dropped connections) and
 * scans in key order.
 */
class CrudIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  private JdbcClient client(String table) throws DBException {
    return binding.client("table", table, "jdbc.createtable", "true", "fieldcount", "3");
  }

  @Test
  void anUpdateOfARowNeverWrittenIsNotFound() throws DBException {
    JdbcClient c = client("it_crud");
    Map<String, ByteIterator> change = new HashMap<>();
    change.put("field2", new ByteArrayByteIterator("x".getBytes()));
    assertEquals(Status.NOT_FOUND, c.update("it_crud", "never-written", change),
        "unlike Cassandra's and HBase's, a SQL UPDATE writes no row that is not there");
  }

  @Test
  void anUpdateThatWritesTheSameValuesIsStillOk() throws DBException {
    JdbcClient c = client("it_crud");
    c.insert("it_crud", "crud-6", allByteValues());
    assertEquals(Status.OK, c.update("it_crud", "crud-6", allByteValues()),
        "matched rows, not changed rows, decide");
  }

  @Test
  void aDuplicateKeyAndAnUnknownColumnHaveTheirOwnStatus() throws DBException {
    JdbcClient c = client("it_crud");
    assertEquals(Status.OK, c.insert("it_crud", "crud-5", allByteValues()));
    assertEquals("DUPLICATE_KEY", c.insert("it_crud", "crud-5", allByteValues()).getName());
    Map<String, ByteIterator> values = new HashMap<>();
    values.put("field7", new ByteArrayByteIterator("x".getBytes()));
    assertEquals("UNKNOWN_COLUMN", c.insert("it_crud", "crud-7", values).getName());
    assertEquals("TABLE_NOT_FOUND", c.read("it_never_created", "k", null, new HashMap<>())
        .getName());
  }

  @Test
  void aRowLockedByAnotherTransactionIsALockWaitTimeout() throws Exception {
    JdbcClient c = binding.client("table", "it_crud", "jdbc.createtable", "true", "fieldcount",
        "3", "db.url", LocalMariaDB.url() + "?sessionVariables=innodb_lock_wait_timeout=1");
    assertEquals(Status.OK, c.insert("it_crud", "crud-lock", allByteValues()));
    try (Connection other = BindingUnderTest.plain()) {
      other.setAutoCommit(false);
      try (Statement st = other.createStatement()) {
        st.executeQuery("SELECT * FROM it_crud WHERE YCSB_KEY = 'crud-lock' FOR UPDATE").close();
        assertEquals("LOCK_WAIT_TIMEOUT", c.update("it_crud", "crud-lock", allByteValues())
            .getName());
      } finally {
        other.rollback();
      }
    }
    assertEquals(Status.OK, c.update("it_crud", "crud-lock", allByteValues()));
  }

  @Test
  void aConnectionTheServerDropsCostsOneOperation() throws Exception {
    JdbcClient c = binding.client("table", "it_crud", "jdbc.createtable", "true", "fieldcount",
        "3", "jdbc.poolsize", "1");
    assertEquals(Status.OK, c.insert("it_crud", "crud-kill", allByteValues()));
    try (Connection other = BindingUnderTest.plain(); Statement st = other.createStatement()) {
      List<Long> ids = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("SELECT ID FROM information_schema.PROCESSLIST "
          + "WHERE DB = 'ycsb' AND ID <> CONNECTION_ID() AND COMMAND = 'Sleep'")) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
      for (long id : ids) {
        st.execute("KILL CONNECTION " + id);
      }
    }
    // used within HikariCP's 500 ms no-validation window: the dead connection is handed out
    assertEquals("CONNECTION_LOST", c.read("it_crud", "crud-kill", null, new HashMap<>())
        .getName());
    assertEquals(Status.OK, c.read("it_crud", "crud-kill", null, new HashMap<>()),
        "the pool replaced the broken connection");
  }

  @Test
  void scansReturnRowsInKeyOrderFromTheStartKey() throws DBException {
    JdbcClient c = client("it_scan");
    TreeSet<String> keys = new TreeSet<>();
    for (int i = 0; i < 60; i++) {
      // hashed-looking keys, inserted out of order; byte order is the binary collation's
      String key = "user" + Integer.toHexString(i * 2654435761L > 0 ? (int) (i * 2654435761L) : i);
      keys.add(key);
      Map<String, ByteIterator> v = new HashMap<>();
      v.put("field0", new StringByteIterator(key));
      assertEquals(Status.OK, c.insert("it_scan", key, v));
    }
    List<String> all = new ArrayList<>(keys);
    for (int start : new int[] {0, 7, 55}) {
      Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
      assertEquals(Status.OK, c.scan("it_scan", all.get(start), 10, null, rows));
      List<String> got = new ArrayList<>();
      for (HashMap<String, ByteIterator> row : rows) {
        got.add(row.get("field0").toString());
      }
      assertEquals(all.subList(start, Math.min(all.size(), start + 10)), got);
    }
  }
}
