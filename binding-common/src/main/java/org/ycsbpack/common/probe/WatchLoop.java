package org.ycsbpack.common.probe;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.ycsbpack.common.ErrorLog;

/**
 * The probe's {@code -watch SECONDS}: a round of samples every period until standard input
 * ends (or the process is killed), each round's lines flushed at once. A failed round is said
 * once and the watch goes on.
 */
public final class WatchLoop {
  private WatchLoop() {
  }

  /** Samples {@code source} every {@code periodMs} until {@code stdin} reaches its end. */
  public static void run(ServerSource source, long periodMs, InputStream stdin,
                         PrintStream out) {
    CountDownLatch ended = endOf(stdin);
    Samples samples = new Samples();
    long next = System.currentTimeMillis();
    do {
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
      next += periodMs;
    } while (!waitFor(ended, Math.max(0, next - System.currentTimeMillis())));
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
