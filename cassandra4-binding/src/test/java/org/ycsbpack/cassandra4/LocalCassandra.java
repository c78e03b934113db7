package org.ycsbpack.cassandra4;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ycsbpack.common.ReadmePropertyTables;
import org.ycsbpack.common.testing.ServerScripts;

/**
 * Test support: one real Cassandra node for the whole test JVM, started on first use with
 * scripts/cassandra-local on 127.0.0.41 (so a node of the user's own on 127.0.0.1 is left alone),
 * accepting plain and TLS clients, and stopped when the JVM exits. Set
 * YCSBPACK_IT_CASSANDRA_HOSTS to test against a running node instead.
 */
final class LocalCassandra {
  static final String ADDRESS = "127.0.0.41";
  private static final int JMX_PORT = 7241;
  private static String hosts;

  private LocalCassandra() {
  }

  /** The {@code hosts} property value of the test node, starting it if needed. */
  static synchronized String hosts() {
    if (hosts == null) {
      String external = System.getenv("YCSBPACK_IT_CASSANDRA_HOSTS");
      if (external != null && !external.isEmpty()) {
        hosts = external;
      } else {
        start();
        hosts = ADDRESS;
      }
    }
    return hosts;
  }

  /** The trust store of the test node's self-signed certificate, and its password file. */
  static Path tlsDir() {
    return runDir().resolve("tls");
  }

  static Path repoRoot() {
    return ReadmePropertyTables.repoRoot();
  }

  private static Path runDir() {
    return repoRoot().resolve("cassandra4-binding/target/it-cassandra");
  }

  private static void start() {
    // every test run starts from an empty node: tests count what they wrote
    ServerScripts.deleteRecursively(runDir());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> script("stop"), "stop-it-cassandra"));
    int status = script("start");
    if (status != 0) {
      throw new IllegalStateException("scripts/cassandra-local start failed (exit " + status
          + "); its output above says why");
    }
  }

  private static int script(String command) {
    List<String> cmd = new ArrayList<>(Arrays.asList(
        repoRoot().resolve("scripts/cassandra-local").toString(), command,
        "--run-dir", runDir().toString()));
    if ("start".equals(command)) {
      cmd.addAll(Arrays.asList("--first-address", ADDRESS, "--jmx-port",
          String.valueOf(JMX_PORT), "--tls"));
    }
    return ServerScripts.run(cmd, "[cassandra-local] ");
  }
}
