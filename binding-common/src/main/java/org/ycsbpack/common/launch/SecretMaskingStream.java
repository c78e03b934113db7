package org.ycsbpack.common.launch;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Masks the values of secret properties ({@code cassandra.password=...}) in everything written to
 * stderr. YCSB 0.17 echoes its whole command line there ("Command line: -p ..."), secrets included.
 * Works line by line; a partial line is passed on (masked) when flushed.
 */
final class SecretMaskingStream extends FilterOutputStream {
  static final Pattern SECRET = Pattern.compile(
      "([A-Za-z0-9_.\\-]*(?i:password|passwd|secret|passphrase|credential|keytab|token)"
          + "[A-Za-z0-9_.\\-]*=)(\\S+)");
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  SecretMaskingStream(OutputStream out) {
    super(out);
  }

  static String mask(String text) {
    return SECRET.matcher(text).replaceAll("$1*****");
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
