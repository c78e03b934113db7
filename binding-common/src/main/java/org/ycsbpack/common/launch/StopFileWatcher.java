package org.ycsbpack.common.launch;

import java.io.File;
import java.lang.reflect.Field;

import site.ycsb.TerminatorThread;
import site.ycsb.Workload;

/**
 * Ends a YCSB run early, the way its maximum execution time does, when a file appears.
 *
 * <p>Why: the scenario runner warms a phase up in the same client JVM that it measures (a new
 * JVM starts cold again: JIT, connection pools), watches the status lines, and, once the
 * throughput is steady, lets the run go on for the measured time and then creates this file.
 * YCSB 0.17 has no way to stop a run from outside with its final report: a signal kills it.
 * Its {@link TerminatorThread} (started for {@code maxexecutiontime}) holds the workload whose
 * {@link Workload#requestStop()} ends every client thread's loop; calling it makes the client
 * finish exactly as at its time limit (final report, exports, exit status). The run must
 * therefore have a {@code maxexecutiontime}.
 */
final class StopFileWatcher {
  static final String PROPERTY = "ycsbpack.stopfile";
  private static final long POLL_MS = 100;

  private StopFileWatcher() {
  }

  static void start(File stopFile, long startMs) {
    Thread t = new Thread(() -> watch(stopFile, startMs), "ycsbpack-stopfile");
    t.setDaemon(true);
    t.start();
  }

  private static void watch(File stopFile, long startMs) {
    try {
      while (!stopFile.exists()) {
        Thread.sleep(POLL_MS);
      }
      while (true) {
        Workload w = runningWorkload();
        if (w != null) {
          w.requestStop();
          System.err.printf("ycsbpack: %s exists: stop requested after %.1f s, the run ends as at "
              + "its maximum execution time%n", stopFile,
              (System.currentTimeMillis() - startMs) / 1000.0);
          return;
        }
        // the file came before the client threads started, or the run has no maxexecutiontime
        Thread.sleep(POLL_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The workload of the running TerminatorThread, or null when there is none (yet). */
  static Workload runningWorkload() {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t instanceof TerminatorThread && t.isAlive()) {
        try {
          Field f = TerminatorThread.class.getDeclaredField("workload");
          f.setAccessible(true);
          return (Workload) f.get(t);
        } catch (ReflectiveOperationException | RuntimeException e) {
          throw new IllegalStateException("YCSB's TerminatorThread has no workload field: this "
              + "YCSB version cannot be stopped through " + PROPERTY, e);
        }
      }
    }
    return null;
  }
}
