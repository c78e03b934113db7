package org.ycsbpack.common.probe;

import java.util.Collection;
import java.util.Map;

/**
 * JSON text of the server probe's output: strings, numbers, booleans, lists and maps. The three
 * bindings share no JSON library (the jdbc binding's classpath has none), and the probe only
 * writes, so this is all it needs.
 */
public final class Json {
  private Json() {
  }

  /** {@code value} on one line. */
  public static String compact(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, false, 0);
    return sb.toString();
  }

  /** {@code value} with each member of a map or list on a line of its own, indented by two. */
  public static String pretty(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, true, 0);
    return sb.toString();
  }

  private static void write(StringBuilder sb, Object value, boolean pretty, int depth) {
    if (value == null) {
      sb.append("null");
    } else if (value instanceof Number) {
      sb.append(number((Number) value));
    } else if (value instanceof Boolean) {
      sb.append(value);
    } else if (value instanceof Map) {
      Map<?, ?> map = (Map<?, ?>) value;
      sb.append('{');
      int i = 0;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        sb.append(i++ == 0 ? "" : ",");
        newline(sb, pretty, depth + 1);
        sb.append(quote(String.valueOf(e.getKey()))).append(pretty ? ": " : ":");
        write(sb, e.getValue(), pretty, depth + 1);
      }
      if (!map.isEmpty()) {
        newline(sb, pretty, depth);
      }
      sb.append('}');
    } else if (value instanceof Collection) {
      Collection<?> list = (Collection<?>) value;
      sb.append('[');
      int i = 0;
      for (Object o : list) {
        sb.append(i++ == 0 ? "" : ",");
        newline(sb, pretty, depth + 1);
        write(sb, o, pretty, depth + 1);
      }
      if (!list.isEmpty()) {
        newline(sb, pretty, depth);
      }
      sb.append(']');
    } else {
      sb.append(quote(value.toString()));
    }
  }

  private static void newline(StringBuilder sb, boolean pretty, int depth) {
    if (pretty) {
      sb.append('\n');
      for (int i = 0; i < depth; i++) {
        sb.append("  ");
      }
    }
  }

  /** A JSON number; NaN and the infinities, which JSON lacks, as null. */
  static String number(Number n) {
    if (n instanceof Double || n instanceof Float) {
      double d = n.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return "null";
      }
      if (d == Math.rint(d) && Math.abs(d) < 1e15) {
        return Long.toString((long) d);
      }
      return Double.toString(d);
    }
    return n.toString();
  }

  /** {@code s} as a JSON string: quoted, quotes, backslashes and control characters escaped. */
  public static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\t':
          sb.append("\\t");
          break;
        default:
          if (c < 0x20 || c == '\u2028' || c == '\u2029') {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
      }
    }
    return sb.append('"').toString();
  }
}
