package org.ycsbpack.hbase;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.ycsbpack.common.ReadmePropertyTables;
import org.ycsbpack.common.testing.ServerScripts;

/**
 * Test support: one real standalone HBase for the whole test JVM, started empty on first use with
 * scripts/hbase-local in hbase-salted-binding/target/it-hbase on ports of its own (ZooKeeper
 * 22181, master 26000, region server 26020), so an HBase of the user's own on 2181 is left
 * alone; stopped by a shutdown hook when the JVM exits, and by hbase-local's watcher if the JVM
 * dies without running it. Set YCSBPACK_IT_HBASE_ZK=host:port to
 * test against a running HBase instead.
 */
final class LocalHBase {
  static final int ZK_PORT = 22181;
  private static final int MASTER_PORT = 26000;
  private static final int REGIONSERVER_PORT = 26020;
  private static String quorum;
  private static int port;

  private LocalHBase() {
  }

  /** {@code hbase.zookeeper.quorum} of the test HBase, starting it if needed. */
  static synchronized String quorum() {
    if (quorum == null) {
      String external = System.getenv("YCSBPACK_IT_HBASE_ZK");
      if (external != null && !external.isEmpty()) {
        String[] hostPort = external.split(":");
        quorum = hostPort[0];
        port = hostPort.length > 1 ? Integer.parseInt(hostPort[1]) : 2181;
      } else {
        start();
        quorum = "127.0.0.1";
        port = ZK_PORT;
      }
    }
    return quorum;
  }

  /** {@code hbase.zookeeper.property.clientPort} of the test HBase. */
  static synchronized int port() {
    quorum();
    return port;
  }

  /** The binding properties that point at the test HBase: the one place that says where it is. */
  static Map<String, String> connectionProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(HBaseProperties.ZK_QUORUM.name(), quorum());
    p.put(HBaseProperties.ZK_PORT.name(), String.valueOf(port()));
    return p;
  }

  /** {@link #connectionProperties()} as {@code -p} arguments of bin/ycsb. */
  static String[] ycsbArgs() {
    List<String> args = new ArrayList<>();
    connectionProperties().forEach((k, v) -> args.addAll(Arrays.asList("-p", k + "=" + v)));
    return args.toArray(new String[0]);
  }

  /** A plain HBase client of the test's own, to look at what the binding did. */
  static Connection rawConnection() throws IOException {
    Configuration conf = HBaseConfiguration.create();
    connectionProperties().forEach(conf::set);
    conf.set("hbase.tmp.dir", repoRoot().resolve("hbase-salted-binding/target/it-client")
        .toString());
    return ConnectionFactory.createConnection(conf);
  }

  static Path repoRoot() {
    return ReadmePropertyTables.repoRoot();
  }

  private static Path runDir() {
    return repoRoot().resolve("hbase-salted-binding/target/it-hbase");
  }

  /** Starts an empty HBase: tables left by an earlier run (a disabled one, say) must not count. */
  private static void start() {
    script("stop"); // a leftover of a killed run, if any
    ServerScripts.deleteRecursively(runDir());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> script("stop"), "stop-it-hbase"));
    int status = script("start");
    if (status != 0) {
      throw new IllegalStateException("scripts/hbase-local start failed (exit " + status
          + "); its output above says why");
    }
  }

  private static int script(String command) {
    List<String> cmd = new ArrayList<>(Arrays.asList(
        repoRoot().resolve("scripts/hbase-local").toString(), command,
        "--run-dir", runDir().toString()));
    if ("start".equals(command)) {
      cmd.addAll(Arrays.asList("--zk-port", String.valueOf(ZK_PORT),
          "--master-port", String.valueOf(MASTER_PORT),
          "--regionserver-port", String.valueOf(REGIONSERVER_PORT),
          // a test JVM killed before its shutdown hook runs still leaves no HBase behind
          "--owner-pid", String.valueOf(ProcessHandle.current().pid())));
    }
    return ServerScripts.run(cmd, "[hbase-local] ");
  }
}
