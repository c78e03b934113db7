package org.ycsbpack.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeclaredPropertiesTest {
  static final class Complete {
    static final BindingProperty HOSTS = BindingProperty.of("x.hosts", "a", "hosts");
    static final BindingProperty LEVEL = BindingProperty.of("x.level", "ONE", "level")
        .perClient();
    static final List<BindingProperty> ALL = Arrays.asList(LEVEL, HOSTS);
  }

  static final class MissingOne {
    static final BindingProperty HOSTS = BindingProperty.of("x.hosts", "a", "hosts");
    static final BindingProperty LEVEL = BindingProperty.of("x.level", "ONE", "level");
    static final List<BindingProperty> ALL = Arrays.asList(HOSTS);
  }

  @Test
  void anAllListOfEveryConstantInAnyOrderPasses() {
    assertNull(DeclaredProperties.mismatch(Complete.ALL, Complete.class));
  }

  @Test
  void aConstantMissingFromAllIsNamed() {
    assertEquals("MissingOne.LEVEL (x.level) is declared but missing from MissingOne.ALL, so what "
        + "is built from ALL (the README table, the known property names, the shared-connection "
        + "key) leaves it out: add it to ALL, in README order",
        DeclaredProperties.mismatch(MissingOne.ALL, MissingOne.class));
  }

  @Test
  void aConstantListedTwiceAndAForeignPropertyAreNamed() {
    BindingProperty other = BindingProperty.of("x.other", "1", "not declared");
    assertEquals("Complete.HOSTS (x.hosts) is in ALL 2 times\n"
        + "ALL holds x.other, which is not a constant of the properties class",
        DeclaredProperties.mismatch(Arrays.asList(Complete.HOSTS, Complete.LEVEL,
            Complete.HOSTS, other), Complete.class));
  }
}
