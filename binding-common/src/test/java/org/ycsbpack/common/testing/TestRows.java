package org.ycsbpack.common.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;

/**
 * Rows the bindings' tests write and the comparisons they read them back with. A ByteIterator
 * is consumed when read, so expectations are taken as bytes or strings once, from a second,
 * equal copy.
 */
public final class TestRows {
  private TestRows() {
  }

  /** Every byte value 0..255 in field0..field2, in a different order per field. */
  public static Map<String, ByteIterator> allByteValues() {
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

  /** A two-field row that names its key: field0 = key/0{suffix}, field1 = key/1{suffix}. */
  public static Map<String, ByteIterator> row(String key, String suffix) {
    Map<String, ByteIterator> v = new HashMap<>();
    v.put("field0", new StringByteIterator(key + "/0" + suffix));
    v.put("field1", new StringByteIterator(key + "/1" + suffix));
    return v;
  }

  /** The row's values as bytes (consumes its iterators). */
  public static Map<String, byte[]> bytes(Map<String, ByteIterator> values) {
    Map<String, byte[]> out = new HashMap<>();
    values.forEach((k, v) -> out.put(k, v.toArray()));
    return out;
  }

  /** The row's values as strings (consumes its iterators). */
  public static Map<String, String> strings(Map<String, ByteIterator> row) {
    Map<String, String> out = new HashMap<>();
    row.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  /** The same fields with the same bytes. */
  public static void assertSameBytes(Map<String, byte[]> expected, Map<String, ByteIterator> got,
                                     String what) {
    assertEquals(expected.keySet(), got.keySet(), what);
    expected.forEach((k, v) -> assertArrayEquals(v, got.get(k).toArray(), what + " " + k));
  }
}
