package org.ycsbpack.cassandra4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

/** What cassandra.createschema asked for is what system_schema says the server holds. */
class SchemaOptionsIT {
  private final BindingUnderTest binding = new BindingUnderTest();

  @AfterEach
  void cleanup() throws DBException {
    binding.close();
  }

  @Test
  void keyspaceAndTableOptionsLandInSystemSchema() throws DBException {
    binding.client("cassandra.keyspace", "it_schema_nts", "table", "leveled_rows",
        "cassandra.createschema", "true",
        "cassandra.replication", "NetworkTopologyStrategy:datacenter1=1",
        "cassandra.compaction", "leveled", "cassandra.caching", "all",
        "cassandra.sstablecompression", "LZ4Compressor:64", "fieldcount", "5");
    try (CqlSession s = BindingUnderTest.session()) {
      Map<String, String> replication = s.execute("SELECT replication FROM "
          + "system_schema.keyspaces WHERE keyspace_name = 'it_schema_nts'").one()
          .getMap("replication", String.class, String.class);
      assertEquals("org.apache.cassandra.locator.NetworkTopologyStrategy",
          replication.get("class"));
      assertEquals("1", replication.get("datacenter1"));

      Row table = s.execute("SELECT compaction, caching, compression FROM system_schema.tables "
          + "WHERE keyspace_name = 'it_schema_nts' AND table_name = 'leveled_rows'").one();
      assertTrue(table.getMap("compaction", String.class, String.class).get("class")
          .endsWith("LeveledCompactionStrategy"));
      Map<String, String> caching = table.getMap("caching", String.class, String.class);
      assertEquals("ALL", caching.get("keys"));
      assertEquals("ALL", caching.get("rows_per_partition"));
      Map<String, String> compression = table.getMap("compression", String.class, String.class);
      assertEquals("org.apache.cassandra.io.compress.LZ4Compressor", compression.get("class"));
      assertEquals("64", compression.get("chunk_length_in_kb"));

      List<String> columns = new ArrayList<>();
      for (Row r : s.execute("SELECT column_name, type FROM system_schema.columns WHERE "
          + "keyspace_name = 'it_schema_nts' AND table_name = 'leveled_rows'")) {
        assertEquals("text", r.getString("type"));
        columns.add(r.getString("column_name"));
      }
      columns.sort(null);
      assertEquals(List.of("field0", "field1", "field2", "field3", "field4", "y_id"), columns);
    }
  }

  @Test
  void rowCacheOnlyAndUnifiedCompactionAreAvailableToo() throws DBException {
    binding.client("cassandra.keyspace", "it_schema", "table", "unified_rowcache",
        "cassandra.createschema", "true", "cassandra.compaction", "unified",
        "cassandra.caching", "rows", "cassandra.sstablecompression", "none");
    try (CqlSession s = BindingUnderTest.session()) {
      Row table = s.execute("SELECT compaction, caching, compression FROM system_schema.tables "
          + "WHERE keyspace_name = 'it_schema' AND table_name = 'unified_rowcache'").one();
      assertTrue(table.getMap("compaction", String.class, String.class).get("class")
          .endsWith("UnifiedCompactionStrategy"));
      assertEquals("NONE", table.getMap("caching", String.class, String.class).get("keys"));
      assertEquals("false", table.getMap("compression", String.class, String.class)
          .get("enabled"));
    }
  }
}
