package org.ycsbpack.common;

import java.util.Objects;

/**
 * One documented property of a binding: its name, its default as the user would type it, and
 * what it means. Each binding lists its properties once, in a class of constants, and the
 * README's property table is generated from (and checked against) that list.
 */
public final class BindingProperty {
  private final String name;
  private final String defaultValue;
  private final String description;

  private BindingProperty(String name, String defaultValue, String description) {
    this.name = Objects.requireNonNull(name);
    this.defaultValue = defaultValue;
    this.description = Objects.requireNonNull(description);
  }

  /** A property that has a default value, applied when the user does not set it. */
  public static BindingProperty of(String name, String defaultValue, String description) {
    return new BindingProperty(name, Objects.requireNonNull(defaultValue), description);
  }

  /** A property without a default: unset means "not used" (e.g. a password). */
  public static BindingProperty optional(String name, String description) {
    return new BindingProperty(name, null, description);
  }

  public String name() {
    return name;
  }

  /** The default, or null when the property has none. */
  public String defaultValue() {
    return defaultValue;
  }

  public String description() {
    return description;
  }

  @Override
  public String toString() {
    return name;
  }
}
