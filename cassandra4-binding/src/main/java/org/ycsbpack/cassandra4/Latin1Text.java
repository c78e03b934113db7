package org.ycsbpack.cassandra4;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Field bytes to and from the UTF-8 of a {@code text} column, where each byte is stored as the
 * ISO-8859-1 character of the same code (see {@link CassandraRows}). Direct conversion between
 * the bytes and the column's serialized form, instead of through a java.lang.String that the
 * driver then encodes or decodes again: the same bytes on the wire, one copy instead of three
 * per value on the hot path. Bytes below 0x80 (all that YCSB's generators write) are their own
 * UTF-8; 0x80-0xFF take two bytes, 0xC2 or 0xC3 then a continuation byte.
 */
final class Latin1Text {
  private Latin1Text() {
  }

  /** The serialized text value of these bytes: the UTF-8 of their ISO-8859-1 characters. */
  static ByteBuffer utf8(byte[] bytes) {
    int high = 0;
    for (byte b : bytes) {
      if (b < 0) {
        high++;
      }
    }
    if (high == 0) {
      return ByteBuffer.wrap(bytes);
    }
    byte[] out = new byte[bytes.length + high];
    int j = 0;
    for (byte b : bytes) {
      if (b >= 0) {
        out[j++] = b;
      } else {
        int c = b & 0xFF;
        out[j++] = (byte) (0xC0 | (c >>> 6));
        out[j++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return ByteBuffer.wrap(out);
  }

  /**
   * The bytes of a serialized text value (null for null). A value with characters above U+00FF
   * (not written by this binding) is decoded as String.getBytes(ISO_8859_1) would, as '?'.
   */
  static byte[] bytes(ByteBuffer utf8) {
    if (utf8 == null) {
      return null;
    }
    int start = utf8.position();
    int end = utf8.limit();
    byte[] out = new byte[end - start];
    int j = 0;
    for (int i = start; i < end; i++) {
      byte b = utf8.get(i);
      if (b >= 0) {
        out[j++] = b;
      } else if ((b & 0xFE) == 0xC2 && i + 1 < end && (utf8.get(i + 1) & 0xC0) == 0x80) {
        out[j++] = (byte) (((b & 0x03) << 6) | (utf8.get(++i) & 0x3F));
      } else {
        byte[] raw = new byte[end - start];
        utf8.duplicate().get(raw);
        return new String(raw, StandardCharsets.UTF_8).getBytes(StandardCharsets.ISO_8859_1);
      }
    }
    return j == out.length ? out : Arrays.copyOf(out, j);
  }
}
