package org.ycsbpack.common;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Test support: checks a binding's hand-kept {@code ALL} list against the {@link BindingProperty}
 * constants its properties class declares, found by reflection. A constant left out of ALL is
 * silently left out of everything built from it: the README table, the known property names
 * (typo warnings), the key that decides which clients share a connection.
 */
public final class DeclaredProperties {
  private DeclaredProperties() {
  }

  /**
   * Null when {@code all} holds every static BindingProperty field of the {@code declaring}
   * classes exactly once and nothing else; otherwise one line per difference, naming the
   * constant and what to do.
   */
  public static String mismatch(List<BindingProperty> all, Class<?>... declaring) {
    List<String> problems = new ArrayList<>();
    Set<BindingProperty> declared = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Class<?> c : declaring) {
      for (Field f : c.getDeclaredFields()) {
        if (!Modifier.isStatic(f.getModifiers()) || f.getType() != BindingProperty.class) {
          continue;
        }
        BindingProperty p = read(f);
        declared.add(p);
        String constant = c.getSimpleName() + "." + f.getName() + " (" + p.name() + ")";
        long listed = all.stream().filter(q -> q == p).count();
        if (listed == 0) {
          problems.add(constant + " is declared but missing from " + c.getSimpleName()
              + ".ALL, so what is built from ALL (the README table, the known property names, "
              + "the shared-connection key) leaves it out: add it to ALL, in README order");
        } else if (listed > 1) {
          problems.add(constant + " is in ALL " + listed + " times");
        }
      }
    }
    all.stream().filter(p -> !declared.contains(p)).distinct().forEach(p -> problems.add(
        "ALL holds " + p.name() + ", which is not a constant of the properties class"));
    return problems.isEmpty() ? null : String.join("\n", problems);
  }

  private static BindingProperty read(Field f) {
    try {
      f.setAccessible(true);
      return (BindingProperty) f.get(null);
    } catch (IllegalAccessException e) {
      throw new AssertionError("cannot read " + f, e);
    }
  }
}
