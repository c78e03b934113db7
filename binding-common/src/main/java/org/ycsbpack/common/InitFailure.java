package org.ycsbpack.common;

import site.ycsb.DBException;

/**
 * Reports a binding's init() failure in one sentence. YCSB 0.17 only prints the stack trace
 * of an init() exception, lets the other threads run and exits 0; under this project's
 * launcher ({@code bin/ycsb}) the failure instead ends the client at once with exit status
 * {@link #EXIT_STATUS}, so scripts can rely on it.
 */
public final class InitFailure {
  /** Exit status of a client stopped by a binding's init() failure. */
  public static final int EXIT_STATUS = 3;
  /** Set by the launcher; without it (a stock YCSB installation) YCSB's own handling applies. */
  public static final String FAIL_FAST_PROPERTY = "ycsbpack.failfast";

  private static boolean printed;

  private InitFailure() {
  }

  /**
   * Prints "{binding}: {message}" to stderr, once per JVM however many threads fail alike, and
   * returns the exception for init() to throw. Under the launcher it exits the JVM instead.
   */
  public static synchronized DBException report(String binding, String message,
                                                Throwable cause) {
    String line = binding + ": " + message;
    if (!printed) {
      printed = true;
      System.err.println("ERROR " + line + ClientLog.mention());
      System.err.flush();
    }
    if (Boolean.getBoolean(FAIL_FAST_PROPERTY)) {
      System.out.flush();
      Runtime.getRuntime().halt(EXIT_STATUS);
    }
    return cause == null ? new DBException(line) : new DBException(line, cause);
  }
}
