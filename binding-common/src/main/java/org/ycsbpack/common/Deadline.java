package org.ycsbpack.common;

import java.time.Duration;
import site.ycsb.DBException;

/**
 * A point in time a binding waits until, polling: for schema agreement, for a table another
 * client is creating, for a statement to be accepted again. One place for the clock arithmetic
 * and for what an interrupt during the wait means (the wait ends with a {@link DBException}
 * saying what was awaited, and the thread keeps its interrupt status).
 */
public final class Deadline {
  private final long endNanos;

  private Deadline(long endNanos) {
    this.endNanos = endNanos;
  }

  /** The deadline {@code timeout} from now. */
  public static Deadline after(Duration timeout) {
    return new Deadline(System.nanoTime() + timeout.toNanos());
  }

  /** Whether the deadline has passed. */
  public boolean passed() {
    return System.nanoTime() - endNanos > 0;
  }

  /**
   * Sleeps {@code poll} before the next check.
   *
   * @param awaited what the wait is for, as in "waiting for {@code awaited}"
   * @throws DBException when the thread is interrupted
   */
  public static void pause(Duration poll, String awaited) throws DBException {
    try {
      Thread.sleep(poll.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DBException("interrupted while waiting for " + awaited);
    }
  }
}
