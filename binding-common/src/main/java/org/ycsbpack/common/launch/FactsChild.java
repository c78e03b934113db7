package org.ycsbpack.common.launch;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The facts of a watch read by a child JVM: this probe's java, JVM options, class path and main
 * class, its arguments without {@code -watch}, and {@link #PROPERTY} set, so that the child
 * prints the facts as one JSON line and exits. For a binding whose client, once used, leaves
 * threads running for the rest of its JVM's life (HBase's), which the watching JVM then never
 * starts.
 */
public final class FactsChild {
  /** Set (to "true") in the child: ProbeMain prints the facts line of a watch and exits. */
  public static final String PROPERTY = "ycsbpack.probe.facts-child";

  private final List<String> command = new ArrayList<>();

  /** The child of a probe run with {@code args} from {@code main}. */
  public FactsChild(Class<?> main, String[] args) {
    command.add(ProcessHandle.current().info().command()
        .orElse(System.getProperty("java.home") + File.separator + "bin" + File.separator
            + "java"));
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.add("-D" + PROPERTY + "=true");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    List<String> rest = new ArrayList<>(Arrays.asList(args));
    int watch = rest.indexOf("-watch");
    if (watch >= 0) {
      rest.subList(watch, Math.min(watch + 2, rest.size())).clear();
    }
    command.addAll(rest);
  }

  /** The child's command line. */
  List<String> command() {
    return List.copyOf(command);
  }

  /** Runs the child: its facts line; an IOException with the child's sentence if it failed. */
  public String factsLine() throws IOException {
    Process p = new ProcessBuilder(command).start();
    p.getOutputStream().close();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Thread errReader = new Thread(() -> copy(p.getErrorStream(), err), "ycsbpack-facts-err");
    errReader.start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    copy(p.getInputStream(), out);
    int status;
    try {
      status = p.waitFor();
      errReader.join();
    } catch (InterruptedException e) {
      p.destroy();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the facts were read");
    }
    String line = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("{"))
        .reduce((first, last) -> last).orElse("");
    if (status != 0 || line.isEmpty()) {
      String said = err.toString(StandardCharsets.UTF_8).strip()
          .replaceFirst("(?s)^.*?ERROR \\S+ servers: ", "");
      throw new IOException(said.isEmpty()
          ? "the JVM reading the facts exited with status " + status + " and said nothing"
          : said);
    }
    return line;
  }

  private static void copy(InputStream in, ByteArrayOutputStream to) {
    byte[] buffer = new byte[8192];
    try (InputStream s = in) {
      for (int n = s.read(buffer); n >= 0; n = s.read(buffer)) {
        to.write(buffer, 0, n);
      }
    } catch (IOException e) {
      // what was read is what there is
    }
  }
}
