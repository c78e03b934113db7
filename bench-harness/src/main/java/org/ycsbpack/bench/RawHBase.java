package org.ycsbpack.bench;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

/**
 * The raw hbase-client loop: one Connection, a Table per thread, a Get of the family and a Put
 * of one column, row key = the YCSB key in UTF-8 (hbase-salted with {@code hbase.salt=none}),
 * with HBase's default client configuration.
 */
final class RawHBase implements RawClient {
  private static final byte[] FAMILY = "cf".getBytes(StandardCharsets.UTF_8);

  private final Connection connection;
  private final TableName tableName;
  private final byte[][] qualifiers;
  private final Table table;

  RawHBase(String quorum, int zkPort, String table, int fieldCount) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", quorum);
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
    conf.set("hbase.tmp.dir", System.getProperty("java.io.tmpdir") + "/ycsb-hbase-client-"
        + System.getProperty("user.name"));
    connection = ConnectionFactory.createConnection(conf);
    tableName = TableName.valueOf(table);
    qualifiers = new byte[fieldCount][];
    for (int i = 0; i < fieldCount; i++) {
      qualifiers[i] = ("field" + i).getBytes(StandardCharsets.UTF_8);
    }
    this.table = null;
  }

  private RawHBase(RawHBase shared) throws Exception {
    connection = shared.connection;
    tableName = shared.tableName;
    qualifiers = shared.qualifiers;
    table = connection.getTable(tableName);
  }

  @Override
  public boolean read(String key) throws Exception {
    Result row = table.get(new Get(key.getBytes(StandardCharsets.UTF_8)).addFamily(FAMILY));
    if (row.isEmpty()) {
      return false;
    }
    for (Cell cell : row.rawCells()) {
      new String(CellUtil.cloneQualifier(cell), StandardCharsets.UTF_8);
      CellUtil.cloneValue(cell);
    }
    return true;
  }

  @Override
  public void update(String key, int field, byte[] value) throws Exception {
    table.put(new Put(key.getBytes(StandardCharsets.UTF_8)).addColumn(FAMILY, qualifiers[field],
        value));
  }

  @Override
  public RawClient forThread() throws Exception {
    return new RawHBase(this);
  }

  @Override
  public void close() throws Exception {
    if (table != null) {
      table.close();
    } else {
      connection.close();
    }
  }
}
