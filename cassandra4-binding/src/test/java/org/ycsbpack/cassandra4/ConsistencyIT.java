package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Vector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * The consistency properties reach the server: a keyspace with replication factor 3 on a
 * one-node cluster has one live replica per key, so the server itself answers CL ALL with
 * "3 required but only 1 alive" (UNAVAILABLE) while CL ONE succeeds.
 */
class ConsistencyIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  private Cassandra4Client client(String property, String level) throws DBException {
    return binding.client("cassandra.keyspace", "it_rf3", "cassandra.createschema", "true",
        "cassandra.replication", "SimpleStrategy:3", "fieldcount", "1", property, level);
  }

  private static Map<String, ByteIterator> value() {
    Map<String, ByteIterator> v = new HashMap<>();
    v.put("field0", new StringByteIterator("x"));
    return v;
  }

  @Test
  void writeConsistencyLevelGovernsInsertsUpdatesAndDeletes() throws DBException {
    Cassandra4Client one = client("cassandra.writeconsistencylevel", "ONE");
    Cassandra4Client all = client("cassandra.writeconsistencylevel", "ALL");
    assertEquals(Status.OK, one.insert("usertable", "k1", value()));
    assertEquals("UNAVAILABLE", all.insert("usertable", "k2", value()).getName());
    assertEquals("UNAVAILABLE", all.update("usertable", "k1", value()).getName());
    assertEquals("UNAVAILABLE", all.delete("usertable", "k1").getName());
    assertEquals(Status.OK, one.delete("usertable", "k1"));
  }

  @Test
  void readConsistencyLevelGovernsReads() throws DBException {
    client("cassandra.writeconsistencylevel", "ONE").insert("usertable", "k3", value());
    Cassandra4Client one = client("cassandra.readconsistencylevel", "ONE");
    Cassandra4Client all = client("cassandra.readconsistencylevel", "ALL");
    assertEquals(Status.OK, one.read("usertable", "k3", null, new HashMap<>()));
    assertEquals("UNAVAILABLE", all.read("usertable", "k3", null, new HashMap<>()).getName());
    // reads and writes have their own levels: a CL ALL read client still writes at ONE
    assertEquals(Status.OK, all.insert("usertable", "k4", value()));
  }

  @Test
  void scanConsistencyLevelGovernsScans() throws DBException {
    Cassandra4Client one = client("cassandra.scanconsistencylevel", "ONE");
    Cassandra4Client all = client("cassandra.scanconsistencylevel", "QUORUM");
    assertEquals(Status.OK, one.scan("usertable", "k1", 5, null, new Vector<>()));
    assertEquals("UNAVAILABLE", all.scan("usertable", "k1", 5, null, new Vector<>()).getName());
  }
}
