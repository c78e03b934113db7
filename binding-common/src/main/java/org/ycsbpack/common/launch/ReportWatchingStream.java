package org.ycsbpack.common.launch;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Passes stdout through unchanged and notes whether YCSB's final report began
 * ({@code [OVERALL], RunTime(ms), ...}), even when the marker is split across writes.
 */
final class ReportWatchingStream extends FilterOutputStream {
  private static final byte[] MARKER = "[OVERALL]".getBytes(StandardCharsets.US_ASCII);
  private int matched;
  private volatile boolean sawReport;

  ReportWatchingStream(OutputStream out) {
    super(out);
  }

  boolean sawReport() {
    return sawReport;
  }

  @Override
  public void write(int b) throws IOException {
    note((byte) b);
    out.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    for (int i = off; i < off + len && !sawReport; i++) {
      note(b[i]);
    }
    out.write(b, off, len);
  }

  private void note(byte b) {
    if (sawReport) {
      return;
    }
    if (b == MARKER[matched]) {
      matched++;
      if (matched == MARKER.length) {
        sawReport = true;
      }
    } else {
      matched = b == MARKER[0] ? 1 : 0;
    }
  }
}
