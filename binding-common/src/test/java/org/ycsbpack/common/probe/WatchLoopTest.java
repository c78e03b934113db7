package org.ycsbpack.common.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WatchLoopTest {
  @Test
  void aRoundOnTimeIsFollowedAPeriodLater() {
    assertEquals(6_000, WatchLoop.nextRound(1_000, 1_200, 5_000));
  }

  @Test
  void roundsMissedWhileTheProbeWasPausedAreSkippedNotMadeUp() {
    // due at 1 s, the JVM paused until 23.5 s: the rounds of 6, 11, 16 and 21 s are gone and
    // the next is at 26 s, on the same schedule
    assertEquals(26_000, WatchLoop.nextRound(1_000, 23_500, 5_000));
    assertEquals(21_000, WatchLoop.nextRound(1_000, 21_000, 5_000));
    // a round that ends just as the next is due: that one runs at once
    assertEquals(6_000, WatchLoop.nextRound(1_000, 6_000, 5_000));
  }

  @Test
  void aWakeUpLongAfterItsRoundWasDueSkipsThatRound() {
    // bench-server-watch resumed a probe paused over 48 s: its round at once and the one due
    // 2 s later made two rounds where a running watch makes one (the probe's log, 2026-12-05)
    assertTrue(WatchLoop.missed(1_000, 49_100, 10_000));
    assertEquals(51_000, WatchLoop.nextRound(1_000, 49_100, 10_000));
    // a thread scheduled late on busy cores still samples: within a quarter of the period
    assertFalse(WatchLoop.missed(1_000, 3_400, 10_000));
    assertFalse(WatchLoop.missed(1_000, 1_900, 2_000));  // and within a second at short periods
    assertTrue(WatchLoop.missed(1_000, 2_100, 2_000));
  }

  @Test
  void aPhaseShorterThanThePeriodIsSampledAsItStartsAndAsItEnds() {
    AtomicInteger rounds = new AtomicInteger();
    Sampler source = out -> out.add(rounds.incrementAndGet(), "n1", "flushes_total",
        rounds.get());
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    // the input has ended already: a 60-s period never comes round
    WatchLoop.run(source, 60_000, new ByteArrayInputStream(new byte[0]),
        new PrintStream(sink, true, StandardCharsets.UTF_8));
    assertEquals(2, rounds.get());
    assertEquals(2, sink.toString(StandardCharsets.UTF_8).lines().count());
  }

  @Test
  void untilEveryNodeHasAnsweredRoundsComeASecondApart() throws Exception {
    AtomicInteger rounds = new AtomicInteger();
    PipedOutputStream input = new PipedOutputStream();
    PipedInputStream stdin = new PipedInputStream(input);
    Sampler source = out -> {
      long t = rounds.incrementAndGet();
      if (t <= 2) {  // a fresh server: its metrics are not there yet
        out.skip(t, "n1", "jmx", "no bean yet");
      } else {
        out.add(t, "n1", "flushes_total", 0);
        try {
          input.close();  // the phase ends
        } catch (java.io.IOException e) {
          throw new IllegalStateException(e);
        }
      }
    };
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    // a 60-s period: the old loop waited a whole period after the failed first round
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> WatchLoop.run(source, 60_000, stdin,
        new PrintStream(sink, true, StandardCharsets.UTF_8)));
    assertEquals(4, rounds.get());  // 2 failed, 1 answered, the last as the input ended
    assertEquals(1, sink.toString(StandardCharsets.UTF_8).lines()
        .filter(l -> l.contains("skipped")).count());
  }
}
