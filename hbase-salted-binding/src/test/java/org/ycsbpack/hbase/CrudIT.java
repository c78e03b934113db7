package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

/** Insert, read, update and delete on the real HBase, in every salt mode and key encoding. */
class CrudIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  private HBaseSaltedClient client(String salt, String encoding) throws DBException {
    return binding.client("table", "it_crud_" + salt.replace(':', '_') + "_" + encoding,
        "hbase.salt", salt, "hbase.keyencoding", encoding, "hbase.createtable", "true",
        "hbase.presplit", salt.equals("none") ? "1" : "4");
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

  private static void assertSameBytes(Map<String, byte[]> expected,
                                      Map<String, ByteIterator> got) {
    assertEquals(expected.keySet(), got.keySet());
    expected.forEach((k, v) -> assertArrayEquals(v, got.get(k).toArray(), k));
  }

  @ParameterizedTest(name = "salt {0}, {1} keys")
  @CsvSource({"crc32, string", "crc32, long", "buckets:16, string", "none, long"})
  void insertedValuesReadBackByteIdentical(String salt, String encoding) throws DBException {
    HBaseSaltedClient c = client(salt, encoding);
    // a ByteIterator is consumed when read: the expectation comes from a second, equal copy
    Map<String, byte[]> written = bytes(allByteValues());
    assertEquals(Status.OK, c.insert("usertable", "user1001", allByteValues()));
    Map<String, ByteIterator> read = new HashMap<>();
    assertEquals(Status.OK, c.read("usertable", "user1001", null, read));
    assertSameBytes(written, read);
  }

  @ParameterizedTest(name = "salt {0}, {1} keys")
  @CsvSource({"crc32, string", "crc32, long", "buckets:16, string", "none, long"})
  void readOfSomeFieldsReturnsOnlyThose(String salt, String encoding) throws DBException {
    HBaseSaltedClient c = client(salt, encoding);
    Map<String, byte[]> written = bytes(allByteValues());
    c.insert("usertable", "user1002", allByteValues());
    Map<String, ByteIterator> read = new HashMap<>();
    assertEquals(Status.OK, c.read("usertable", "user1002", Collections.singleton("field1"), read));
    assertSameBytes(Collections.singletonMap("field1", written.get("field1")), read);
  }

  @ParameterizedTest(name = "salt {0}, {1} keys")
  @CsvSource({"crc32, string", "crc32, long", "buckets:16, string", "none, long"})
  void updateChangesOnlyTheGivenFields(String salt, String encoding) throws DBException {
    HBaseSaltedClient c = client(salt, encoding);
    Map<String, byte[]> expected = bytes(allByteValues());
    c.insert("usertable", "user1003", allByteValues());
    byte[] changed = {0, (byte) 0xff, 0x7f, (byte) 0x80};
    assertEquals(Status.OK, c.update("usertable", "user1003",
        Collections.singletonMap("field2", new ByteArrayByteIterator(changed))));
    expected.put("field2", changed);
    Map<String, ByteIterator> read = new HashMap<>();
    assertEquals(Status.OK, c.read("usertable", "user1003", null, read));
    assertSameBytes(expected, read);
  }

  @ParameterizedTest(name = "salt {0}, {1} keys")
  @CsvSource({"crc32, string", "crc32, long", "buckets:16, string", "none, long"})
  void aDeletedRowIsNotFound(String salt, String encoding) throws DBException {
    HBaseSaltedClient c = client(salt, encoding);
    c.insert("usertable", "user1004", allByteValues());
    assertEquals(Status.OK, c.delete("usertable", "user1004"));
    assertEquals(Status.NOT_FOUND, c.read("usertable", "user1004", null, new HashMap<>()));
  }

  @ParameterizedTest(name = "salt {0}, {1} keys")
  @CsvSource({"crc32, string", "none, long"})
  void aRowNeverWrittenIsNotFound(String salt, String encoding) throws DBException {
    HBaseSaltedClient c = client(salt, encoding);
    Map<String, ByteIterator> read = new HashMap<>();
    assertEquals(Status.NOT_FOUND, c.read("usertable", "user999999", null, read));
    assertTrue(read.isEmpty());
  }

  @ParameterizedTest(name = "salt {0}")
  @CsvSource({"crc32", "buckets:16"})
  void aKeyWithoutANumberIsABadRequestUnderLongEncoding(String salt) throws DBException {
    HBaseSaltedClient c = client(salt, "long");
    assertEquals(Status.BAD_REQUEST, c.insert("usertable", "userABC", allByteValues()));
    assertEquals(Status.BAD_REQUEST, c.read("usertable", "userABC", null, new HashMap<>()));
  }
}
