package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.PropertyValues;
import site.ycsb.DBException;

class CassandraSettingsTest {
  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  private static String rejection(String... kv) {
    return assertThrows(DBException.class, () -> new CassandraSettings(props(kv))).getMessage();
  }

  @Test
  void defaultsAreTheDocumentedOnes() throws DBException {
    CassandraSettings s = new CassandraSettings(new Properties());
    assertEquals("127.0.0.1", s.contactPoints.get(0).getHostString());
    assertEquals(9042, s.contactPoints.get(0).getPort());
    assertEquals("datacenter1", s.localDc);
    assertEquals("ycsb", s.keyspace);
    assertEquals("usertable", s.table);
    assertEquals(DefaultConsistencyLevel.ONE, s.readCl);
    assertEquals(DefaultConsistencyLevel.ONE, s.writeCl);
    assertEquals(2000, s.requestTimeoutMs);
    assertEquals(1, s.localConnections);
    assertEquals(1, s.remoteConnections);
    assertEquals(10, s.fieldCount);
  }

  @Test
  void consistencyLevelsAreReadPerOperationKind() throws DBException {
    CassandraSettings s = new CassandraSettings(props(
        "cassandra.readconsistencylevel", "local_quorum",
        "cassandra.writeconsistencylevel", "ALL",
        "cassandra.scanconsistencylevel", "local-one"));
    assertEquals(DefaultConsistencyLevel.LOCAL_QUORUM, s.readCl);
    assertEquals(DefaultConsistencyLevel.ALL, s.writeCl);
    assertEquals(DefaultConsistencyLevel.LOCAL_ONE, s.scanCl);
  }

  @Test
  void hostsMayCarryTheirOwnPort() throws DBException {
    CassandraSettings s = new CassandraSettings(props("hosts", "127.0.0.1:9142, 127.0.0.2",
        "port", "9043"));
    assertEquals(9142, s.contactPoints.get(0).getPort());
    assertEquals(9043, s.contactPoints.get(1).getPort());
  }

  @Test
  void connectionsPerHostTakesLocalAndRemoteSizes() throws DBException {
    CassandraSettings s = new CassandraSettings(props("cassandra.connectionsperhost", "8,2"));
    assertEquals(8, s.localConnections);
    assertEquals(2, s.remoteConnections);
  }

  @Test
  void anUnknownConsistencyLevelIsRejectedWithTheAcceptedValues() {
    String m = rejection("cassandra.writeconsistencylevel", "MOST");
    assertTrue(m.startsWith("property cassandra.writeconsistencylevel='MOST' is not valid"), m);
    assertTrue(m.contains("LOCAL_QUORUM"), m);
  }

  @Test
  void badValuesNameTheirProperty() {
    assertTrue(rejection("port", "ninety").startsWith("property port='ninety'"));
    assertTrue(rejection("cassandra.compression", "zstd").contains("one of none, lz4"));
    assertTrue(rejection("cassandra.createschema", "yes").contains("true or false"));
    assertTrue(rejection("cassandra.connectionsperhost", "8,2,1")
        .startsWith("property cassandra.connectionsperhost='8,2,1'"));
    assertTrue(rejection("cassandra.compaction", "tiered")
        .contains("size-tiered, leveled, unified"));
    assertTrue(rejection("cassandra.caching", "everything").contains("keys, rows, all, none"));
    assertTrue(rejection("cassandra.sstablecompression", "LZ4Compressor:3")
        .contains("chunk KB a power of two"));
    assertTrue(rejection("cassandra.sstablecompression", "Brotli").contains("LZ4Compressor"));
    assertTrue(rejection("cassandra.keyspace", "my-ks").contains("not a valid CQL name"));
    assertTrue(rejection("hosts", "127.0.0.1:99999").contains("no valid port"));
    assertTrue(rejection("hosts", " , ").contains("property hosts is empty"));
    assertTrue(rejection("cassandra.username", "bob").contains("cassandra.password is not"));
    assertTrue(rejection("cassandra.driverconfig", "/nonexistent/application.conf")
        .contains("no such file"));
  }

  @Test
  void anUnresolvableHostIsNamed() {
    String m = rejection("hosts", "no-such-host.invalid");
    assertTrue(m.contains("host 'no-such-host.invalid' does not resolve"), m);
  }

  @Test
  void tableOptionsRenderTheReportsVariants() throws DBException {
    CassandraSettings s = new CassandraSettings(props("cassandra.compaction", "leveled",
        "cassandra.caching", "all", "cassandra.sstablecompression", "LZ4Compressor:64"));
    assertEquals("compaction = {'class': 'LeveledCompactionStrategy'} AND caching = "
        + "{'keys': 'ALL', 'rows_per_partition': 'ALL'} AND compression = "
        + "{'class': 'LZ4Compressor', 'chunk_length_in_kb': '64'}", s.tableOptions.cql());
  }

  @Test
  void aCreatedTableHasOneTextColumnPerField() throws DBException {
    CassandraSettings s = new CassandraSettings(props("fieldcount", "3",
        "cassandra.sstablecompression", "none", "cassandra.caching", "rows"));
    assertEquals("CREATE TABLE IF NOT EXISTS ycsb.usertable (y_id text PRIMARY KEY, "
        + "\"field0\" text, \"field1\" text, \"field2\" text) WITH compaction = "
        + "{'class': 'SizeTieredCompactionStrategy'} AND caching = "
        + "{'keys': 'NONE', 'rows_per_partition': 'ALL'} AND compression = {'enabled': 'false'}",
        SchemaCreator.tableCql(s));
  }

  @Test
  void batchModesAreWordsOfTheirOwnType() throws DBException {
    CassandraSettings s = new CassandraSettings(props("cassandra.batchread", "ASYNC",
        "cassandra.batchwrite", "logged"));
    assertEquals(BatchReadMode.ASYNC, s.batchRead);
    assertEquals(BatchWriteMode.LOGGED, s.batchWrite);
    assertEquals(BatchReadMode.IN, new CassandraSettings(new Properties()).batchRead);
    assertEquals(BatchWriteMode.UNLOGGED, new CassandraSettings(new Properties()).batchWrite);
    assertEquals("property cassandra.batchwrite='counter' is not valid: expected one of "
        + "unlogged, logged, async (default: unlogged)",
        rejection("cassandra.batchwrite", "counter"));
    assertEquals("property cassandra.batchread='multi' is not valid: expected one of in, async "
        + "(default: in)", rejection("cassandra.batchread", "multi"));
  }

  @Test
  void theBatchModePropertiesDocumentEveryMode() {
    for (BatchReadMode m : BatchReadMode.values()) {
      assertTrue(CassandraProperties.BATCH_READ.description().contains(
          "`" + PropertyValues.wordOf(m) + "`"), m.name());
    }
    for (BatchWriteMode m : BatchWriteMode.values()) {
      assertTrue(CassandraProperties.BATCH_WRITE.description().contains(
          "`" + PropertyValues.wordOf(m) + "`"), m.name());
    }
  }

  @Test
  void clientsThatDifferOnlyInPerOperationSettingsShareOneSession() throws DBException {
    String key = new CassandraSettings(props("cassandra.keyspace", "ks1")).connectionKey();
    for (String[] perClient : new String[][] {{"cassandra.readconsistencylevel", "ALL"},
        {"cassandra.writeconsistencylevel", "QUORUM"}, {"cassandra.scanconsistencylevel", "TWO"},
        {"cassandra.scanpagesize", "10"}, {"cassandra.batchread", "async"},
        {"cassandra.batchwrite", "logged"}}) {
      assertEquals(key, new CassandraSettings(props("cassandra.keyspace", "ks1", perClient[0],
          perClient[1])).connectionKey(), perClient[0]);
    }
  }

  @Test
  void clientsThatDifferInClusterOrSchemaSettingsGetSessionsOfTheirOwn() throws DBException {
    String key = new CassandraSettings(new Properties()).connectionKey();
    for (String[] own : new String[][] {{"cassandra.keyspace", "ks2"}, {"hosts", "127.0.0.2"},
        {"cassandra.requesttimeoutms", "10000"}, {"table", "t2"},
        {"cassandra.createschema", "true"}}) {
      assertNotEquals(key, new CassandraSettings(props(own[0], own[1])).connectionKey(), own[0]);
    }
  }
}
