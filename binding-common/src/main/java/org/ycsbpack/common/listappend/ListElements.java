package org.ycsbpack.common.listappend;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Keys and elements of the anti-fraud history (S1): IPv4-like keys {@code 172.68.x.y} and
 * JSON-like elements of about {@code size} bytes with the report's fields.
 */
public final class ListElements {
  /** Keys 172.(68+a).b.c: 65,536 of them stay inside 172.68.x.y as in the report. */
  public static final long MAX_KEYS = (256L - 68) * 65536;
  private static final char[] ALNUM =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

  private ListElements() {
  }

  public static String key(long n) {
    return "172." + (68 + (n >> 16)) + "." + ((n >> 8) & 255) + "." + (n & 255);
  }

  /** One element for {@code key}: every report field, padded with letters to about size bytes. */
  public static String element(String key, int size) {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    StringBuilder sb = new StringBuilder(size + 16);
    String user = "u" + r.nextInt(1_000_000);
    sb.append("{\"username\":\"").append(user)
        .append("\",\"password\":\"").append(random(r, 12))
        .append("\",\"email\":\"").append(user).append("@example.com")
        .append("\",\"phone\":\"+1").append(String.format("%010d", r.nextLong(10_000_000_000L)))
        .append("\",\"ip\":\"").append(key)
        .append("\",\"source\":\"").append(r.nextBoolean() ? "web" : "app")
        .append("\",\"company\":\"").append(random(r, 8))
        .append("\",\"address\":\"");
    int pad = Math.max(1, size - sb.length() - 2);
    sb.append(random(r, pad)).append("\"}");
    return sb.toString();
  }

  private static String random(ThreadLocalRandom r, int n) {
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = ALNUM[r.nextInt(ALNUM.length)];
    }
    return new String(c);
  }
}
