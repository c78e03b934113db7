package org.ycsbpack.common.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Properties;
import org.ycsbpack.common.ClientLog;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.probe.Json;
import org.ycsbpack.common.probe.ServerFacts;
import org.ycsbpack.common.probe.ServerSource;
import org.ycsbpack.common.probe.WatchLoop;

/**
 * What every binding's server probe ({@code bin/ycsb servers <binding>}) does around its own
 * {@link ServerSource}: parses the arguments, connects with the binding's properties, prints
 * the facts as one JSON object and, with {@code -watch}, the samples, one JSON line each, until
 * standard input ends, then the facts once more (the last line). Exit status 0;
 * {@link #BAD_ARGUMENT_EXIT} for a bad argument; {@link #CANNOT_CONNECT_EXIT} when a property is
 * refused or the servers cannot be reached, each with one sentence on stderr.
 */
public final class ProbeMain {
  public static final int BAD_ARGUMENT_EXIT = 2;
  public static final int CANNOT_CONNECT_EXIT = 3;

  /** Connects to the servers as the binding would with {@code props}. */
  public interface Opener {
    /** Throws an exception whose message is the one sentence to print when that fails. */
    ServerSource open(Properties props) throws Exception;
  }

  private ProbeMain() {
  }

  /** Runs the probe of {@code binding} (its name in messages) and exits. */
  public static void run(String binding, String[] args, Opener opener) throws IOException {
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    System.setErr(new PrintStream(new SecretMaskingStream(System.err), true, "UTF-8"));
    ProbeArguments parsed;
    try {
      parsed = ProbeArguments.parse(args);
    } catch (IllegalArgumentException | IOException e) {
      exit(binding, e.getMessage(), BAD_ARGUMENT_EXIT);
      return;
    }
    ServerSource source;
    try {
      source = opener.open(parsed.properties);
    } catch (Exception e) {
      String m = e.getMessage() == null ? ErrorLog.describe(e) : e.getMessage();
      exit(binding, m + ClientLog.mention(), CANNOT_CONNECT_EXIT);
      return;
    }
    try {
      ServerFacts facts = source.facts(parsed.watchMs > 0);
      if (parsed.watchMs > 0) {
        out.println(Json.compact(facts.toMap()));
        out.flush();
        WatchLoop.run(source, parsed.watchMs, System.in, out);
        // and again as the watch ends: what the phase left (a load creates the table it reads)
        out.println(Json.compact(source.facts(true).toMap()));
      } else {
        out.println(Json.pretty(facts.toMap()));
      }
      out.flush();
    } finally {
      closeQuietly(source);
    }
    System.exit(0);
  }

  private static void closeQuietly(ServerSource source) {
    try {
      source.close();
    } catch (RuntimeException e) {
      // the output is complete; a failed close changes nothing in it
    }
  }

  private static void exit(String binding, String sentence, int status) {
    System.err.println("ERROR " + binding + " servers: " + sentence);
    System.err.flush();
    System.exit(status);
  }
}
