package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

class CrudIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  private Cassandra4Client client() throws DBException {
    return binding.client("cassandra.keyspace", "it_crud", "cassandra.createschema", "true",
        "fieldcount", "3");
  }

  /** Every byte value 0..255, in a different order per field. */
  private static Map<String, ByteIterator> allByteValues() {
    Map<String, ByteIterator> values = new HashMap<>();
    for (int f = 0; f < 3; f++) {
      byte[] b = new byte[256];
      for (int i = 0; i < 256; i++) {
        b[i] = (byte) (i * (2 * f + 1));
      }
      values.put("field" + f, new ByteArrayByteIterator(b));
    }
    return values;
  }

  private static Map<String, byte[]> bytes(Map<String, ByteIterator> values) {
    Map<String, byte[]> out = new HashMap<>();
    values.forEach((k, v) -> out.put(k, v.toArray()));
    return out;
  }

  private static void assertSameBytes(Map<String, byte[]> expected, Map<String, ByteIterator> got) {
    assertEquals(expected.keySet(), got.keySet());
    expected.forEach((k, v) -> assertArrayEquals(v, got.get(k).toArray(), k));
  }

  @Test
  void insertedValuesReadBackByteIdentical() throws DBException {
    Cassandra4Client c = client();
    // a ByteIterator is consumed when read: the expectation comes from a second, equal copy
    Map<String, byte[]> written = bytes(allByteValues());
    assertEquals(Status.OK, c.insert("usertable", "crud-1", allByteValues()));
    Map<String, ByteIterator> read = new HashMap<>();
    assertEquals(Status.OK, c.read("usertable", "crud-1", null, read));
    assertSameBytes(written, read);
  }

  @Test
  void readOfSomeFieldsReturnsOnlyThose() throws DBException {
    Cassandra4Client c = client();
    Map<String, byte[]> written = bytes(allByteValues());
    c.insert("usertable", "crud-2", allByteValues());
    Set<String> fields = new HashSet<>();
    fields.add("field1");
    Map<String, ByteIterator> read = new HashMap<>();
    assertEquals(Status.OK, c.read("usertable", "crud-2", fields, read));
    Map<String, byte[]> expected = new HashMap<>();
    expected.put("field1", written.get("field1"));
    assertSameBytes(expected, read);
  }

  @Test
  void updateChangesOnlyTheGivenFields() throws DBException {
    Cassandra4Client c = client();
    Map<String, byte[]> written = bytes(allByteValues());
    c.insert("usertable", "crud-3", allByteValues());
    Map<String, ByteIterator> change = new HashMap<>();
    change.put("field2", new ByteArrayByteIterator("changed".getBytes()));
    assertEquals(Status.OK, c.update("usertable", "crud-3", change));
    Map<String, ByteIterator> read = new HashMap<>();
    c.read("usertable", "crud-3", null, read);
    written.put("field2", "changed".getBytes());
    assertSameBytes(written, read);
  }

  @Test
  void deletedAndNeverWrittenRowsAreNotFound() throws DBException {
    Cassandra4Client c = client();
    c.insert("usertable", "crud-4", allByteValues());
    assertEquals(Status.OK, c.delete("usertable", "crud-4"));
    assertEquals(Status.NOT_FOUND, c.read("usertable", "crud-4", null, new HashMap<>()));
    assertEquals(Status.NOT_FOUND, c.read("usertable", "never-written", null, new HashMap<>()));
  }

  @Test
  void aFieldTheTableLacksIsAnInvalidQueryNotACrash() throws DBException {
    Cassandra4Client c = client();
    Map<String, ByteIterator> values = new HashMap<>();
    values.put("field7", new ByteArrayByteIterator("x".getBytes()));
    assertEquals("INVALID_QUERY", c.insert("usertable", "crud-5", values).getName());
  }
}
