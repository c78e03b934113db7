package org.ycsbpack.common.launch;

import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import org.ycsbpack.common.InitFailure;

/**
 * The main class of {@code bin/ycsb shell}: YCSB's {@code site.ycsb.CommandLine}, which throws a
 * NullPointerException when its input ends without "quit" (Ctrl-D, or no input at all). Here the
 * end of the input is a "quit"; a binding's init() failure exits with
 * {@link InitFailure#EXIT_STATUS} and one sentence, and secret values are masked as in
 * {@link ClientMain}.
 */
public final class ShellMain {
  private ShellMain() {
  }

  public static void main(String[] args) throws Exception {
    System.setProperty(InitFailure.FAIL_FAST_PROPERTY, "true");
    System.setOut(new PrintStream(new SecretMaskingStream(System.out), true, "UTF-8"));
    System.setErr(new PrintStream(new SecretMaskingStream(System.err), true, "UTF-8"));
    System.setIn(new SequenceInputStream(System.in,
        new ByteArrayInputStream("\nquit\n".getBytes(StandardCharsets.US_ASCII))));
    site.ycsb.CommandLine.main(args);
  }
}
