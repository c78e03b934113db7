package org.ycsbpack.common.launch;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Properties;
import org.ycsbpack.common.InitFailure;

/**
 * The main class {@code bin/ycsb} runs instead of {@code site.ycsb.Client}: same arguments, same
 * output, but an honest exit status. YCSB 0.17 exits 0 after almost every failure (unknown
 * binding, unreadable workload file, workload init error, an exception in a client thread);
 * here a client that ends without writing its final report exits with {@link #NO_REPORT_EXIT},
 * and a binding whose init() fails exits with {@link InitFailure#EXIT_STATUS}. Secret property
 * values are masked in stderr, where YCSB echoes its command line. With {@code
 * ycsbpack.stopfile=<path>} the run ends early, as at its maximum execution time, once that
 * file exists ({@link StopFileWatcher}).
 */
public final class ClientMain {
  /** Exit status when YCSB ended without a final report. */
  public static final int NO_REPORT_EXIT = 2;

  private ClientMain() {
  }

  public static void main(String[] args) throws Exception {
    System.setProperty(InitFailure.FAIL_FAST_PROPERTY, "true");
    long startMs = System.currentTimeMillis();
    ReportWatchingStream watch = new ReportWatchingStream(System.out);
    System.setOut(new PrintStream(watch, true, "UTF-8"));
    System.setErr(new PrintStream(new SecretMaskingStream(System.err), true, "UTF-8"));
    String exportFile = property(args, "exportfile");
    String stopFile = property(args, StopFileWatcher.PROPERTY);
    if (stopFile != null) {
      StopFileWatcher.start(new File(stopFile), startMs);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.flush();
      boolean exported = exportFile != null
          && new File(exportFile).lastModified() >= startMs - 1000;
      if (!watch.sawReport() && !exported) {
        System.err.println("ERROR ycsb: the client ended without a final report; "
            + "the messages above say why.");
        System.err.flush();
        Runtime.getRuntime().halt(NO_REPORT_EXIT);
      }
    }, "ycsbpack-exit-status"));
    site.ycsb.Client.main(args);
  }

  /** The exportfile property as YCSB would see it: every -p beats every -P file. */
  static String exportFile(String[] args) {
    return property(args, "exportfile");
  }

  /** A property as YCSB would see it: every -p beats every -P file. */
  static String property(String[] args, String name) {
    Properties fromFiles = new Properties();
    Properties fromFlags = new Properties();
    for (int i = 0; i + 1 < args.length; i++) {
      if ("-P".equals(args[i])) {
        try (InputStream in = new FileInputStream(args[i + 1])) {
          fromFiles.load(in);
        } catch (IOException e) {
          // YCSB itself reports an unreadable -P file.
        }
      } else if ("-p".equals(args[i])) {
        int eq = args[i + 1].indexOf('=');
        if (eq > 0) {
          fromFlags.setProperty(args[i + 1].substring(0, eq), args[i + 1].substring(eq + 1));
        }
      }
    }
    return fromFlags.getProperty(name, fromFiles.getProperty(name));
  }
}
