package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ycsbpack.common.testing.YcsbDropIn;

/**
 * scripts/install-into-ycsb on a YCSB 0.17.0 release layout built from the Maven artifacts
 * (stock core and its own dependencies in lib/), then YCSB run from that tree exactly as its
 * launchers do; and on YCSB's real source tree and a release tree made from it, run through
 * YCSB's own launchers; all against the real test node.
 */
class InstallIntoYcsbIT {
  private static final Path ROOT = LocalCassandra.repoRoot();

  private static String run(List<String> cmd, Path dir, int expectedExit) throws Exception {
    Path out = Files.createTempFile("install", ".out");
    try {
      Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(out.toFile()).redirectInput(new File("/dev/null")).start();
      assertTrue(p.waitFor(5, TimeUnit.MINUTES), "finished: " + cmd);
      String output = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
      assertEquals(expectedExit, p.exitValue(), output);
      return output;
    } finally {
      Files.deleteIfExists(out);
    }
  }

  private static Path releaseTree(Path home) throws IOException {
    Files.createDirectories(home.resolve("bin"));
    Files.createDirectories(home.resolve("conf"));
    Files.createDirectories(home.resolve("lib"));
    Path stockLib = ROOT.resolve("ycsb-runtime/target/stock-ycsb-release-lib");
    try (Stream<Path> jars = Files.list(stockLib)) {
      for (Path j : (Iterable<Path>) jars::iterator) {
        Files.copy(j, home.resolve("lib").resolve(j.getFileName()));
      }
    }
    Files.write(home.resolve("bin/bindings.properties"),
        "basic:site.ycsb.BasicDB\n".getBytes(StandardCharsets.UTF_8));
    // the shape of YCSB's Python launcher's binding table
    Files.write(home.resolve("bin/ycsb"), ("#!/usr/bin/env python\nDATABASES = {\n"
        + "    \"basic\"        : \"site.ycsb.BasicDB\",\n}\n").getBytes(StandardCharsets.UTF_8));
    return home;
  }

  private static List<String> install(Path home) {
    return Arrays.asList(ROOT.resolve("scripts/install-into-ycsb").toString(), home.toString());
  }

  @Test
  void installedReleaseRunsAgainstCassandraAndASecondInstallChangesNothing(@TempDir Path tmp)
      throws Exception {
    Path home = releaseTree(tmp.resolve("ycsb-0.17.0"));
    String first = run(install(home), ROOT, 0);
    assertTrue(first.contains("cassandra4 -> " + home.resolve("cassandra4-binding") + "/ "
        + "(release tree):"), first);
    assertTrue(Files.exists(home.resolve("cassandra4-binding/conf/simplelogger.properties")));
    assertTrue(new String(Files.readAllBytes(home.resolve("bin/bindings.properties")),
        StandardCharsets.UTF_8).contains(
        "cassandra4:org.ycsbpack.cassandra4.Cassandra4Client\n"));
    assertTrue(new String(Files.readAllBytes(home.resolve("bin/ycsb")), StandardCharsets.UTF_8)
        .contains("\"cassandra4\" : \"org.ycsbpack.cassandra4.Cassandra4Client\","));

    String second = run(install(home), ROOT, 0);
    assertTrue(second.contains("already installed, unchanged"), second);

    // the classpath YCSB 0.17's launchers build for a release: conf, lib/*, binding conf and lib
    String classpath = String.join(File.pathSeparator, home.resolve("conf").toString(),
        home.resolve("lib/*").toString(), home.resolve("cassandra4-binding/conf").toString(),
        home.resolve("cassandra4-binding/lib/*").toString());
    List<String> ycsb = new ArrayList<>(Arrays.asList("java", "-cp", classpath,
        "site.ycsb.Client", "-db", "org.ycsbpack.cassandra4.Cassandra4Client",
        "-P", ROOT.resolve("workloads/s4/update-heavy.properties").toString(),
        "-p", "hosts=" + LocalCassandra.hosts(), "-p", "cassandra.keyspace=it_dropin",
        "-p", "cassandra.createschema=true", "-p", "recordcount=200", "-load"));
    String report = run(ycsb, home, 0);
    assertTrue(report.contains("[INSERT], Return=OK, 200"), report);
  }

  @Test
  void aDirectoryThatIsNotYcsbIsRefusedClearly(@TempDir Path tmp) throws Exception {
    String out = run(install(tmp), ROOT, 1);
    assertTrue(out.contains("is not a YCSB tree: expected a release (bin/ and lib/core-*.jar) "
        + "or a source checkout"), out);
  }

  /**
   * YCSB's own source (master, from the archive beside the project) and a release tree made from
   * it: both of its launchers load and run CoreWorkload, BatchedWorkload and ListAppendWorkload.
   */
  @Test
  void realYcsbSourceAndReleaseTreesRunEveryWorkloadThroughBothLaunchers(@TempDir Path tmp)
      throws Exception {
    YcsbDropIn.installAndRunEverywhere(tmp, "cassandra4", "cassandra4",
        "-p", "hosts=" + LocalCassandra.hosts(), "-p", "cassandra.keyspace=it_dropin_ycsb",
        "-p", "cassandra.createschema=true");
  }
}
