package org.ycsbpack.common.launch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The command line of {@code bin/ycsb servers <binding>}: {@code -P file} and
 * {@code -p key=value} as YCSB merges them (every -p beats every -P), and {@code -watch SECONDS}.
 */
final class ProbeArguments {
  /** The shortest watch period: a round reads every node, which takes tens of milliseconds. */
  static final double MIN_WATCH_SECONDS = 0.1;

  final Properties properties;
  /** 0 without -watch. */
  final long watchMs;

  private ProbeArguments(Properties properties, long watchMs) {
    this.properties = properties;
    this.watchMs = watchMs;
  }

  /** Parses {@code args}; a bad argument is an IllegalArgumentException of one sentence. */
  static ProbeArguments parse(String[] args) throws IOException {
    List<String> properties = new ArrayList<>();
    long watchMs = 0;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.equals("-P") && !a.equals("-p") && !a.equals("-watch")) {
        throw new IllegalArgumentException("unexpected argument '" + a + "': the server probe "
            + "takes -P file, -p key=value and -watch SECONDS");
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option " + a + " needs a value");
      }
      String value = args[++i];
      if (a.equals("-watch")) {
        watchMs = watchMs(value);
      } else {
        if (a.equals("-p") && value.indexOf('=') < 1) {
          throw new IllegalArgumentException("-p " + value + ": expected key=value");
        }
        properties.add(a);
        properties.add(value);
      }
    }
    return new ProbeArguments(ArgumentChecks.merged(properties.toArray(new String[0])), watchMs);
  }

  private static long watchMs(String value) {
    try {
      double seconds = Double.parseDouble(value.trim());
      if (seconds >= MIN_WATCH_SECONDS && seconds <= 86_400) {
        return Math.round(seconds * 1000);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("-watch " + value + ": expected the seconds between "
        + "samples, a number from " + MIN_WATCH_SECONDS + " to 86400 (e.g. -watch 2)");
  }
}
