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

  /** Opens the watch of the servers: the probe's arguments without -watch, for a child. */
  public interface WatchOpener {
    /** Throws an exception whose message is the one sentence to print when that fails. */
    Watched open(Properties props, String[] args) throws Exception;
  }

  /** Runs the probe of {@code binding} (its name in messages), watching in its own JVM. */
  public static void run(String binding, String[] args, Opener opener) throws IOException {
    run(binding, args, opener, (props, a) -> Watched.of(opener.open(props)));
  }

  /** Runs the probe of {@code binding}; under -watch on what {@code watchOpener} opens. */
  public static void run(String binding, String[] args, Opener opener, WatchOpener watchOpener)
      throws IOException {
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    System.setErr(new PrintStream(new SecretMaskingStream(System.err), true, "UTF-8"));
    ProbeArguments parsed;
    try {
      parsed = ProbeArguments.parse(args);
    } catch (IllegalArgumentException | IOException e) {
      exit(binding, e.getMessage(), BAD_ARGUMENT_EXIT);
      return;
    }
    boolean child = Boolean.getBoolean(FactsChild.PROPERTY);
    if (parsed.watchMs > 0) {
      watch(binding, parsed, args, watchOpener, out);
    } else {
      ServerSource source = open(binding, parsed, opener);
      try {
        ServerFacts facts = source.facts(child);
        out.println(child ? Json.compact(facts.toMap()) : Json.pretty(facts.toMap()));
        out.flush();
      } finally {
        closeQuietly(source);
      }
    }
    System.exit(0);
  }

  private static ServerSource open(String binding, ProbeArguments parsed, Opener opener) {
    try {
      return opener.open(parsed.properties);
    } catch (Exception e) {
      exit(binding, sentence(e) + ClientLog.mention(), CANNOT_CONNECT_EXIT);
      return null;
    }
  }

  /** The facts line, the rounds until standard input ends, the facts line again. */
  private static void watch(String binding, ProbeArguments parsed, String[] args,
                            WatchOpener opener, PrintStream out) {
    Watched watched;
    String first;
    try {
      watched = opener.open(parsed.properties, args);
      first = watched.factsLine();
    } catch (Exception e) {
      exit(binding, sentence(e) + ClientLog.mention(), CANNOT_CONNECT_EXIT);
      return;
    }
    try {
      out.println(first);
      out.flush();
      WatchLoop.run(watched, parsed.watchMs, System.in, out);
      // and again as the watch ends: what the phase left (a load creates the table it reads)
      out.println(watched.factsLine());
      out.flush();
    } catch (Exception e) {
      exit(binding, "the facts could not be read again as the watch ended: " + sentence(e),
          CANNOT_CONNECT_EXIT);
    } finally {
      closeQuietly(watched);
    }
  }

  private static String sentence(Exception e) {
    return e.getMessage() == null ? ErrorLog.describe(e) : e.getMessage();
  }

  private static void closeQuietly(AutoCloseable source) {
    try {
      source.close();
    } catch (Exception e) {
      // the output is complete; a failed close changes nothing in it
    }
  }

  private static void exit(String binding, String sentence, int status) {
    System.err.println("ERROR " + binding + " servers: " + sentence);
    System.err.flush();
    System.exit(status);
  }
}
