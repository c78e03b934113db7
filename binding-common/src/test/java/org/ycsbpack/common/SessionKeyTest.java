package org.ycsbpack.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SessionKeyTest {
  private static final BindingProperty HOSTS = BindingProperty.of("x.hosts", "a", "hosts");
  private static final BindingProperty LEVEL = BindingProperty.of("x.level", "ONE", "level")
      .perClient();
  private static final List<BindingProperty> ALL = Arrays.asList(HOSTS, LEVEL);

  private static String key(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return SessionKey.of(ALL, new PropertyValues(p));
  }

  @Test
  void clientsThatDifferOnlyInPerClientPropertiesShareASession() {
    assertEquals(key("x.level", "ALL"), key("x.level", "QUORUM"));
    assertEquals(key(), key("x.hosts", "a"), "a default and the same value set are one session");
  }

  @Test
  void clientsThatDifferInAnyOtherPropertyGetSessionsOfTheirOwn() {
    assertNotEquals(key("x.hosts", "a"), key("x.hosts", "b"));
  }

  @Test
  void perClientIsAMarkOnTheSameProperty() {
    assertEquals("x.level", LEVEL.name());
    assertEquals("ONE", LEVEL.defaultValue());
    assertTrue(LEVEL.isPerClient());
    assertFalse(HOSTS.isPerClient());
  }
}
