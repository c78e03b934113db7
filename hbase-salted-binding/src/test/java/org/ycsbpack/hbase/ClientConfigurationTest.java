package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.PropertyValues;
import site.ycsb.DBException;

/** How YCSB properties become the HBase client's Configuration (no server needed). */
class ClientConfigurationTest {
  private static HBaseSettings settings(String... kv) throws DBException {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return new HBaseSettings(p);
  }

  @Test
  void withoutPropertiesHBasesDefaultsApply() throws DBException {
    Configuration conf = HBaseConnection.configuration(settings());
    assertEquals("127.0.0.1", conf.get("hbase.zookeeper.quorum"));
    assertEquals("2181", conf.get("hbase.zookeeper.property.clientPort"));
    assertNull(conf.get("hbase.client.bootstrap.servers"));
  }

  @Test
  void theClusterPropertiesAreApplied() throws DBException {
    Configuration conf = HBaseConnection.configuration(settings(
        "hbase.zookeeper.quorum", "zk1,zk2", "hbase.zookeeper.property.clientPort", "2281"));
    assertEquals("zk1,zk2", conf.get("hbase.zookeeper.quorum"));
    assertEquals(2281, conf.getInt("hbase.zookeeper.property.clientPort", 0));
    assertEquals("ZooKeeper zk1,zk2:2281 (properties hbase.zookeeper.quorum, "
        + "hbase.zookeeper.property.clientPort)", HBaseConnection.where(conf));
  }

  @Test
  void bootstrapServersSelectTheRpcRegistry() throws DBException {
    Configuration conf = HBaseConnection.configuration(settings(
        "hbase.client.bootstrap.servers", "rs1:16020,rs2:16020"));
    assertEquals("org.apache.hadoop.hbase.client.RpcConnectionRegistry",
        conf.get("hbase.client.registry.impl"));
    assertEquals("bootstrap servers rs1:16020,rs2:16020 (property "
        + "hbase.client.bootstrap.servers)", HBaseConnection.where(conf));
  }

  @Test
  void otherHBaseSettingsPassThroughButBindingPropertiesDoNot() throws DBException {
    Configuration conf = HBaseConnection.configuration(settings(
        "hbase.rpc.timeout", "1234", "zookeeper.recovery.retry", "1", "hbase.salt", "none",
        "recordcount", "10"));
    assertEquals(1234, conf.getInt("hbase.rpc.timeout", 0));
    assertEquals(1, conf.getInt("zookeeper.recovery.retry", 0));
    assertNull(conf.get("hbase.salt"));
    assertNull(conf.get("recordcount"));
  }

  @Test
  void theClientNeverUsesHBasesDefaultTmpDir() throws DBException {
    Configuration conf = HBaseConnection.configuration(settings());
    String tmp = conf.get("hbase.tmp.dir");
    assertEquals(System.getProperty("java.io.tmpdir") + "/ycsb-hbase-client-"
        + System.getProperty("user.name"), tmp);
    assertNotEquals(System.getProperty("java.io.tmpdir") + "/hbase-"
        + System.getProperty("user.name"), tmp);
    assertEquals(tmp + "/local/", conf.get("hbase.local.dir"));
  }

  @Test
  void clientsWithTheSameClusterSettingsShareAConnection() throws DBException {
    assertEquals(settings("table", "a").connectionKey(),
        settings("table", "b", "hbase.salt", "none").connectionKey());
    assertNotEquals(settings().connectionKey(),
        settings("hbase.client.retries.number", "2").connectionKey());
  }

  @Test
  void onlyTheClusterSettingsAndPassedThroughClientSettingsDecideTheConnection()
      throws DBException {
    String key = settings().connectionKey();
    for (String[] perClient : new String[][] {{"hbase.salt", "none"},
        {"hbase.batchwrite", "mutator"}, {"hbase.clientbuffering", "true"},
        {"hbase.durability", "SKIP_WAL"}, {"columnfamily", "data"}, {"hbase.createtable", "true"},
        {"hbase.presplit", "8"}, {"hbase.ttl", "60"}}) {
      assertEquals(key, settings(perClient).connectionKey(), perClient[0]);
    }
    for (String[] cluster : new String[][] {{"hbase.zookeeper.quorum", "zk9"},
        {"hbase.zookeeper.property.clientPort", "2182"}, {"hbase.tmp.dir", "/tmp/elsewhere"},
        {"hbase.connecttimeoutms", "5000"}, {"hbase.client.bootstrap.servers", "rs:16020"},
        {"zookeeper.recovery.retry", "1"}}) {
      assertNotEquals(key, settings(cluster).connectionKey(), cluster[0]);
    }
  }

  @Test
  void theBatchWritePropertyDocumentsEveryMode() {
    for (BatchWriteMode m : BatchWriteMode.values()) {
      org.junit.jupiter.api.Assertions.assertTrue(HBaseProperties.BATCH_WRITE.description()
          .contains("`" + PropertyValues.wordOf(m) + "`"), m.name());
    }
  }

  @Test
  void theBatchWriteModeIsAWordOfItsOwnType() throws DBException {
    assertEquals(BatchWriteMode.BATCH, settings().batchWrite);
    assertEquals(BatchWriteMode.MUTATOR, settings("hbase.batchwrite", "Mutator").batchWrite);
    DBException e = org.junit.jupiter.api.Assertions.assertThrows(DBException.class,
        () -> settings("hbase.batchwrite", "buffered"));
    assertEquals("property hbase.batchwrite='buffered' is not valid: expected one of batch, "
        + "mutator (default: batch)", e.getMessage());
  }
}
