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
  private final boolean perClient;

  private BindingProperty(String name, String defaultValue, String description,
                          boolean perClient) {
    this.name = Objects.requireNonNull(name);
    this.defaultValue = defaultValue;
    this.description = Objects.requireNonNull(description);
    this.perClient = perClient;
  }

  /** A property that has a default value, applied when the user does not set it. */
  public static BindingProperty of(String name, String defaultValue, String description) {
    return new BindingProperty(name, Objects.requireNonNull(defaultValue), description, false);
  }

  /** A property without a default: unset means "not used" (e.g. a password). */
  public static BindingProperty optional(String name, String description) {
    return new BindingProperty(name, null, description, false);
  }

  /**
   * This property, applied by each client on its own (a consistency level, a batch mode, a
   * table's options): clients that differ only in such properties still share one session of
   * the JVM. Every property not marked so decides the shared session (see {@link SessionKey}),
   * so a forgotten mark costs at most an extra session, never a session with the wrong settings.
   */
  public BindingProperty perClient() {
    return new BindingProperty(name, defaultValue, description, true);
  }

  /** True when each client applies this property itself; see {@link #perClient()}. */
  public boolean isPerClient() {
    return perClient;
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
