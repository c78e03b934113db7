package org.ycsbpack.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * Test support: checks that the README's property table of a binding, between the markers
 * {@code <!-- properties:NAME -->} and {@code <!-- /properties:NAME -->}, is exactly what
 * {@link PropertyTable} renders from the code. Run the test with
 * {@code -Dycsbpack.updateReadme=true} to rewrite the table in place.
 */
public final class ReadmePropertyTables {
  private ReadmePropertyTables() {
  }

  /**
   * Returns null when the table {@code binding} of {@code readme} (a binding's own README.md, or
   * docs/workloads.md for the workloads' tables) matches the code, otherwise a message saying
   * what to do.
   */
  public static String mismatch(Path readme, String binding, List<BindingProperty> properties)
      throws IOException {
    String text = new String(Files.readAllBytes(readme), StandardCharsets.UTF_8);
    String open = "<!-- properties:" + binding + " -->\n";
    String close = "<!-- /properties:" + binding + " -->";
    int start = text.indexOf(open);
    int end = text.indexOf(close);
    if (start < 0 || end < start) {
      return readme + " has no " + open.trim() + " ... " + close + " section";
    }
    String expected = PropertyTable.markdown(properties);
    String actual = text.substring(start + open.length(), end);
    if (expected.equals(actual)) {
      return null;
    }
    if (Boolean.getBoolean("ycsbpack.updateReadme")) {
      String updated = text.substring(0, start + open.length()) + expected + text.substring(end);
      Files.write(readme, updated.getBytes(StandardCharsets.UTF_8));
      return null;
    }
    return "the " + binding + " property table in " + readme + " differs from the code; rerun "
        + "this test with -Dycsbpack.updateReadme=true to regenerate it. Expected:\n" + expected;
  }

  /** The repository root: the nearest directory upwards that holds README.md and pom.xml. */
  public static Path repoRoot() {
    Path dir = Paths.get("").toAbsolutePath();
    while (dir != null) {
      if (Files.exists(dir.resolve("README.md")) && Files.exists(dir.resolve(".mvn"))) {
        return dir;
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException("cannot find the repository root (README.md and .mvn/) above "
        + Paths.get("").toAbsolutePath());
  }
}
