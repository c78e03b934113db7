package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ycsbpack.common.batch.BatchResult;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/** Batched reads and writes of the cassandra4 binding, in every mode, on the real test node. */
class CassandraBatchIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  private static Map<String, ByteIterator> row(String key, String suffix) {
    Map<String, ByteIterator> v = new HashMap<>();
    v.put("field0", new StringByteIterator(key + "/0" + suffix));
    v.put("field1", new StringByteIterator(key + "/1" + suffix));
    return v;
  }

  private static Map<String, String> strings(Map<String, ByteIterator> row) {
    Map<String, String> out = new HashMap<>();
    row.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  private Cassandra4Client client(String... more) throws DBException {
    List<String> kv = new ArrayList<>(Arrays.asList("cassandra.keyspace", "it_batch",
        "cassandra.createschema", "true", "fieldcount", "2"));
    kv.addAll(Arrays.asList(more));
    return binding.client(kv.toArray(new String[0]));
  }

  @ParameterizedTest
  @ValueSource(strings = {"in", "async"})
  void aBatchedReadEqualsTheSingleReadsAndCountsMissingKeys(String mode) throws DBException {
    Cassandra4Client c = client("cassandra.batchread", mode);
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      String key = "read-" + mode + "-" + i;
      c.insert("usertable", key, row(key, ""));
      keys.add(key);
    }
    keys.add(2, "absent-a");
    keys.add("absent-b");
    keys.add("absent-c");

    Map<String, Map<String, ByteIterator>> batch = new HashMap<>();
    BatchResult r = new CassandraBatches(connectionOf(c), settingsOf(c), errors())
        .batchRead("usertable", keys, null, batch);
    assertEquals(Status.OK, r.status());
    assertEquals(7, r.ok());
    assertEquals(3, r.missing());
    assertEquals(0, r.failed());
    assertEquals(7, batch.size());
    for (String key : keys) {
      Map<String, ByteIterator> single = new HashMap<>();
      Status s = c.read("usertable", key, null, single);
      if (s == Status.NOT_FOUND) {
        assertTrue(!batch.containsKey(key), key);
      } else {
        assertEquals(strings(single), strings(batch.get(key)), key);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"unlogged", "logged", "async"})
  void batchedInsertsAndUpdatesAreAllReadableAfterwards(String mode) throws DBException {
    Cassandra4Client c = client("cassandra.batchwrite", mode);
    CassandraBatches batches = new CassandraBatches(connectionOf(c), settingsOf(c), errors());
    List<String> keys = new ArrayList<>();
    List<Map<String, ByteIterator>> rows = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      keys.add("write-" + mode + "-" + i);
      rows.add(row(keys.get(i), ""));
    }
    BatchResult inserted = batches.batchInsert("usertable", keys, rows);
    assertEquals(25, inserted.ok(), inserted.toString());
    List<Map<String, ByteIterator>> changes = new ArrayList<>();
    for (String key : keys) {
      Map<String, ByteIterator> v = new HashMap<>();
      v.put("field1", new StringByteIterator(key + "/1+"));
      changes.add(v);
    }
    assertEquals(25, batches.batchUpdate("usertable", keys, changes).ok());
    for (String key : keys) {
      Map<String, ByteIterator> single = new HashMap<>();
      assertEquals(Status.OK, c.read("usertable", key, null, single));
      Map<String, String> expected = new HashMap<>();
      expected.put("field0", key + "/0");
      expected.put("field1", key + "/1+");
      assertEquals(expected, strings(single));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"unlogged", "async"})
  void aFailedBatchCountsEveryRecordAsFailedUnderItsStatus(String mode) throws DBException {
    Cassandra4Client c = binding.client("cassandra.keyspace", "it_batch_rf3",
        "cassandra.createschema", "true", "cassandra.replication", "SimpleStrategy:3",
        "fieldcount", "2", "cassandra.batchwrite", mode, "cassandra.writeconsistencylevel", "ALL");
    List<String> keys = Arrays.asList("f1", "f2", "f3", "f4");
    List<Map<String, ByteIterator>> rows = new ArrayList<>();
    for (String k : keys) {
      rows.add(row(k, ""));
    }
    BatchResult r = new CassandraBatches(connectionOf(c), settingsOf(c), errors())
        .batchInsert("usertable", keys, rows);
    assertEquals("UNAVAILABLE", r.status().getName());
    assertEquals(0, r.ok());
    assertEquals(4, r.failed());
  }

  private static CassandraConnection connectionOf(Cassandra4Client c) {
    return c.connectionForTests();
  }

  private static CassandraSettings settingsOf(Cassandra4Client c) {
    return c.settingsForTests();
  }

  private static org.ycsbpack.common.ErrorLog errors() {
    return new org.ycsbpack.common.ErrorLog("cassandra4-test");
  }
}
