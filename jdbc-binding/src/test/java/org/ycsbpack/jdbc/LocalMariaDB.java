package org.ycsbpack.jdbc;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ycsbpack.common.ReadmePropertyTables;
import org.ycsbpack.common.testing.ServerScripts;

/**
 * Test support: one real MariaDB for the whole test JVM, started empty on first use with
 * scripts/mysql-local on 127.0.0.1:24306 (so a server of the user's own, or the scripts' default
 * 13306, is left alone) and stopped when the JVM exits (shutdown hook, and the script's
 * --owner-pid watcher if the JVM is killed). Set YCSBPACK_IT_MYSQL_URL (a jdbc: URL whose user is
 * root without password) to test against a running server instead.
 */
final class LocalMariaDB {
  static final int PORT = 24306;
  private static String url;

  private LocalMariaDB() {
  }

  /** The {@code db.url} of the test server, starting it if needed. */
  static synchronized String url() {
    if (url == null) {
      String external = System.getenv("YCSBPACK_IT_MYSQL_URL");
      if (external != null && !external.isEmpty()) {
        url = external;
      } else {
        start();
        url = "jdbc:mariadb://127.0.0.1:" + PORT + "/ycsb";
      }
    }
    return url;
  }

  static Path repoRoot() {
    return ReadmePropertyTables.repoRoot();
  }

  static Path runDir() {
    return repoRoot().resolve("jdbc-binding/target/it-mysql");
  }

  private static void start() {
    // every test run starts from an empty server: tests count what they wrote
    ServerScripts.deleteRecursively(runDir());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> script("stop"), "stop-it-mysql"));
    int status = script("start");
    if (status != 0) {
      throw new IllegalStateException("scripts/mysql-local start failed (exit " + status
          + "); its output above says why");
    }
  }

  private static int script(String command) {
    List<String> cmd = new ArrayList<>(Arrays.asList(
        repoRoot().resolve("scripts/mysql-local").toString(), command,
        "--run-dir", runDir().toString()));
    if ("start".equals(command)) {
      cmd.addAll(Arrays.asList("--port", String.valueOf(PORT),
          "--owner-pid", String.valueOf(ProcessHandle.current().pid())));
    }
    return ServerScripts.run(cmd, "[mysql-local] ");
  }
}
