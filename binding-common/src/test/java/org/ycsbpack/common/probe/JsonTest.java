package org.ycsbpack.common.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void stringsAreEscapedAsJsonRequires() {
    assertEquals("\"a\\\"b\\\\c\\nd\\te\\u0001\\u2028\"", Json.quote("a\"b\\c\nd\te\u0001\u2028"));
    assertEquals("\"ü€\"", Json.quote("ü€"));
  }

  @Test
  void wholeNumbersPrintWithoutAFractionAndNonFiniteOnesAsNull() {
    assertEquals("[42,1.5,null,null,7,12345678901]", Json.compact(Arrays.asList(42.0, 1.5,
        Double.NaN, Double.POSITIVE_INFINITY, 7, 12_345_678_901L)));
  }

  @Test
  void mapsAndListsNestOnOneLineOrIndented() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("a", "x");
    m.put("b", Arrays.asList(1, "y"));
    m.put("c", new LinkedHashMap<>());
    assertEquals("{\"a\":\"x\",\"b\":[1,\"y\"],\"c\":{}}", Json.compact(m));
    assertEquals("{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    \"y\"\n  ],\n  \"c\": {}\n}",
        Json.pretty(m));
  }
}
