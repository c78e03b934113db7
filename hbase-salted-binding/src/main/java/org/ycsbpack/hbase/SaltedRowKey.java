package org.ycsbpack.hbase;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * The one definition of how a YCSB key becomes an HBase row key: {@code salt ++ k}.
 *
 * <p>{@code k} is the key's UTF-8 bytes ({@link KeyEncoding#STRING}) or the number in the key
 * as 8 big-endian bytes ({@link KeyEncoding#LONG}, the comparison report's
 * {@code Bytes.toBytes(long)}).
 * The salt depends on the {@link Mode}:
 * <ul>
 *   <li>{@code crc32}: bytes [5,7) of the 8-byte big-endian CRC32 of {@code k} (the report's
 *       {@code Arrays.copyOfRange(Bytes.toBytes(crc32.getValue()), 5, 7)}), i.e. bits 23..8 of
 *       the CRC: 65,536 possible prefixes;</li>
 *   <li>{@code buckets:N}: one byte, CRC32 of {@code k} modulo N (N from 1 to 256);</li>
 *   <li>{@code none}: no prefix.</li>
 * </ul>
 * Instances are immutable and thread-safe.
 */
public final class SaltedRowKey {

  /** How keys are spread over prefixes. */
  public enum Mode { CRC32, BUCKETS, NONE }

  /** How the YCSB key is turned into bytes before salting. */
  public enum KeyEncoding { STRING, LONG }

  /** Largest N of {@code buckets:N}: the bucket is one byte. */
  public static final int MAX_BUCKETS = 256;
  private static final int CRC32_PREFIXES = 1 << 16;

  private final Mode mode;
  private final int buckets;
  private final KeyEncoding encoding;

  private SaltedRowKey(Mode mode, int buckets, KeyEncoding encoding) {
    this.mode = mode;
    this.buckets = buckets;
    this.encoding = encoding;
  }

  public static SaltedRowKey crc32(KeyEncoding encoding) {
    return new SaltedRowKey(Mode.CRC32, 0, encoding);
  }

  public static SaltedRowKey buckets(int n, KeyEncoding encoding) {
    if (n < 1 || n > MAX_BUCKETS) {
      throw new IllegalArgumentException("buckets must be from 1 to " + MAX_BUCKETS + ": " + n);
    }
    return new SaltedRowKey(Mode.BUCKETS, n, encoding);
  }

  public static SaltedRowKey none(KeyEncoding encoding) {
    return new SaltedRowKey(Mode.NONE, 0, encoding);
  }

  public Mode mode() {
    return mode;
  }

  public KeyEncoding encoding() {
    return encoding;
  }

  /** Bytes of salt in front of every row key: 2, 1 or 0. */
  public int prefixLength() {
    switch (mode) {
      case CRC32:
        return 2;
      case BUCKETS:
        return 1;
      default:
        return 0;
    }
  }

  /** Number of distinct prefixes: 65,536, N, or 1 (the empty prefix). */
  public int prefixCount() {
    switch (mode) {
      case CRC32:
        return CRC32_PREFIXES;
      case BUCKETS:
        return buckets;
      default:
        return 1;
    }
  }

  /**
   * Whether a YCSB SCAN (the first rows at or after a key, in key order) can be served: the rows
   * of a key range lie under every prefix, so a scan opens one scanner per prefix
   * ({@link BucketedScan}). Up to {@link #MAX_BUCKETS} of them is a cost a benchmark can pay;
   * crc32's 65,536 is not, and its SCANs are refused (SCAN_UNSUPPORTED). This is the one
   * definition of that rule: the client's refusal and init()'s warning use it; the salt table of
   * docs/bindings/hbase-salted.md and docs/errors.md restate it (checked by SaltScanRuleTest).
   */
  public boolean scansInKeyOrder() {
    return prefixCount() <= MAX_BUCKETS;
  }

  /** Why a SCAN is refused under this salt and what to use instead; null when it scans. */
  public String scanRefusal() {
    if (scansInKeyOrder()) {
      return null;
    }
    String prefixes = String.format(Locale.ROOT, "%,d", prefixCount());
    return "hbase.salt=" + salt() + " spreads keys over " + prefixes + " prefixes, so a scan in "
        + "key order would take " + prefixes + " scans; use hbase.salt=buckets:N (N up to "
        + MAX_BUCKETS + ") or none for workloads with scans";
  }

  /** The row key of a YCSB key. */
  public byte[] rowKey(String ycsbKey) {
    byte[] k = encode(ycsbKey);
    if (mode == Mode.NONE) {
      return k;
    }
    byte[] row = new byte[prefixLength() + k.length];
    writeSalt(k, row);
    System.arraycopy(k, 0, row, prefixLength(), k.length);
    return row;
  }

  /**
   * The row key of the list of (customId, type) (ListAppendWorkload):
   * {@code salt(customId) ++ customId ++ 0x00 ++ type}, both in UTF-8 whatever
   * {@code hbase.keyencoding} says (list keys such as {@code 172.68.1.2} are not numbers). The
   * salt is computed from customId alone, so all types of one key are neighbours in one region,
   * as they share a partition in Cassandra; the 0x00 cannot occur in UTF-8 text without a NUL
   * character, which is refused, so every row key has exactly one (customId, type).
   *
   * @throws IllegalArgumentException if customId contains the character U+0000
   */
  public byte[] listRowKey(String customId, String type) {
    if (customId.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("list key '" + customId.replace('\0', '?')
          + "' contains the character U+0000, which separates key and type in HBase row keys");
    }
    byte[] id = customId.getBytes(StandardCharsets.UTF_8);
    byte[] t = type.getBytes(StandardCharsets.UTF_8);
    byte[] row = new byte[prefixLength() + id.length + 1 + t.length];
    writeSalt(id, row);
    System.arraycopy(id, 0, row, prefixLength(), id.length);
    System.arraycopy(t, 0, row, prefixLength() + id.length + 1, t.length);
    return row;
  }

  /** The type of a row key made by {@link #listRowKey}, or null for any other row key. */
  public String listType(byte[] rowKey) {
    for (int i = prefixLength(); i < rowKey.length; i++) {
      if (rowKey[i] == 0) {
        return new String(rowKey, i + 1, rowKey.length - i - 1, StandardCharsets.UTF_8);
      }
    }
    return null;
  }

  /** Writes the salt of {@code k} into the first {@link #prefixLength()} bytes of {@code row}. */
  private void writeSalt(byte[] k, byte[] row) {
    long crc = mode == Mode.NONE ? 0 : crc32Of(k);
    if (mode == Mode.CRC32) {
      // bytes 5 and 6 of the CRC as an 8-byte big-endian long
      row[0] = (byte) (crc >>> 16);
      row[1] = (byte) (crc >>> 8);
    } else if (mode == Mode.BUCKETS) {
      row[0] = (byte) (crc % buckets);
    }
  }

  /** The first row key of a given prefix at or after the YCSB key (a bucket's scan start). */
  public byte[] rowKeyInPrefix(int prefix, String ycsbKey) {
    byte[] k = encode(ycsbKey);
    byte[] row = Arrays.copyOf(prefixBytes(prefix), prefixLength() + k.length);
    System.arraycopy(k, 0, row, prefixLength(), k.length);
    return row;
  }

  /** The prefix bytes of prefix number {@code i} (0-based, big-endian). */
  public byte[] prefixBytes(int i) {
    if (i < 0 || i >= prefixCount()) {
      throw new IllegalArgumentException("prefix " + i + " out of 0.." + (prefixCount() - 1));
    }
    byte[] p = new byte[prefixLength()];
    for (int b = p.length - 1, v = i; b >= 0; b--, v >>>= 8) {
      p[b] = (byte) v;
    }
    return p;
  }

  /** The row key without its salt: {@code k}, which orders rows as an unsalted table would. */
  public byte[] unsalted(byte[] rowKey) {
    return Arrays.copyOfRange(rowKey, prefixLength(), rowKey.length);
  }

  /**
   * Split keys that cut the prefix space into {@code regions} ranges of (near) equal width, as
   * HBase's RegionSplitter UniformSplit does over its key space; each split key is a prefix.
   *
   * @throws IllegalArgumentException if there are fewer prefixes than regions
   */
  public byte[][] splitKeys(int regions) {
    if (regions < 1 || regions > prefixCount()) {
      throw new IllegalArgumentException(regions + " regions need at least as many salt "
          + "prefixes, but there are " + prefixCount());
    }
    byte[][] keys = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      keys[i - 1] = prefixBytes((int) ((long) i * prefixCount() / regions));
    }
    return keys;
  }

  /** {@code k}: the bytes that are salted. */
  public byte[] encode(String ycsbKey) {
    if (encoding == KeyEncoding.STRING) {
      return ycsbKey.getBytes(StandardCharsets.UTF_8);
    }
    long n = numberIn(ycsbKey);
    byte[] k = new byte[8];
    for (int b = 7; b >= 0; b--, n >>>= 8) {
      k[b] = (byte) n;
    }
    return k;
  }

  /**
   * The number a YCSB key ends with ("user123" and "user000123" give 123).
   *
   * @throws IllegalArgumentException naming the key when it has no number or one too large
   */
  static long numberIn(String ycsbKey) {
    int start = ycsbKey.length();
    while (start > 0 && Character.isDigit(ycsbKey.charAt(start - 1))
        && ycsbKey.charAt(start - 1) < 128) {
      start--;
    }
    if (start == ycsbKey.length()) {
      throw new IllegalArgumentException("key '" + ycsbKey + "' does not end with a number, "
          + "which hbase.keyencoding=long needs (keys like user123); use "
          + "hbase.keyencoding=string");
    }
    try {
      return Long.parseLong(ycsbKey.substring(start));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the number in key '" + ycsbKey + "' does not fit in "
          + "a signed 64-bit long, which hbase.keyencoding=long needs; use "
          + "hbase.keyencoding=string");
    }
  }

  /** CRC32 of the bytes as an unsigned 32-bit value (java.util.zip, same as zlib.crc32). */
  static long crc32Of(byte[] k) {
    CRC32 crc = new CRC32();
    crc.update(k, 0, k.length);
    return crc.getValue();
  }

  /** The salt as its hbase.salt value: {@code crc32}, {@code buckets:N} or {@code none}. */
  public String salt() {
    return mode == Mode.BUCKETS ? "buckets:" + buckets : mode.name().toLowerCase(Locale.ROOT);
  }

  /** The mode as its property value ({@code crc32}, {@code buckets:N}, {@code none}) and keys. */
  @Override
  public String toString() {
    return salt() + " (" + encoding.name().toLowerCase(Locale.ROOT) + " keys)";
  }
}
