package org.ycsbpack.common;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * Typed, validated access to YCSB properties for {@link BindingProperty} definitions. Every
 * parse failure becomes a {@link DBException} whose message names the property, the bad value
 * and what would be accepted, so a benchmark run fails with one readable sentence.
 */
public final class PropertyValues {
  private final Properties props;

  public PropertyValues(Properties props) {
    this.props = props;
  }

  public boolean isSet(BindingProperty p) {
    String v = props.getProperty(p.name());
    return v != null && !v.trim().isEmpty();
  }

  /**
   * Refuses a property that is given but empty ({@code -p hosts=}): for an address, falling back
   * to the default would quietly connect somewhere the user did not mean.
   */
  public void requireNotBlank(BindingProperty p, String example) throws DBException {
    String v = props.getProperty(p.name());
    if (v != null && v.trim().isEmpty()) {
      throw new DBException("property " + p.name() + " is set but empty: give a value (e.g. -p "
          + p.name() + "=" + example + ") or leave it out for the default ("
          + (p.defaultValue() == null ? "unset" : p.defaultValue()) + ")");
    }
  }

  /** The trimmed value, or the property's default (null for optional properties). */
  public String string(BindingProperty p) {
    String v = props.getProperty(p.name());
    return v == null || v.trim().isEmpty() ? p.defaultValue() : v.trim();
  }

  public int integer(BindingProperty p, int min, int max) throws DBException {
    return (int) longValue(p, min, max);
  }

  public long longValue(BindingProperty p, long min, long max) throws DBException {
    String v = string(p);
    try {
      long n = Long.parseLong(v);
      if (n < min || n > max) {
        throw bad(p, v, "a whole number from " + min + " to " + max);
      }
      return n;
    } catch (NumberFormatException e) {
      throw bad(p, v, "a whole number from " + min + " to " + max);
    }
  }

  /** Strictly "true" or "false" (any case): a typo must not silently mean false. */
  public boolean bool(BindingProperty p) throws DBException {
    String v = string(p);
    if ("true".equalsIgnoreCase(v)) {
      return true;
    }
    if ("false".equalsIgnoreCase(v)) {
      return false;
    }
    throw bad(p, v, "true or false");
  }

  /** One of the given words (case-insensitive); returns it in the case given in {@code allowed}. */
  public String choice(BindingProperty p, String... allowed) throws DBException {
    String v = string(p);
    for (String a : allowed) {
      if (a.equalsIgnoreCase(v)) {
        return a;
      }
    }
    throw bad(p, v, "one of " + String.join(", ", allowed));
  }

  /** An enum constant by name (case-insensitive, '-' accepted for '_'). */
  public <E extends Enum<E>> E enumValue(BindingProperty p, Class<E> type) throws DBException {
    String v = string(p);
    String wanted = v.toUpperCase(Locale.ROOT).replace('-', '_');
    for (E e : type.getEnumConstants()) {
      if (e.name().equals(wanted)) {
        return e;
      }
    }
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      names.add(e.name());
    }
    throw bad(p, v, "one of " + String.join(", ", names));
  }

  /**
   * An enum constant by its word: the constant's name in lower case with '-' for '_'
   * ({@code UNLOGGED} is {@code unlogged}), any case accepted; the message of a bad value lists
   * the words, as the README does.
   */
  public <E extends Enum<E>> E word(BindingProperty p, Class<E> type) throws DBException {
    String v = string(p);
    List<String> words = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      String word = wordOf(e);
      if (word.equalsIgnoreCase(v)) {
        return e;
      }
      words.add(word);
    }
    throw bad(p, v, "one of " + String.join(", ", words));
  }

  /** The word of an enum constant as {@link #word} reads it. */
  public static String wordOf(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** A share of operations: a number from 0 to 1 (a workload's {@code *proportion}). */
  public double proportion(BindingProperty p) throws DBException {
    String v = string(p);
    try {
      double d = v == null ? Double.NaN : Double.parseDouble(v);
      if (d >= 0 && d <= 1) {
        return d;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw bad(p, v, "a proportion from 0 to 1");
  }

  /** A comma-separated list, items trimmed, empty items dropped. */
  public List<String> list(BindingProperty p) {
    String v = string(p);
    if (v == null) {
      return Collections.emptyList();
    }
    List<String> out = new ArrayList<>();
    for (String s : Arrays.asList(v.split(","))) {
      if (!s.trim().isEmpty()) {
        out.add(s.trim());
      }
    }
    return out;
  }

  /** The exception for a value that does not parse: names property, value and what is accepted. */
  public static DBException bad(BindingProperty p, String value, String expected) {
    return new DBException("property " + p.name() + "='" + value + "' is not valid: expected "
        + expected + " (default: " + (p.defaultValue() == null ? "unset" : p.defaultValue()) + ")");
  }
}
