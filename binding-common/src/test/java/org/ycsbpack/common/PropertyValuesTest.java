package org.ycsbpack.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class PropertyValuesTest {
  private static final BindingProperty THREADS = BindingProperty.of("x.threads", "4", "threads");
  private static final BindingProperty MODE = BindingProperty.of("x.mode", "fast", "mode");
  private static final BindingProperty HOSTS = BindingProperty.of("x.hosts", "a", "hosts");

  private static PropertyValues values(String k, String v) {
    Properties p = new Properties();
    p.setProperty(k, v);
    return new PropertyValues(p);
  }

  @Test
  void blankMeansDefault() throws DBException {
    assertEquals(4, values("x.threads", "  ").integer(THREADS, 1, 10));
  }

  @Test
  void outOfRangeNumbersSayTheRangeAndTheDefault() {
    DBException e = assertThrows(DBException.class,
        () -> values("x.threads", "0").integer(THREADS, 1, 10));
    assertEquals("property x.threads='0' is not valid: expected a whole number from 1 to 10 "
        + "(default: 4)", e.getMessage());
  }

  @Test
  void choicesAreCaseInsensitiveAndReturnedInTheirOwnCase() throws DBException {
    assertEquals("fast", values("x.mode", "FAST").choice(MODE, "fast", "safe"));
  }

  @Test
  void listsDropEmptyItems() {
    assertEquals(Arrays.asList("a", "b"), values("x.hosts", " a, ,b ").list(HOSTS));
  }
}
