package org.ycsbpack.common.launch;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Masks the values of secret properties ({@code cassandra.password=...}) in everything written to
 * stdout and stderr. YCSB 0.17 echoes its whole command line to stderr ("Command line: -p ..."),
 * and BasicDB with {@code basicdb.verbose=true} prints every property to stdout as
 * {@code "name"="value"}, secrets included. Works line by line; a partial line is passed on
 * (masked) when flushed.
 */
final class SecretMaskingStream extends FilterOutputStream {
  /** Words that make a property secret: the same list as scripts' secrets.SECRET_WORDS. */
  static final String[] SECRET_WORDS = {"password", "passwd", "secret", "passphrase",
      "credential", "keytab", "token", "apikey", "api_key", "api-key", "api.key", "accesskey",
      "access_key", "access-key", "access.key", "privatekey", "private_key", "private-key",
      "private.key"};
  static final Pattern SECRET = Pattern.compile("(\"?[A-Za-z0-9_.\\-]*(?i:"
      + String.join("|", quoted(SECRET_WORDS)) + ")[A-Za-z0-9_.\\-]*\"?=)(\"[^\"]*\"|\\S+)");
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  SecretMaskingStream(OutputStream out) {
    super(out);
  }

  static String mask(String text) {
    return SECRET.matcher(text).replaceAll("$1*****");
  }

  private static String[] quoted(String[] words) {
    String[] out = new String[words.length];
    for (int i = 0; i < words.length; i++) {
      out[i] = Pattern.quote(words[i]);
    }
    return out;
  }

  @Override
  public synchronized void write(int b) throws IOException {
    line.write(b);
    if (b == '\n') {
      emit();
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    for (int i = off; i < off + len; i++) {
      write(b[i]);
    }
  }

  @Override
  public synchronized void flush() throws IOException {
    emit();
    out.flush();
  }

  private void emit() throws IOException {
    if (line.size() > 0) {
      out.write(mask(line.toString(StandardCharsets.UTF_8.name()))
          .getBytes(StandardCharsets.UTF_8));
      line.reset();
    }
  }
}
