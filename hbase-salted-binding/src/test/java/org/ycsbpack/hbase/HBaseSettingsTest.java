package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class HBaseSettingsTest {
  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  private static String rejection(String... kv) {
    return assertThrows(DBException.class, () -> new HBaseSettings(props(kv))).getMessage();
  }

  @Test
  void defaultsAreTheDocumentedOnes() throws DBException {
    HBaseSettings s = new HBaseSettings(new Properties());
    assertEquals("usertable", s.table.getNameAsString());
    assertEquals("cf", s.familyName);
    assertEquals(SaltedRowKey.Mode.CRC32, s.rowKeys.mode());
    assertEquals(SaltedRowKey.KeyEncoding.STRING, s.rowKeys.encoding());
    assertFalse(s.clientBuffering);
    assertEquals(2097152, s.writeBufferSize);
    assertEquals(Durability.USE_DEFAULT, s.durability);
    assertFalse(s.createTable);
    assertEquals(64, s.presplit);
    assertEquals(Compression.Algorithm.NONE, s.compression);
    assertEquals(DataBlockEncoding.NONE, s.blockEncoding);
    assertEquals(BloomType.ROW, s.bloomFilter);
    assertEquals(HConstants.FOREVER, s.ttlSeconds);
    assertEquals(30000, s.connectTimeoutMs);
    assertNull(s.zkQuorum, "unset: hbase-site.xml or HBase's default applies");
    assertNull(s.zkPort);
    assertEquals(System.getProperty("java.io.tmpdir") + "/ycsb-hbase-client-"
        + System.getProperty("user.name"), s.tmpDir);
  }

  @Test
  void theReportsTableParses() throws DBException {
    HBaseSettings s = new HBaseSettings(props("table", "ns:t1", "hbase.keyencoding", "long",
        "hbase.presplit", "64", "hbase.compression", "gz", "hbase.blockencoding", "fast_diff",
        "hbase.durability", "skip-wal", "hbase.ttl", "86400"));
    assertEquals("ns", s.table.getNamespaceAsString());
    assertEquals(SaltedRowKey.KeyEncoding.LONG, s.rowKeys.encoding());
    assertEquals(Compression.Algorithm.GZ, s.compression);
    assertEquals(DataBlockEncoding.FAST_DIFF, s.blockEncoding);
    assertEquals(Durability.SKIP_WAL, s.durability);
    assertEquals(86400, s.ttlSeconds);
  }

  @Test
  void autoPresplitFollowsTheSaltMode() throws DBException {
    assertEquals(16, new HBaseSettings(props("hbase.salt", "buckets:16")).presplit);
    assertEquals(64, new HBaseSettings(props("hbase.salt", "buckets:200")).presplit);
    assertEquals(1, new HBaseSettings(props("hbase.salt", "none")).presplit);
  }

  @Test
  void anUnknownSaltModeListsTheAcceptedOnes() {
    assertEquals("property hbase.salt='md5' is not valid: expected crc32, buckets:N with N from "
        + "1 to 256, or none (default: crc32)", rejection("hbase.salt", "md5"));
  }

  @Test
  void bucketCountsOutsideOneTo256AreRefused() {
    assertTrue(rejection("hbase.salt", "buckets:300").startsWith(
        "property hbase.salt='buckets:300' is not valid: expected crc32, buckets:N with N from 1 "
            + "to 256"));
    assertTrue(rejection("hbase.salt", "buckets:0").contains("'buckets:0' is not valid"));
    assertTrue(rejection("hbase.salt", "buckets:x").contains("'buckets:x' is not valid"));
  }

  @Test
  void anUnknownCodecListsHBasesCodecs() {
    String m = rejection("hbase.compression", "zip");
    assertTrue(m.startsWith("property hbase.compression='zip' is not valid: expected one of "),
        m);
    assertTrue(m.contains("GZ") && m.contains("SNAPPY") && m.contains("ZSTD"), m);
  }

  @Test
  void moreRegionsThanBucketsIsRefused() {
    String m = rejection("hbase.salt", "buckets:16", "hbase.presplit", "64");
    assertTrue(m.contains("property hbase.presplit='64' is not valid: expected auto or a number "
        + "of regions from 1 to 16"), m);
  }

  @Test
  void unsaltedKeysCannotBePresplit() {
    String m = rejection("hbase.salt", "none", "hbase.presplit", "8");
    assertTrue(m.contains("unsalted keys have no prefix to split uniformly on"), m);
  }

  @Test
  void otherBadValuesNameTheirProperty() {
    assertTrue(rejection("hbase.keyencoding", "int").startsWith(
        "property hbase.keyencoding='int' is not valid: expected one of STRING, LONG"));
    assertTrue(rejection("hbase.durability", "never").startsWith(
        "property hbase.durability='never' is not valid"));
    assertTrue(rejection("hbase.bloomfilter", "ROWPREFIX").startsWith(
        "property hbase.bloomfilter='ROWPREFIX' is not valid: expected one of NONE, ROW, ROWCOL"));
    assertTrue(rejection("hbase.ttl", "-5").contains("expected FOREVER or a number of seconds"));
    assertTrue(rejection("hbase.clientbuffering", "yes").contains("expected true or false"));
    assertTrue(rejection("table", "bad table").startsWith("property table='bad table' is not "
        + "valid: expected an HBase table name"));
    assertTrue(rejection("columnfamily", "a:b").startsWith(
        "property columnfamily='a:b' is not valid"));
    assertTrue(rejection("hbase.zookeeper.property.clientPort", "zk").startsWith(
        "property hbase.zookeeper.property.clientPort='zk' is not valid"));
  }

  @Test
  void theTmpDirDefaultExpandsJavaSystemProperties() {
    assertEquals(System.getProperty("user.name") + "/x",
        HBaseSettings.expand("${user.name}/x"));
    assertEquals("no variables", HBaseSettings.expand("no variables"));
  }
}
