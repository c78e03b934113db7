package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Vector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

class ScanIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  @Test
  void scanReturnsRecordcountRowsInTokenOrderFromTheStartKey() throws DBException {
    // a page size below the LIMIT makes the driver fetch several pages
    Cassandra4Client c = binding.client("cassandra.keyspace", "it_scan",
        "cassandra.createschema", "true", "fieldcount", "1", "cassandra.scanpagesize", "3");
    for (int i = 0; i < 60; i++) {
      Map<String, ByteIterator> v = new HashMap<>();
      v.put("field0", new StringByteIterator("user" + i));
      assertEquals(Status.OK, c.insert("usertable", "user" + i, v));
    }
    List<String> expected = new ArrayList<>();
    List<Long> tokens = new ArrayList<>();
    try (CqlSession s = BindingUnderTest.session()) {
      for (Row r : s.execute("SELECT y_id, token(y_id) AS t FROM it_scan.usertable "
          + "WHERE token(y_id) >= token('user17') LIMIT 20")) {
        expected.add(r.getString("y_id"));
        tokens.add(r.getLong("t"));
      }
    }
    List<Long> sorted = new ArrayList<>(tokens);
    Collections.sort(sorted);
    assertEquals(sorted, tokens, "CQL itself returns token order");
    assertEquals("user17", expected.get(0));

    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, c.scan("usertable", "user17", 20, null, rows));
    List<String> scanned = new ArrayList<>();
    for (HashMap<String, ByteIterator> row : rows) {
      scanned.add(row.get("field0").toString());
    }
    assertEquals(expected, scanned);
  }

  @Test
  void scanFromTheLastTokenOfTheRingReturnsOnlyThatRow() throws DBException {
    Cassandra4Client c = binding.client("cassandra.keyspace", "it_scan",
        "cassandra.createschema", "true", "fieldcount", "1");
    for (int i = 0; i < 60; i++) {
      Map<String, ByteIterator> v = new HashMap<>();
      v.put("field0", new StringByteIterator("user" + i));
      c.insert("usertable", "user" + i, v);
    }
    String last = null;
    try (CqlSession s = BindingUnderTest.session()) {
      for (Row r : s.execute("SELECT y_id FROM it_scan.usertable")) {
        last = r.getString("y_id");
      }
    }
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertEquals(Status.OK, c.scan("usertable", last, 10, null, rows));
    assertEquals(1, rows.size(), "token scans do not wrap around the ring");
    assertEquals(last, rows.get(0).get("field0").toString());
  }
}
