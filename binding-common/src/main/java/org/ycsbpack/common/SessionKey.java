package org.ycsbpack.common;

import java.util.List;

/**
 * Which clients of a JVM may share one session (a CqlSession, an HBase Connection): those whose
 * properties agree on every property that is not {@linkplain BindingProperty#perClient() per
 * client}. The key is the name=value list of exactly those properties, defaults included.
 */
public final class SessionKey {
  private SessionKey() {
  }

  /** The key of the session these property values need, from a binding's property list. */
  public static String of(List<BindingProperty> properties, PropertyValues values) {
    StringBuilder sb = new StringBuilder();
    for (BindingProperty p : properties) {
      if (!p.isPerClient()) {
        sb.append(p.name()).append('=').append(values.string(p)).append('\n');
      }
    }
    return sb.toString();
  }
}
