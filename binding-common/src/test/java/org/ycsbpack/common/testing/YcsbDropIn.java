package org.ycsbpack.common.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.ycsbpack.common.ReadmePropertyTables;

/**
 * Test support for scripts/install-into-ycsb on real YCSB trees: YCSB's own source (the archive
 * of upstream YCSB that CI keeps beside the project, in {@code ../shared/third-party/}), with
 * core built once per test run, a release tree assembled from it, and YCSB's own launchers
 * ({@code bin/ycsb} under python3, {@code bin/ycsb.sh}) run as a user runs them.
 */
public final class YcsbDropIn {
  /** A directory holding YCSB-*.tar.gz, instead of {@code <repo>/../shared/third-party}. */
  public static final String ARCHIVE_DIR_ENV = "YCSBPACK_THIRD_PARTY";
  private static final Path ROOT = ReadmePropertyTables.repoRoot();

  private YcsbDropIn() {
  }

  /** The YCSB source archive; skips the calling test, saying why, when there is none. */
  public static Path archive() throws IOException {
    String env = System.getenv(ARCHIVE_DIR_ENV);
    Path dir = env != null ? Path.of(env) : ROOT.resolveSibling("shared").resolve("third-party");
    List<Path> found = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "YCSB-*.tar.gz")) {
        s.forEach(found::add);
      }
    }
    Assumptions.assumeTrue(found.size() == 1, "no single YCSB source archive YCSB-*.tar.gz in "
        + dir + " (found " + found + "); set " + ARCHIVE_DIR_ENV + " to the directory holding it");
    return found.get(0);
  }

  /**
   * The archive extracted and its core built with YCSB's own build (Maven Central only), once per
   * test run: kept under the project's target/ for the other binding module's tests.
   */
  public static synchronized Path builtSource() throws Exception {
    Path archive = archive();
    String name = archive.getFileName().toString().replace(".tar.gz", "");
    Path dir = ROOT.resolve("target/ycsb-dropin").resolve(name);
    Path marker = dir.resolve(".core-built-by-ycsbpack-tests");
    if (Files.exists(marker)) {
      return dir;
    }
    ServerScripts.deleteRecursively(dir);
    Files.createDirectories(dir);
    Result untar = run(List.of("tar", "xzf", archive.toString(), "-C", dir.toString(),
        "--strip-components=1"), dir, Map.of());
    assertEquals(0, untar.exit, untar.toString());
    long start = System.nanoTime();
    // what YCSB's README has a user run before bin/ycsb.sh: core only (the bindings need
    // databases' client libraries; YCSB's cassandra module even a repository unreachable here)
    Result build = run(List.of("mvn", "-B", "-q", "-DskipTests", "-pl", "site.ycsb:core", "-am",
        "package"), dir, Map.of());
    assertEquals(0, build.exit, "building YCSB core from " + archive + ":\n" + build);
    System.out.printf("YCSB core of %s built in %.0f s%n", name, (System.nanoTime() - start) / 1e9);
    Files.write(marker, new byte[0]);
    return dir;
  }

  /** A fresh copy of the built source tree, as a user's checkout with core built. */
  public static Path sourceCheckout(Path parent) throws Exception {
    Path from = builtSource();
    Path to = parent.resolve("YCSB");
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        if (p.getFileName().toString().startsWith(".core-built")) {
          continue;
        }
        Path dest = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return to;
  }

  /**
   * A release tree laid out as YCSB's distribution assembly lays it out (bin/, lib/ with core and
   * its runtime jars, LICENSE.txt, which YCSB's bin/ycsb looks for), from a source checkout whose
   * core/target/dependency is filled; the launchers are the untouched ones of the archive.
   */
  public static Path releaseTree(Path source, Path parent) throws Exception {
    Path home = parent.resolve("ycsb-release");
    Path pristine = builtSource();
    Files.createDirectories(home.resolve("bin"));
    Files.createDirectories(home.resolve("lib"));
    for (String f : new String[] {"bin/ycsb", "bin/ycsb.sh", "bin/bindings.properties",
        "LICENSE.txt", "NOTICE.txt"}) {
      Files.copy(pristine.resolve(f), home.resolve(f), StandardCopyOption.COPY_ATTRIBUTES);
    }
    List<Path> jars = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(source.resolve("core/target"),
        "core-*.jar")) {
      s.forEach(jars::add);
    }
    try (DirectoryStream<Path> s = Files.newDirectoryStream(
        source.resolve("core/target/dependency"), "*.jar")) {
      s.forEach(jars::add);
    }
    for (Path j : jars) {
      Files.copy(j, home.resolve("lib").resolve(j.getFileName()));
    }
    return home;
  }

  /** scripts/install-into-ycsb on {@code home}; asserts it succeeded. */
  public static String install(Path home) throws Exception {
    long start = System.nanoTime();
    Result r = run(List.of(ROOT.resolve("scripts/install-into-ycsb").toString(), home.toString()),
        ROOT, Map.of());
    System.out.printf("%.1f s: install-into-ycsb %s%n", (System.nanoTime() - start) / 1e9, home);
    assertEquals(0, r.exit, r.toString());
    return r.stdout + r.stderr;
  }

  /** The launchers a YCSB tree has that run on Python 3 or sh, as a user starts them. */
  public static List<List<String>> launchers(Path home) {
    return List.of(List.of("python3", home.resolve("bin/ycsb").toString()),
        List.of(home.resolve("bin/ycsb.sh").toString()));
  }

  /**
   * Runs one launcher in {@code home} (YCSB's Python launcher runs Maven in the current
   * directory, which must be the checkout) and asserts a final report.
   */
  public static Result ycsb(Path home, List<String> launcher, String command, String binding,
                            String... args) throws Exception {
    List<String> cmd = new ArrayList<>(launcher);
    cmd.add(command);
    cmd.add(binding);
    cmd.addAll(Arrays.asList(args));
    long start = System.nanoTime();
    Result r = run(cmd, home, Map.of());
    System.out.printf("%.1f s: %s %s %s%n", (System.nanoTime() - start) / 1e9,
        String.join(" ", launcher), command, binding);
    assertEquals(0, r.exit, r.toString());
    assertTrue(r.stdout.contains("[OVERALL], Throughput(ops/sec)"), r.toString());
    return r;
  }

  /**
   * Load with CoreWorkload, a BatchedWorkload run and a ListAppendWorkload run through one
   * launcher, each with every operation OK.
   *
   * @param listsExist whether an earlier run appended to the lists, so reading them finds them
   */
  public static void runEveryWorkload(Path home, List<String> launcher, String binding,
                                      boolean listsExist, String... connection) throws Exception {
    String where = home + " with " + launcher.get(launcher.size() - 1);
    loadOnly(home, launcher, binding, connection);

    // batches of keys named by CoreWorkload's load: every key found
    Result batched = ycsb(home, launcher, "run", binding, with(connection,
        "-p", "workload=org.ycsbpack.common.batch.BatchedWorkload", "-p", "recordcount=100",
        "-p", "operationcount=20", "-p", "batchsize=10", "-p", "requestdistribution=uniform",
        "-p", "batchreadproportion=0.5", "-p", "batchupdateproportion=0.25",
        "-p", "readproportion=0.25", "-threads", "2"));
    Map<String, Long> ops = okOperations(batched, where);
    assertTrue(ops.containsKey("BATCH_READ") && ops.containsKey("BATCH_READ-RECORDS"),
        ops + "\n" + batched);
    assertEquals(20L, ops.getOrDefault("BATCH_READ", 0L) + ops.getOrDefault("BATCH_UPDATE", 0L)
        + ops.getOrDefault("READ", 0L), ops.toString());

    Result lists = ycsb(home, launcher, "run", binding, with(connection,
        "-p", "workload=org.ycsbpack.common.listappend.ListAppendWorkload",
        "-p", "listappend.keys=3", "-p", "batchsize=3", "-p", "operationcount=10",
        "-p", "appendproportion=" + (listsExist ? "0.5" : "1"),
        "-p", "readlistproportion=" + (listsExist ? "0.5" : "0"), "-threads", "2"));
    Map<String, Long> listOps = okOperations(lists, where);
    assertTrue(listOps.containsKey("BATCH_APPEND-RECORDS"), listOps + "\n" + lists);
    assertEquals(10L, listOps.getOrDefault("BATCH_APPEND", 0L)
        + listOps.getOrDefault("BATCH_READ_LIST", 0L), listOps.toString());
  }

  /**
   * The whole drop-in as a user does it, for one binding: install into a source checkout with core
   * built, run YCSB through both launchers, install again, then the same on a release tree. Each
   * tree runs every workload through one launcher and a load through the other (the launcher
   * decides the classpath, which a load proves; the workloads' classes come with the binding's
   * jars): the Python launcher of a source checkout rebuilds with Maven on each call (8-11 s).
   */
  public static void installAndRunEverywhere(Path tmp, String binding, String dir,
                                             String... connection) throws Exception {
    Path source = sourceCheckout(tmp);
    String first = install(source);
    assertTrue(first.contains(binding + " -> " + source + "/" + dir + "/ (source tree): "), first);
    // YCSB's own build leaves core/target/dependency empty; bin/ycsb.sh needs it
    assertTrue(first.contains("YCSB's tree lacks what bin/ycsb.sh reads: core/target/dependency"),
        first);
    List<List<String>> sourceLaunchers = launchers(source);
    loadOnly(source, sourceLaunchers.get(0), binding, connection);
    runEveryWorkload(source, sourceLaunchers.get(1), binding, false, connection);
    assertUnchanged(install(source));

    Path release = releaseTree(source, tmp);
    String installed = install(release);
    assertTrue(installed.contains(binding + " -> " + release + "/" + dir + "-binding/ (release "
        + "tree): "), installed);
    List<List<String>> releaseLaunchers = launchers(release);
    runEveryWorkload(release, releaseLaunchers.get(0), binding, true, connection);
    loadOnly(release, releaseLaunchers.get(1), binding, connection);
    assertUnchanged(install(release));
  }

  /** A CoreWorkload load through one launcher, every insert OK. */
  private static void loadOnly(Path home, List<String> launcher, String binding,
                               String... connection) throws Exception {
    Result load = ycsb(home, launcher, "load", binding, with(connection,
        "-p", "workload=site.ycsb.workloads.CoreWorkload", "-p", "recordcount=100",
        "-threads", "2"));
    assertEquals(Map.of("INSERT", 100L),
        okOperations(load, home + " with " + launcher.get(launcher.size() - 1)));
  }

  private static void assertUnchanged(String install) {
    assertFalse(install.contains("change(s)"), install);
    assertFalse(install.contains("lacks"), install);
    assertTrue(install.contains("already installed, unchanged"), install);
  }

  private static String[] with(String[] connection, String... more) {
    List<String> all = new ArrayList<>(Arrays.asList(connection));
    all.addAll(Arrays.asList(more));
    return all.toArray(new String[0]);
  }

  private static final Pattern RETURN = Pattern.compile(
      "^\\[([A-Z_-]+)\\], Return=([A-Za-z_]+), (\\d+)$", Pattern.MULTILINE);

  /** Every {@code Return=} line of the report; fails on any status but OK. */
  public static Map<String, Long> okOperations(Result r, String where) {
    Map<String, Long> ok = new LinkedHashMap<>();
    Matcher m = RETURN.matcher(r.stdout);
    while (m.find()) {
      if (!"OK".equals(m.group(2))) {
        fail("[" + m.group(1) + "], Return=" + m.group(2) + " in " + where + ":\n" + r);
      }
      ok.put(m.group(1), Long.parseLong(m.group(3)));
    }
    assertFalse(ok.isEmpty(), "no Return= lines in " + where + ":\n" + r);
    return ok;
  }

  /** A finished process: exit status and output. */
  public static final class Result {
    public final int exit;
    public final String stdout;
    public final String stderr;
    private final List<String> cmd;

    private Result(List<String> cmd, int exit, String stdout, String stderr) {
      this.cmd = cmd;
      this.exit = exit;
      this.stdout = stdout;
      this.stderr = stderr;
    }

    @Override
    public String toString() {
      return String.join(" ", cmd) + "\nexit " + exit + "\n--- stdout ---\n" + stdout
          + "\n--- stderr ---\n" + stderr;
    }
  }

  private static Result run(List<String> cmd, Path dir, Map<String, String> env)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("dropin", ".out");
    Path err = Files.createTempFile("dropin", ".err");
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
          .redirectOutput(out.toFile()).redirectError(err.toFile())
          .redirectInput(new File("/dev/null"));
      pb.environment().putAll(env);
      Process p = pb.start();
      if (!p.waitFor(10, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        fail("did not finish within 10 minutes: " + cmd);
      }
      return new Result(cmd, p.exitValue(),
          new String(Files.readAllBytes(out), StandardCharsets.UTF_8),
          new String(Files.readAllBytes(err), StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
