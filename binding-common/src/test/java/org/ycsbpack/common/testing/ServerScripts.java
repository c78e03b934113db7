package org.ycsbpack.common.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Test support: running the local-server scripts and emptying their run directories. */
public final class ServerScripts {
  private ServerScripts() {
  }

  /**
   * Runs a script and returns its exit status. Its output goes line by line, prefixed, through
   * System.out, which the test runner captures (the JVM's native stdout it would not).
   */
  public static int run(List<String> cmd, String prefix) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      try (BufferedReader out = new BufferedReader(
          new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          System.out.println(prefix + line);
        }
      }
      if (!p.waitFor(10, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        return -1;
      }
      return p.exitValue();
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + cmd + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** Deletes a directory tree, if it exists: test servers start empty. */
  public static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new IllegalStateException("cannot empty " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The arrays one after another: YCSB command lines built from parts. */
  public static String[] concat(String[]... parts) {
    int n = 0;
    for (String[] p : parts) {
      n += p.length;
    }
    String[] out = new String[n];
    int i = 0;
    for (String[] p : parts) {
      System.arraycopy(p, 0, out, i, p.length);
      i += p.length;
    }
    return out;
  }
}
