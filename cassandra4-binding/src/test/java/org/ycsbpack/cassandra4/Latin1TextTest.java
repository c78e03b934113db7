package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The direct byte/UTF-8 conversions against the String path they replace, every byte value. */
class Latin1TextTest {
  private static byte[] allBytes() {
    byte[] all = new byte[256];
    for (int i = 0; i < 256; i++) {
      all[i] = (byte) i;
    }
    return all;
  }

  private static byte[] array(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Test
  void encodingIsTheUtf8OfTheLatin1String() {
    byte[] all = allBytes();
    byte[] viaString = new String(all, StandardCharsets.ISO_8859_1)
        .getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(viaString, array(Latin1Text.utf8(all)));
  }

  @Test
  void asciiIsSentAsItIsWithoutACopy() {
    byte[] ascii = "user123 value".getBytes(StandardCharsets.US_ASCII);
    assertSame(ascii, Latin1Text.utf8(ascii).array());
  }

  @Test
  void decodingGivesBackEveryByteFromAnywhereInABuffer() {
    byte[] utf8 = array(Latin1Text.utf8(allBytes()));
    ByteBuffer framed = ByteBuffer.allocate(utf8.length + 6);
    framed.position(3);
    framed.put(utf8);
    framed.position(3).limit(3 + utf8.length);
    assertArrayEquals(allBytes(), Latin1Text.bytes(framed));
    assertNull(Latin1Text.bytes(null));
  }

  @Test
  void textBeyondLatin1DecodesAsTheStringPathDid() {
    String text = "a\u20ac\u00e9z";
    byte[] expected = text.getBytes(StandardCharsets.ISO_8859_1);
    assertArrayEquals(expected,
        Latin1Text.bytes(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8))));
  }
}
