package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;

/** Copying a read Result into YCSB fields, as Result.getFamilyMap would give them. */
class HBaseRowsTest {
  private static final byte[] ROW = bytes("user1");
  private static final byte[] CF = bytes("cf");

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Cell cell(String family, String qualifier, long ts, String value) {
    return new KeyValue(ROW, bytes(family), bytes(qualifier), ts, bytes(value));
  }

  @Test
  void fieldsOfTheFamilyOnlyAndTheNewestVersionOfEach() {
    Cell[] cells = {
        cell("a", "field0", 1, "other family"),
        cell("cf", "field0", 9, "new0"),
        cell("cf", "field0", 5, "old0"),
        cell("cf", "field1", 3, "only1"),
        cell("cf", "field2", 7, "new2"),
        cell("cf", "field2", 6, "old2"),
        cell("zz", "field3", 1, "other family")};
    Arrays.sort(cells, org.apache.hadoop.hbase.CellComparator.getInstance());
    Result row = Result.create(cells);
    Map<String, ByteIterator> into = new HashMap<>();
    HBaseRows.copyFields(row, CF, into);
    assertEquals(3, into.size(), into.keySet().toString());
    assertArrayEquals(bytes("new0"), into.get("field0").toArray());
    assertArrayEquals(bytes("only1"), into.get("field1").toArray());
    assertArrayEquals(bytes("new2"), into.get("field2").toArray());
    Map<String, byte[]> viaFamilyMap = new HashMap<>();
    row.getFamilyMap(CF).forEach((q, v) -> viaFamilyMap.put(new String(q,
        StandardCharsets.UTF_8), v));
    assertEquals(viaFamilyMap.keySet(), into.keySet());
  }

  @Test
  void anEmptyRowGivesNoFields() {
    Map<String, ByteIterator> into = new HashMap<>();
    HBaseRows.copyFields(Result.EMPTY_RESULT, CF, into);
    assertEquals(0, into.size());
  }
}
