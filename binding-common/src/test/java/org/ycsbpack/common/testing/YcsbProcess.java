package org.ycsbpack.common.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.ycsbpack.common.ReadmePropertyTables;

/** Test support: runs bin/ycsb as a user would and keeps its exit status, stdout and stderr. */
public final class YcsbProcess {
  public final int exitStatus;
  public final String stdout;
  public final String stderr;

  private YcsbProcess(int exitStatus, String stdout, String stderr) {
    this.exitStatus = exitStatus;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  public static YcsbProcess run(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(ReadmePropertyTables.repoRoot().resolve("bin/ycsb").toString());
    cmd.addAll(Arrays.asList(args));
    Path out = Files.createTempFile("ycsb", ".out");
    Path err = Files.createTempFile("ycsb", ".err");
    try {
      Process p = new ProcessBuilder(cmd).directory(ReadmePropertyTables.repoRoot().toFile())
          .redirectOutput(out.toFile()).redirectError(err.toFile())
          .redirectInput(new File("/dev/null")).start();
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("bin/ycsb did not finish within 5 minutes: " + cmd);
      }
      return new YcsbProcess(p.exitValue(),
          new String(Files.readAllBytes(out), StandardCharsets.UTF_8),
          new String(Files.readAllBytes(err), StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** The value of a final-report line such as {@code [READ], Return=OK, 1000}, or null. */
  public String reportValue(String metric, String name) {
    String prefix = "[" + metric + "], " + name + ", ";
    for (String line : stdout.split("\n")) {
      if (line.startsWith(prefix)) {
        return line.substring(prefix.length()).trim();
      }
    }
    return null;
  }

  /**
   * The client stopped in init() as the launcher promises: exit status 3, "ERROR {binding}:
   * {sentence}" said once however many threads failed, and no report.
   */
  public void assertStoppedAtInit(String binding, String sentence) {
    assertEquals(3, exitStatus, toString());
    assertTrue(stderr.contains("ERROR " + binding + ": " + sentence), stderr);
    assertEquals(stderr.indexOf("ERROR " + binding), stderr.lastIndexOf("ERROR " + binding),
        "said once, not once per thread");
    assertFalse(stdout.contains("[OVERALL]"), "no report after a failed init");
  }

  @Override
  public String toString() {
    return "exit " + exitStatus + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
  }
}
