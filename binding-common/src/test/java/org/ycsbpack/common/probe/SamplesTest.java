package org.ycsbpack.common.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SamplesTest {
  @Test
  void aSampleIsOneJsonLineAndASkipIsSaidOncePerNodeAndThing() {
    Samples s = new Samples();
    s.add(1000, "127.0.0.1", "flushes_total", 3);
    s.skip(1001, "127.0.0.1", "jmx", "JMX did not answer");
    s.skip(1002, "127.0.0.1", "jmx", "JMX did not answer again");
    s.skip(1003, "127.0.0.2", "jmx", "JMX did not answer");
    assertEquals(Arrays.asList(
        "{\"t_ms\":1000,\"node\":\"127.0.0.1\",\"metric\":\"flushes_total\",\"value\":3}",
        "{\"t_ms\":1001,\"node\":\"127.0.0.1\",\"skipped\":\"JMX did not answer\"}",
        "{\"t_ms\":1003,\"node\":\"127.0.0.2\",\"skipped\":\"JMX did not answer\"}"), s.drain());
    s.skip(1004, "127.0.0.1", "jmx", "still not");
    assertEquals(Collections.emptyList(), s.drain());
  }

  @Test
  void factsMaskSecretSettingsAndDeriveTheClusterVersionFromTheNodes() {
    ServerFacts f = new ServerFacts("cassandra").notSecret("token");
    f.nodeVersion("127.0.0.2", "5.0.9");
    f.nodeVersion("127.0.0.1", "5.0.8");
    f.setting("server_encryption_options.keystore_password", "changeit");
    f.setting("num_tokens", "16");
    f.skip("one sentence.");
    assertEquals("{\"database\":\"cassandra\",\"versions\":{\"cluster\":\"mixed: 5.0.8, 5.0.9\","
        + "\"nodes\":{\"127.0.0.1\":\"5.0.8\",\"127.0.0.2\":\"5.0.9\"}},\"machines\":{},"
        + "\"settings\":"
        + "{\"num_tokens\":\"16\",\"server_encryption_options.keystore_password\":\"*****\"},"
        + "\"settings_source\":\"\",\"schema\":\"\",\"skipped\":[\"one sentence.\"]}",
        Json.compact(f.toMap()));
    ServerFacts h = new ServerFacts("hbase");
    h.setting("hbase.security.authentication.token.x", "v");
    assertTrue(Json.compact(h.toMap()).contains("\"*****\""));
  }

  @Test
  void theWatchEndsAtTheEndOfItsInputAndAFailedRoundDoesNotStopIt() throws Exception {
    AtomicInteger rounds = new AtomicInteger();
    ServerSource source = new ServerSource() {
      @Override
      public ServerFacts facts(boolean watching) {
        return new ServerFacts("test");
      }

      @Override
      public void sample(Samples out) {
        if (rounds.incrementAndGet() % 2 == 1) {
          throw new IllegalStateException("boom");
        }
        out.add(5, "n1", "cpu_ms_total", rounds.get());
      }

      @Override
      public void close() {
      }
    };
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    // a stdin that ends after ~250 ms: several 50-ms rounds run first
    java.io.PipedOutputStream writer = new java.io.PipedOutputStream();
    java.io.PipedInputStream stdin = new java.io.PipedInputStream(writer);
    Thread closer = new Thread(() -> {
      try {
        Thread.sleep(250);
        writer.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    closer.start();
    WatchLoop.run(source, 50, stdin, new PrintStream(sink, true, "UTF-8"));
    closer.join();
    List<String> lines = Arrays.asList(sink.toString("UTF-8").split("\n"));
    assertTrue(rounds.get() >= 3, "rounds: " + rounds.get());
    assertEquals(1, lines.stream().filter(l -> l.contains("\"skipped\"")).count(),
        lines.toString());
    assertTrue(lines.get(0).startsWith("{\"t_ms\":") && lines.get(0).contains(
        "a round of samples failed: IllegalStateException: boom; the watch goes on"), lines.get(0));
    assertTrue(lines.contains(
        "{\"t_ms\":5,\"node\":\"n1\",\"metric\":\"cpu_ms_total\",\"value\":2}"));
  }

  @Test
  void hostPortListsParseOrSayWhatIsWrong() {
    assertEquals(2, HostPorts.parse("serverprobe.jmx", "127.0.0.1:7199, 127.0.0.2:7299").size());
    assertEquals(0, HostPorts.parse("serverprobe.jmx", " ").size());
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> HostPorts.parse("serverprobe.jmx", "a:1,b"));
    assertEquals("property serverprobe.jmx='a:1,b': 'b' is not host:port; give one host:port per "
        + "node, comma-separated (e.g. 127.0.0.1:7199,127.0.0.1:7299)", e.getMessage());
  }
}
