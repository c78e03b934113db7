package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.ycsbpack.hbase.SaltedRowKey.KeyEncoding;

/**
 * The salt function against vectors computed independently of this code, with Python's zlib:
 *
 * <pre>
 *   import zlib, struct
 *   crc = zlib.crc32(k) &amp; 0xffffffff            # k = key.encode() or struct.pack('&gt;q', n)
 *   salt = struct.pack('&gt;Q', crc)[5:7]         # crc32 mode: bytes [5,7) of the 8-byte BE CRC
 *   bucket = crc % N                             # buckets:N mode
 * </pre>
 *
 * which gives, for example: "user1" crc 0x8c518555, salt 51 85, bucket 5 of 16; the long 123
 * (k = 00..00 7b) crc 0xa2f577dd, salt f5 77, bucket 13 of 16; the long 1 crc 0x1225efff, salt
 * 25 ef, bucket 255 of 256.
 */
class SaltedRowKeyTest {

  private static byte[] hex(String hex) {
    byte[] b = new byte[hex.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return b;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void crc32OfStringKeysPrependsBytesFiveAndSixOfTheCrc() {
    SaltedRowKey keys = SaltedRowKey.crc32(KeyEncoding.STRING);
    assertArrayEquals(concat(hex("5185"), utf8("user1")), keys.rowKey("user1"));
    assertArrayEquals(concat(hex("9750"), utf8("user6284781860667377211")),
        keys.rowKey("user6284781860667377211"));
    assertArrayEquals(hex("b7be61"), keys.rowKey("a"));
  }

  @Test
  void crc32OfLongKeysIsTheReportsTenByteKey() {
    SaltedRowKey keys = SaltedRowKey.crc32(KeyEncoding.LONG);
    assertArrayEquals(hex("f577" + "000000000000007b"), keys.rowKey("user123"));
    assertArrayEquals(hex("22df" + "0000000000000000"), keys.rowKey("user0"));
    assertArrayEquals(hex("7f5a" + "7fffffffffffffff"), keys.rowKey("user9223372036854775807"));
    assertEquals(10, keys.rowKey("user5").length);
  }

  @Test
  void zeroPaddedKeysEncodeTheSameNumber() {
    SaltedRowKey keys = SaltedRowKey.crc32(KeyEncoding.LONG);
    assertArrayEquals(keys.rowKey("user123"), keys.rowKey("user0000000123"));
  }

  @Test
  void bucketsPrependCrc32ModuloN() {
    assertArrayEquals(concat(hex("05"), utf8("user1")),
        SaltedRowKey.buckets(16, KeyEncoding.STRING).rowKey("user1"));
    assertArrayEquals(concat(hex("02"), utf8("user1")),
        SaltedRowKey.buckets(7, KeyEncoding.STRING).rowKey("user1"));
    assertArrayEquals(hex("0d" + "000000000000007b"),
        SaltedRowKey.buckets(16, KeyEncoding.LONG).rowKey("user123"));
    assertArrayEquals(hex("ff" + "0000000000000001"),
        SaltedRowKey.buckets(256, KeyEncoding.LONG).rowKey("user1"));
  }

  @Test
  void noneIsTheKeyItself() {
    assertArrayEquals(utf8("user1"), SaltedRowKey.none(KeyEncoding.STRING).rowKey("user1"));
    assertArrayEquals(hex("000000000000007b"),
        SaltedRowKey.none(KeyEncoding.LONG).rowKey("user123"));
  }

  @Test
  void unsaltedStripsExactlyThePrefix() {
    SaltedRowKey keys = SaltedRowKey.crc32(KeyEncoding.STRING);
    assertArrayEquals(utf8("user1"), keys.unsalted(keys.rowKey("user1")));
    SaltedRowKey buckets = SaltedRowKey.buckets(16, KeyEncoding.LONG);
    assertArrayEquals(hex("000000000000007b"), buckets.unsalted(buckets.rowKey("user123")));
  }

  @Test
  void a64RegionSplitOfTheCrc32SpaceStartsARegionEvery1024Prefixes() {
    byte[][] splits = SaltedRowKey.crc32(KeyEncoding.STRING).splitKeys(64);
    assertEquals(63, splits.length);
    for (int i = 1; i < 64; i++) {
      assertArrayEquals(new byte[] {(byte) (4 * i), 0}, splits[i - 1], "split " + i);
    }
  }

  @Test
  void bucketSplitsGiveEachRegionWholeBuckets() {
    byte[][] one = SaltedRowKey.buckets(16, KeyEncoding.STRING).splitKeys(16);
    for (int i = 1; i < 16; i++) {
      assertArrayEquals(new byte[] {(byte) i}, one[i - 1]);
    }
    byte[][] four = SaltedRowKey.buckets(16, KeyEncoding.STRING).splitKeys(4);
    assertArrayEquals(new byte[][] {{4}, {8}, {12}}, four);
    // 10 buckets in 4 regions: 0-1, 2-4, 5-6, 7-9 (floor(i * 10 / 4))
    assertArrayEquals(new byte[][] {{2}, {5}, {7}},
        SaltedRowKey.buckets(10, KeyEncoding.STRING).splitKeys(4));
  }

  @Test
  void oneRegionNeedsNoSplitKeys() {
    assertEquals(0, SaltedRowKey.none(KeyEncoding.STRING).splitKeys(1).length);
  }

  @Test
  void moreRegionsThanPrefixesIsRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> SaltedRowKey.buckets(8, KeyEncoding.STRING).splitKeys(9));
    assertThrows(IllegalArgumentException.class,
        () -> SaltedRowKey.none(KeyEncoding.STRING).splitKeys(2));
  }

  @Test
  void aBucketScanStartsAtThatBucketPlusTheKey() {
    SaltedRowKey keys = SaltedRowKey.buckets(16, KeyEncoding.STRING);
    assertArrayEquals(concat(hex("0b"), utf8("user5")), keys.rowKeyInPrefix(11, "user5"));
  }

  @Test
  void aLongKeyWithoutANumberIsRefusedNamingTheKey() {
    SaltedRowKey keys = SaltedRowKey.crc32(KeyEncoding.LONG);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> keys.rowKey("userABC"));
    assertTrue(e.getMessage().contains("key 'userABC' does not end with a number"),
        e.getMessage());
    assertTrue(e.getMessage().contains("hbase.keyencoding=string"), e.getMessage());
    IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
        () -> keys.rowKey("user9223372036854775808"));
    assertTrue(tooBig.getMessage().contains("does not fit in a signed 64-bit long"),
        tooBig.getMessage());
  }

  @Test
  void prefixCountsMatchTheModes() {
    assertEquals(65536, SaltedRowKey.crc32(KeyEncoding.STRING).prefixCount());
    assertEquals(16, SaltedRowKey.buckets(16, KeyEncoding.STRING).prefixCount());
    assertEquals(1, SaltedRowKey.none(KeyEncoding.STRING).prefixCount());
    assertThrows(IllegalArgumentException.class,
        () -> SaltedRowKey.buckets(257, KeyEncoding.STRING));
  }

  @Test
  void aListRowKeyIsTheSaltOfTheKeyThenKeyZeroByteType() {
    // zlib.crc32(b'172.68.0.1') = 0x0bac19d6: salt ac 19, bucket 6 of 16
    assertArrayEquals(concat(hex("ac19"), concat(utf8("172.68.0.1"), concat(hex("00"),
        utf8("ip")))), SaltedRowKey.crc32(KeyEncoding.LONG).listRowKey("172.68.0.1", "ip"));
    assertArrayEquals(concat(hex("06"), concat(utf8("172.68.0.1"), concat(hex("00"),
        utf8("email")))), SaltedRowKey.buckets(16, KeyEncoding.STRING)
        .listRowKey("172.68.0.1", "email"));
    SaltedRowKey none = SaltedRowKey.none(KeyEncoding.STRING);
    assertArrayEquals(concat(utf8("k"), concat(hex("00"), utf8("ip"))), none.listRowKey("k", "ip"));
  }

  @Test
  void theTypeOfAListRowKeyIsWhatFollowsTheFirstZeroByte() {
    SaltedRowKey keys = SaltedRowKey.crc32(KeyEncoding.STRING);
    assertEquals("ip", keys.listType(keys.listRowKey("172.68.0.1", "ip")));
    assertEquals("", keys.listType(keys.listRowKey("172.68.0.1", "")));
    assertEquals("a\0b", keys.listType(keys.listRowKey("x", "a\0b")));
    assertEquals(null, keys.listType(keys.rowKey("user1")));
  }

  @Test
  void aListKeyWithANulCharacterIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SaltedRowKey.crc32(KeyEncoding.STRING).listRowKey("a\0b", "ip"));
    assertTrue(e.getMessage().contains("U+0000"), e.getMessage());
  }
}
