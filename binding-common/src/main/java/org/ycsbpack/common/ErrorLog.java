package org.ycsbpack.common;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import site.ycsb.Status;

/**
 * Makes failed operations visible without flooding stderr: the first few errors of each status
 * are printed with the database's own message; all of them are counted by YCSB in its
 * {@code Return=<STATUS>} lines, which is where the totals belong.
 */
public final class ErrorLog {
  private static final int PRINTED_PER_STATUS = 3;
  private final String binding;
  private final ConcurrentHashMap<String, AtomicLong> seen = new ConcurrentHashMap<>();

  public ErrorLog(String binding) {
    this.binding = binding;
  }

  /** Records one failed operation; returns {@code status}, for {@code return log.failed(...)}. */
  public Status failed(Status status, String operation, String key, Throwable error) {
    long n = seen.computeIfAbsent(status.getName(), s -> new AtomicLong()).incrementAndGet();
    if (n <= PRINTED_PER_STATUS) {
      String more = n == PRINTED_PER_STATUS
          ? " (further " + status.getName() + " errors are only counted in the Return= lines)"
          : "";
      System.err.println("WARN " + binding + ": " + operation + " " + key + " failed with "
          + status.getName() + ": " + describe(error) + more);
    }
    return status;
  }

  /** Class name and message of the error and of its first cause, on one line. */
  public static String describe(Throwable error) {
    StringBuilder sb = new StringBuilder(error.getClass().getSimpleName());
    if (error.getMessage() != null) {
      sb.append(": ").append(error.getMessage().replace('\n', ' '));
    }
    Throwable cause = error.getCause();
    if (cause != null && cause != error) {
      sb.append(" (caused by ").append(cause.getClass().getSimpleName());
      if (cause.getMessage() != null) {
        sb.append(": ").append(cause.getMessage().replace('\n', ' '));
      }
      sb.append(')');
    }
    return sb.toString();
  }
}
