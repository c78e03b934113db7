package org.ycsbpack.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/install-into-ycsb puts the jdbc binding into a YCSB 0.17.0 release layout (built from
 * the Maven artifacts) as mysql-jdbc, next to YCSB's own jdbc binding, which it leaves alone;
 * YCSB run from that tree as its launchers run it loads into the real test server.
 */
class InstallIntoYcsbIT {
  private static final Path ROOT = LocalMariaDB.repoRoot();

  private static String run(List<String> cmd, Path dir) throws Exception {
    Path out = Files.createTempFile("install", ".out");
    try {
      Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(out.toFile()).redirectInput(new File("/dev/null")).start();
      assertTrue(p.waitFor(5, TimeUnit.MINUTES), "finished: " + cmd);
      String output = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
      assertEquals(0, p.exitValue(), output);
      return output;
    } finally {
      Files.deleteIfExists(out);
    }
  }

  private static String read(Path p) throws Exception {
    return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
  }

  @Test
  void installedAsMysqlJdbcNextToYcsbsOwnJdbcBindingAndRunsFromTheTree(@TempDir Path tmp)
      throws Exception {
    Path home = tmp.resolve("ycsb-0.17.0");
    Files.createDirectories(home.resolve("bin"));
    Files.createDirectories(home.resolve("conf"));
    Files.createDirectories(home.resolve("lib"));
    Path stockLib = ROOT.resolve("ycsb-runtime/target/stock-ycsb-release-lib");
    try (Stream<Path> jars = Files.list(stockLib)) {
      for (Path j : (Iterable<Path>) jars::iterator) {
        Files.copy(j, home.resolve("lib").resolve(j.getFileName()));
      }
    }
    // YCSB's own jdbc binding with a driver jar the user dropped in: must survive the install
    Path stockJdbc = home.resolve("jdbc-binding/lib");
    Files.createDirectories(stockJdbc);
    Files.write(stockJdbc.resolve("users-own-driver.jar"), new byte[] {1, 2, 3});
    Files.write(home.resolve("bin/bindings.properties"),
        "jdbc:site.ycsb.db.JdbcDBClient\n".getBytes(StandardCharsets.UTF_8));
    Files.write(home.resolve("bin/ycsb"), ("#!/usr/bin/env python\nDATABASES = {\n"
        + "    \"jdbc\"         : \"site.ycsb.db.JdbcDBClient\",\n}\n")
        .getBytes(StandardCharsets.UTF_8));

    List<String> install = Arrays.asList(ROOT.resolve("scripts/install-into-ycsb").toString(),
        home.toString());
    String first = run(install, ROOT);
    assertTrue(first.contains("mysql-jdbc -> " + home.resolve("mysql-binding") + "/ "
        + "(release tree):"), first);
    assertTrue(Files.exists(stockJdbc.resolve("users-own-driver.jar")), "stock jdbc untouched");
    String bindings = read(home.resolve("bin/bindings.properties"));
    assertTrue(bindings.contains("jdbc:site.ycsb.db.JdbcDBClient\n"), bindings);
    assertTrue(bindings.contains("mysql-jdbc:org.ycsbpack.jdbc.JdbcClient\n"), bindings);
    assertTrue(read(home.resolve("bin/ycsb")).contains(
        "\"mysql-jdbc\" : \"org.ycsbpack.jdbc.JdbcClient\","));
    assertTrue(run(install, ROOT).contains("mysql-jdbc -> " + home.resolve("mysql-binding")
        + "/ (release tree): already installed, unchanged"));

    // the classpath YCSB 0.17's launchers build for a release: conf, lib/*, binding conf and lib
    String classpath = String.join(File.pathSeparator, home.resolve("conf").toString(),
        home.resolve("lib/*").toString(), home.resolve("mysql-binding/conf").toString(),
        home.resolve("mysql-binding/lib/*").toString());
    String report = run(Arrays.asList("java", "-cp", classpath, "site.ycsb.Client", "-db",
        "org.ycsbpack.jdbc.JdbcClient",
        "-P", ROOT.resolve("workloads/s4/update-heavy.properties").toString(),
        "-p", "db.url=" + LocalMariaDB.url(), "-p", "table=it_dropin",
        "-p", "jdbc.createtable=true", "-p", "recordcount=200", "-load"), home);
    assertTrue(report.contains("[INSERT], Return=OK, 200"), report);
  }
}
