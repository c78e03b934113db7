package org.ycsbpack.hbase;

import static org.ycsbpack.hbase.HBaseProperties.BATCH_WRITE;
import static org.ycsbpack.hbase.HBaseProperties.BLOCK_ENCODING;
import static org.ycsbpack.hbase.HBaseProperties.BLOOM_FILTER;
import static org.ycsbpack.hbase.HBaseProperties.BOOTSTRAP_SERVERS;
import static org.ycsbpack.hbase.HBaseProperties.CLIENT_BUFFERING;
import static org.ycsbpack.hbase.HBaseProperties.COLUMN_FAMILY;
import static org.ycsbpack.hbase.HBaseProperties.COMPRESSION;
import static org.ycsbpack.hbase.HBaseProperties.CONNECT_TIMEOUT_MS;
import static org.ycsbpack.hbase.HBaseProperties.CREATE_TABLE;
import static org.ycsbpack.hbase.HBaseProperties.DURABILITY;
import static org.ycsbpack.hbase.HBaseProperties.KEY_ENCODING;
import static org.ycsbpack.hbase.HBaseProperties.PRESPLIT;
import static org.ycsbpack.hbase.HBaseProperties.SALT;
import static org.ycsbpack.hbase.HBaseProperties.TABLE;
import static org.ycsbpack.hbase.HBaseProperties.TMP_DIR;
import static org.ycsbpack.hbase.HBaseProperties.TTL;
import static org.ycsbpack.hbase.HBaseProperties.WRITE_BUFFER_SIZE;
import static org.ycsbpack.hbase.HBaseProperties.ZK_PORT;
import static org.ycsbpack.hbase.HBaseProperties.ZK_QUORUM;

import java.util.Locale;
import java.util.Properties;
import java.util.TreeSet;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.ycsbpack.common.PropertyValues;
import org.ycsbpack.common.SessionKey;
import site.ycsb.DBException;

/**
 * The binding's properties, parsed and validated once: a bad value fails init() with a sentence
 * naming the property, before any connection is made.
 */
final class HBaseSettings {
  /** {@code hbase.presplit=auto} for crc32: the 64 regions of the comparison report (S2). */
  static final int REPORT_REGIONS = 64;

  final Properties properties;
  final PropertyValues values;
  final TableName table;
  final byte[] family;
  final String familyName;
  final SaltedRowKey rowKeys;
  final boolean clientBuffering;
  final long writeBufferSize;
  final BatchWriteMode batchWrite;
  final Durability durability;
  final int connectTimeoutMs;
  final RpcEventLoop rpcEventLoop;
  /** Null when not set as a property: then hbase-site.xml or HBase's default applies. */
  final String zkQuorum;
  final Integer zkPort;
  final String bootstrapServers;
  final String tmpDir;
  final boolean createTable;
  final int presplit;
  final Compression.Algorithm compression;
  final DataBlockEncoding blockEncoding;
  final BloomType bloomFilter;
  final int ttlSeconds;

  HBaseSettings(Properties props) throws DBException {
    properties = props;
    values = new PropertyValues(props);
    values.requireNotBlank(ZK_QUORUM, "zk1.example.com,zk2.example.com");
    values.requireNotBlank(ZK_PORT, "2181");
    values.requireNotBlank(BOOTSTRAP_SERVERS, "rs1.example.com:16020");
    table = tableName(values.string(TABLE));
    familyName = values.string(COLUMN_FAMILY);
    if (!familyName.matches("[A-Za-z0-9_][A-Za-z0-9_.-]*")) {
      throw PropertyValues.bad(COLUMN_FAMILY, familyName, "a column family name of letters, "
          + "digits, _ . - (not starting with .)");
    }
    family = org.apache.hadoop.hbase.util.Bytes.toBytes(familyName);
    rowKeys = rowKeys(values);
    clientBuffering = values.bool(CLIENT_BUFFERING);
    writeBufferSize = values.longValue(WRITE_BUFFER_SIZE, 1024, 1L << 31);
    batchWrite = values.word(BATCH_WRITE, BatchWriteMode.class);
    durability = values.enumValue(DURABILITY, Durability.class);
    connectTimeoutMs = values.integer(CONNECT_TIMEOUT_MS, 100, 3_600_000);
    rpcEventLoop = RpcEventLoop.of(values);
    zkQuorum = values.isSet(ZK_QUORUM) ? values.string(ZK_QUORUM) : null;
    zkPort = values.isSet(ZK_PORT) ? values.integer(ZK_PORT, 1, 65535) : null;
    bootstrapServers = values.string(BOOTSTRAP_SERVERS);
    tmpDir = expand(values.string(TMP_DIR));
    createTable = values.bool(CREATE_TABLE);
    presplit = presplit(values, rowKeys);
    compression = values.enumValue(COMPRESSION, Compression.Algorithm.class);
    blockEncoding = values.enumValue(BLOCK_ENCODING, DataBlockEncoding.class);
    bloomFilter = BloomType.valueOf(values.choice(BLOOM_FILTER, "NONE", "ROW", "ROWCOL"));
    ttlSeconds = ttl(values);
  }

  /**
   * What decides the HBase Connection: the properties that are not per client (the cluster
   * settings) and every HBase client setting passed through. Clients with equal keys share one
   * Connection per JVM.
   */
  String connectionKey() {
    StringBuilder sb = new StringBuilder(SessionKey.of(HBaseProperties.ALL, values));
    for (String name : new TreeSet<>(properties.stringPropertyNames())) {
      if (HBaseClientSettings.isClientSetting(name)) {
        sb.append(name).append('=').append(properties.getProperty(name)).append('\n');
      }
    }
    return sb.toString();
  }

  private static TableName tableName(String name) throws DBException {
    try {
      return TableName.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw PropertyValues.bad(TABLE, name, "an HBase table name, `name` or `namespace:name` "
          + "(" + e.getMessage() + ")");
    }
  }

  /** {@code hbase.salt} and {@code hbase.keyencoding} into the one row-key function. */
  static SaltedRowKey rowKeys(PropertyValues values) throws DBException {
    SaltedRowKey.KeyEncoding encoding = values.enumValue(KEY_ENCODING,
        SaltedRowKey.KeyEncoding.class);
    String salt = values.string(SALT).toLowerCase(Locale.ROOT);
    String expected = "crc32, buckets:N with N from 1 to " + SaltedRowKey.MAX_BUCKETS
        + ", or none";
    if (salt.equals("crc32")) {
      return SaltedRowKey.crc32(encoding);
    }
    if (salt.equals("none")) {
      return SaltedRowKey.none(encoding);
    }
    if (salt.startsWith("buckets:")) {
      try {
        int n = Integer.parseInt(salt.substring("buckets:".length()).trim());
        if (n >= 1 && n <= SaltedRowKey.MAX_BUCKETS) {
          return SaltedRowKey.buckets(n, encoding);
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw PropertyValues.bad(SALT, values.string(SALT), expected);
  }

  private static int presplit(PropertyValues values, SaltedRowKey rowKeys) throws DBException {
    int prefixes = rowKeys.prefixCount();
    if ("auto".equalsIgnoreCase(values.string(PRESPLIT))) {
      return Math.min(prefixes, REPORT_REGIONS);
    }
    if (rowKeys.mode() == SaltedRowKey.Mode.NONE && !"1".equals(values.string(PRESPLIT))) {
      throw PropertyValues.bad(PRESPLIT, values.string(PRESPLIT), "1 or auto with hbase.salt="
          + "none: unsalted keys have no prefix to split uniformly on");
    }
    try {
      int n = Integer.parseInt(values.string(PRESPLIT));
      if (n >= 1 && n <= prefixes) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw PropertyValues.bad(PRESPLIT, values.string(PRESPLIT), "auto or a number of regions "
        + "from 1 to " + prefixes + ", the number of salt prefixes of hbase.salt="
        + values.string(SALT));
  }

  private static int ttl(PropertyValues values) throws DBException {
    String v = values.string(TTL);
    if ("FOREVER".equalsIgnoreCase(v)) {
      return HConstants.FOREVER;
    }
    try {
      int seconds = Integer.parseInt(v);
      if (seconds >= 1) {
        return seconds;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw PropertyValues.bad(TTL, v, "FOREVER or a number of seconds from 1 to "
        + Integer.MAX_VALUE);
  }

  /** Expands {@code ${name}} from Java system properties (the default names two of them). */
  static String expand(String value) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < value.length()) {
      int open = value.indexOf("${", i);
      int close = open < 0 ? -1 : value.indexOf('}', open);
      if (close < 0) {
        out.append(value.substring(i));
        break;
      }
      out.append(value, i, open);
      String name = value.substring(open + 2, close);
      out.append(System.getProperty(name, ""));
      i = close + 1;
    }
    return out.toString();
  }
}
