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

  private enum Mode { UNLOGGED, LOGGED, SIZE_TIERED }

  private static final BindingProperty WRITE = BindingProperty.of("x.write", "unlogged", "w");
  private static final BindingProperty SHARE = BindingProperty.of("x.share", "0.5", "share");

  @Test
  void wordsAreEnumConstantsInLowerCaseWithDashes() throws DBException {
    assertEquals(Mode.LOGGED, values("x.write", "Logged").word(WRITE, Mode.class));
    assertEquals(Mode.UNLOGGED, values("x.other", "1").word(WRITE, Mode.class));
    assertEquals(Mode.SIZE_TIERED, values("x.write", "size-tiered").word(WRITE, Mode.class));
    DBException e = assertThrows(DBException.class,
        () -> values("x.write", "async").word(WRITE, Mode.class));
    assertEquals("property x.write='async' is not valid: expected one of unlogged, logged, "
        + "size-tiered (default: unlogged)", e.getMessage());
  }

  @Test
  void proportionsAreFromZeroToOne() throws DBException {
    assertEquals(0.5, values("x.other", "1").proportion(SHARE));
    assertEquals(1.0, values("x.share", "1").proportion(SHARE));
    assertEquals(0.0, values("x.share", "0").proportion(SHARE));
    for (String bad : new String[] {"1.01", "-0.1", "half", "NaN"}) {
      DBException e = assertThrows(DBException.class,
          () -> values("x.share", bad).proportion(SHARE));
      assertEquals("property x.share='" + bad + "' is not valid: expected a proportion from 0 "
          + "to 1 (default: 0.5)", e.getMessage());
    }
  }

  @Test
  void listsDropEmptyItems() {
    assertEquals(Arrays.asList("a", "b"), values("x.hosts", " a, ,b ").list(HOSTS));
  }
}
