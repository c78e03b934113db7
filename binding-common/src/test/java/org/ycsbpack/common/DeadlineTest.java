package org.ycsbpack.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class DeadlineTest {
  @Test
  void passesOnlyAfterItsTimeout() throws DBException {
    Deadline now = Deadline.after(Duration.ZERO);
    Deadline later = Deadline.after(Duration.ofMillis(30));
    Deadline.pause(Duration.ofMillis(1), "a millisecond");
    assertTrue(now.passed());
    assertFalse(later.passed());
    Deadline.pause(Duration.ofMillis(40), "the deadline");
    assertTrue(later.passed());
    assertFalse(Deadline.after(Duration.ofHours(1)).passed());
  }

  @Test
  void anInterruptEndsThePauseWithWhatWasAwaited() {
    Thread.currentThread().interrupt();
    try {
      DBException e = assertThrows(DBException.class,
          () -> Deadline.pause(Duration.ofSeconds(10), "table t to be enabled"));
      assertEquals("interrupted while waiting for table t to be enabled", e.getMessage());
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
    } finally {
      Thread.interrupted();
    }
  }
}
