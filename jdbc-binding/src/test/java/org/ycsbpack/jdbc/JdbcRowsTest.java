package org.ycsbpack.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;

/**
 * How a YCSB row becomes statement parameters and how a result row becomes a YCSB row, on
 * stand-ins for the driver's objects (the same code against MariaDB: CrudIT, JdbcBatchIT).
 */
class JdbcRowsTest {
  @Test
  void anInsertBindsTheKeyThenTheValuesInFieldOrderAndSaysWhereTheNextRowStarts()
      throws Exception {
    Map<Integer, Object> bound = new TreeMap<>();
    int next = JdbcRows.bindInsert(recording(bound), 4, "user1", fields("field1", "b",
        "field0", "a"));
    assertEquals(7, next);
    assertEquals(Arrays.asList("user1", "a", "b"), texts(bound));
    assertEquals(Arrays.asList(4, 5, 6), new ArrayList<>(bound.keySet()));
  }

  @Test
  void anUpdateBindsTheValuesInFieldOrderThenTheKey() throws Exception {
    Map<Integer, Object> bound = new TreeMap<>();
    JdbcRows.bindUpdate(recording(bound), "user1", fields("field1", "b", "field0", "a"));
    assertEquals(Arrays.asList("a", "b", "user1"), texts(bound));
    assertEquals(Arrays.asList(1, 2, 3), new ArrayList<>(bound.keySet()));
  }

  @Test
  void aResultRowGivesEveryFieldButTheKeyAsBytesLeavesOutNullsAndReturnsTheKey()
      throws Exception {
    byte[] allBytes = new byte[256];
    for (int i = 0; i < allBytes.length; i++) {
      allBytes[i] = (byte) i;
    }
    Map<String, ByteIterator> row = new HashMap<>();
    String key = JdbcRows.copyFields(resultRow(new String[] {"ycsb_key", "field0", "field1"},
        new Object[] {"user1", allBytes, null}), row);
    assertEquals("user1", key, "the key column matches whatever its case");
    assertEquals(Arrays.asList("field0"), new ArrayList<>(row.keySet()),
        "a NULL field was never written");
    assertArrayEquals(allBytes, row.get("field0").toArray());
  }

  @Test
  void aReadsFieldsAreSortedAsItsCachedStatementListsThemAndAllFieldsStayNull() {
    assertEquals(Arrays.asList("field0", "field2", "field9"),
        JdbcRows.fieldList(new TreeSet<>(Arrays.asList("field9", "field0", "field2"))));
    assertNull(JdbcRows.fieldList(null));
  }

  private static TreeMap<String, ByteIterator> fields(String... nameValue) {
    TreeMap<String, ByteIterator> values = new TreeMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      values.put(nameValue[i], new StringByteIterator(nameValue[i + 1]));
    }
    return values;
  }

  /** The bound values in parameter order, bytes as UTF-8 text. */
  private static List<Object> texts(Map<Integer, Object> bound) {
    List<Object> out = new ArrayList<>();
    for (Object v : bound.values()) {
      out.add(v instanceof byte[] ? new String((byte[]) v, StandardCharsets.UTF_8) : v);
    }
    return out;
  }

  /** A PreparedStatement that only records setString/setBytes, by parameter index. */
  private static PreparedStatement recording(Map<Integer, Object> bound) {
    return (PreparedStatement) Proxy.newProxyInstance(JdbcRowsTest.class.getClassLoader(),
        new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "setString":
            case "setBytes":
              bound.put((Integer) args[0], args[1]);
              return null;
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }

  /** A ResultSet positioned on one row with these column labels and values. */
  private static ResultSet resultRow(String[] labels, Object[] values) {
    ResultSetMetaData meta = (ResultSetMetaData) Proxy.newProxyInstance(
        JdbcRowsTest.class.getClassLoader(), new Class<?>[] {ResultSetMetaData.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "getColumnCount":
              return labels.length;
            case "getColumnLabel":
              return labels[(Integer) args[0] - 1];
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
    return (ResultSet) Proxy.newProxyInstance(JdbcRowsTest.class.getClassLoader(),
        new Class<?>[] {ResultSet.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "getMetaData":
              return meta;
            case "getString":
            case "getBytes":
              return values[(Integer) args[0] - 1];
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }
}
