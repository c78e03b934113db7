package org.ycsbpack.hbase;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/**
 * An HBase process's info server (its web UI's HTTP port): the {@code /conf} and {@code /jmx}
 * servlets the server probe reads.
 */
final class InfoServer {
  private static final int TIMEOUT_MS = 5000;

  final String host;
  final int port;

  InfoServer(String host, int port) {
    this.host = host;
    this.port = port;
  }

  /** The info server at {@code where} ("http://host:port", as {@link #where()} says it). */
  static InfoServer at(String where) {
    String hostPort = where.replaceFirst("^http://", "");
    int colon = hostPort.lastIndexOf(':');
    if (colon < 1) {
      throw new IllegalArgumentException("not an info server's address: " + where);
    }
    return new InfoServer(hostPort.substring(0, colon),
        Integer.parseInt(hostPort.substring(colon + 1)));
  }

  String where() {
    return "http://" + host + ":" + port;
  }

  /** The body of {@code path} (e.g. "/conf?format=json"); an IOException when not 200. */
  String get(String path) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(where() + path).openConnection();
    c.setConnectTimeout(TIMEOUT_MS);
    c.setReadTimeout(TIMEOUT_MS);
    try {
      int status = c.getResponseCode();
      if (status != 200) {
        throw new IOException(where() + path + " answered HTTP " + status);
      }
      try (InputStream in = c.getInputStream()) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
          out.write(buffer, 0, n);
        }
        return out.toString(StandardCharsets.UTF_8.name());
      }
    } finally {
      c.disconnect();
    }
  }
}
