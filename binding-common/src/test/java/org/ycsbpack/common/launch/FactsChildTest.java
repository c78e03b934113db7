package org.ycsbpack.common.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class FactsChildTest {
  /** The child: prints what a probe's facts child prints, or fails as a probe does. */
  public static final class Child {
    public static void main(String[] args) {
      if (!Boolean.getBoolean(FactsChild.PROPERTY)) {
        System.exit(9);
      }
      if (args.length > 0 && args[0].equals("fail")) {
        System.err.println("ERROR demo servers: cannot reach the cluster at 127.0.0.1:1");
        System.exit(ProbeMain.CANNOT_CONNECT_EXIT);
      }
      System.out.println("a launcher's line that is not JSON");
      System.out.println("{\"database\":\"demo\",\"args\":\"" + String.join(" ", args) + "\"}");
    }
  }

  @Test
  void theChildGetsTheArgumentsWithoutTheWatch() {
    List<String> cmd = new FactsChild(Child.class, new String[] {"-P", "w.properties",
        "-watch", "10", "-p", "a=b"}).command();
    assertTrue(cmd.contains("-D" + FactsChild.PROPERTY + "=true"), cmd.toString());
    assertEquals(List.of(Child.class.getName(), "-P", "w.properties", "-p", "a=b"),
        cmd.subList(cmd.size() - 5, cmd.size()));
  }

  @Test
  void theFactsLineIsTheChildsJsonLine() throws IOException {
    assertEquals("{\"database\":\"demo\",\"args\":\"-p a=b\"}",
        new FactsChild(Child.class, new String[] {"-p", "a=b", "-watch", "2"}).factsLine());
  }

  @Test
  void aFailedChildIsItsOwnSentence() {
    IOException e = assertThrows(IOException.class,
        () -> new FactsChild(Child.class, new String[] {"fail"}).factsLine());
    assertEquals("cannot reach the cluster at 127.0.0.1:1", e.getMessage());
  }
}
