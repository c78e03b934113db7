package org.ycsbpack.common.launch;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Properties;
import org.ycsbpack.common.ClientLog;
import org.ycsbpack.common.InitFailure;
import org.ycsbpack.common.UnknownProperties;

/**
 * The main class {@code bin/ycsb} runs instead of {@code site.ycsb.Client}: same arguments, same
 * output, but an honest exit status. YCSB 0.17 exits 0 after almost every failure (unknown
 * binding, unreadable workload file, workload init error, an exception in a client thread);
 * here a client that ends without writing its final report exits with {@link #NO_REPORT_EXIT},
 * and a binding whose init() fails exits with {@link InitFailure#EXIT_STATUS}. Property values
 * YCSB would answer with a stack trace or an empty report are refused first, in one sentence
 * ({@link ArgumentChecks}). Secret property values are masked in stderr, where YCSB echoes its
 * command line, and in stdout, where BasicDB prints the properties. With {@code
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
    System.setOut(new PrintStream(new SecretMaskingStream(watch), true, "UTF-8"));
    System.setErr(new PrintStream(new SecretMaskingStream(System.err), true, "UTF-8"));
    Properties props;
    try {
      props = ArgumentChecks.merged(args);
    } catch (IOException e) {
      refuse(e.getMessage());
      return;
    }
    String problem = ArgumentChecks.problem(props, Arrays.asList(args).contains("-load"),
        ClientMain.class.getClassLoader());
    if (problem != null) {
      refuse(problem);
      return;
    }
    for (String warning : UnknownProperties.coreNearMisses(props)) {
      System.err.println("WARN ycsb: " + warning);
    }
    String exportFile = props.getProperty("exportfile");
    String stopFile = props.getProperty(StopFileWatcher.PROPERTY);
    if (stopFile != null) {
      StopFileWatcher.start(new File(stopFile), startMs);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.flush();
      noteClientLog();
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

  /** Names the client libraries' log when they wrote to it; removes it when they did not. */
  private static void noteClientLog() {
    File log = ClientLog.file();
    if (log != null && log.isFile()) {
      if (log.length() == 0) {
        log.delete();
      } else {
        System.err.println("NOTE ycsb: the client libraries logged warnings to " + log);
      }
    }
  }

  /** Bad input found before YCSB started: one sentence, nothing run. */
  static void refuse(String problem) {
    System.err.println("ERROR ycsb: " + problem + "; nothing was run.");
    System.err.flush();
    System.out.flush();
    Runtime.getRuntime().halt(NO_REPORT_EXIT);
  }
}
