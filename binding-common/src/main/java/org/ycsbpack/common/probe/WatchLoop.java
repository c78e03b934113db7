package org.ycsbpack.common.probe;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.ycsbpack.common.ErrorLog;

/**
 * The probe's {@code -watch SECONDS}: a round of samples every period until standard input
 * ends (or the process is killed) and one more then, each round's lines flushed at once. A
 * failed round is said once and the watch goes on. A round missed (a round slower than the
 * period, the JVM paused) is skipped, not made up in a burst of rounds against servers that
 * were slow already: a wake-up later than {@link #missed} allows skips the round it was for
 * and waits for the next on the schedule, so a watch paused and resumed (scripts/bench-server-
 * watch's windows) samples as often as one that ran through. Until a round has read every
 * node, rounds come a second apart (at most {@link #START_RETRIES}).
 */
public final class WatchLoop {
  /** Until a round has read every node, the next comes RETRY_MS later, at most START_RETRIES
   * times: a fresh HBase registers its region server's metrics seconds after it serves, and a
   * load's flush can come before a round a whole period later (its "before" would be lost). */
  static final long RETRY_MS = 1000;
  static final int START_RETRIES = 15;
  private WatchLoop() {
  }

  /** Samples {@code source} every {@code periodMs} until {@code stdin} reaches its end, and
   * once more then: the series ends where the phase did, however short it was. */
  public static void run(Sampler source, long periodMs, InputStream stdin,
                         PrintStream out) {
    CountDownLatch ended = endOf(stdin);
    Samples samples = new Samples();
    long next = System.currentTimeMillis();
    boolean answered = false;
    int retries = 0;
    do {
      if (missed(next, System.currentTimeMillis(), periodMs)) {
        next = nextRound(next, System.currentTimeMillis(), periodMs);
        continue;
      }
      int failed = samples.failures();
      round(source, samples, out);
      long now = System.currentTimeMillis();
      if (samples.failures() == failed) {
        answered = true;
      }
      if (!answered && retries < START_RETRIES && RETRY_MS < periodMs) {
        retries++;
        next = now + RETRY_MS;
      } else {
        next = nextRound(next, now, periodMs);
      }
    } while (!waitFor(ended, Math.max(0, next - System.currentTimeMillis())));
    round(source, samples, out);
  }

  private static void round(Sampler source, Samples samples, PrintStream out) {
    try {
      source.sample(samples);
    } catch (RuntimeException e) {
      samples.skip(System.currentTimeMillis(), "*", "round",
          "a round of samples failed: " + ErrorLog.describe(e) + "; the watch goes on");
    }
    for (String line : samples.drain()) {
      out.println(line);
    }
    out.flush();
  }

  /** Whether a wake-up at {@code now} for the round due at {@code due} came so late that the
   * round's moment has passed (the JVM was paused or starved): more than a quarter of the
   * period, and more than a second, after it. A late round run at once would come seconds
   * before the next on the schedule: two rounds where a running watch makes one. */
  static boolean missed(long due, long now, long periodMs) {
    return now - due > Math.max(1000, periodMs / 4);
  }

  /** When the round after the one due at {@code due} is: a period later, or the first moment
   * on that schedule not before {@code now} when rounds were missed. */
  static long nextRound(long due, long now, long periodMs) {
    long next = due + periodMs;
    return next >= now ? next : next + (now - next + periodMs - 1) / periodMs * periodMs;
  }

  /** True when the input ended (or the wait was interrupted) within {@code ms}. */
  private static boolean waitFor(CountDownLatch ended, long ms) {
    try {
      return ended.await(ms, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /** A latch released when {@code in} reaches its end (or fails). */
  private static CountDownLatch endOf(InputStream in) {
    CountDownLatch ended = new CountDownLatch(1);
    Thread reader = new Thread(() -> {
      byte[] buffer = new byte[256];
      try {
        while (in.read(buffer) >= 0) {
          // input is ignored: only its end matters
        }
      } catch (IOException e) {
        // a closed input ends the watch too
      }
      ended.countDown();
    }, "ycsbpack-watch-stdin");
    reader.setDaemon(true);
    reader.start();
    return ended;
  }
}
