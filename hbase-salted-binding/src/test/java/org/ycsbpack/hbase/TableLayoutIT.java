package org.ycsbpack.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.ycsbpack.common.testing.YcsbProcess;

/**
 * Tables created by the binding, inspected through Admin: the report's layout (64 regions over
 * the salt space, GZ, FAST_DIFF, one version) and how 10,000 YCSB keys spread over the regions.
 */
class TableLayoutIT {

  private static YcsbProcess load(String table, String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of("load", "hbase-salted",
        "-p", "workload=site.ycsb.workloads.CoreWorkload", "-p", "recordcount=10000",
        "-p", "fieldcount=1", "-p", "fieldlength=10", "-p", "table=" + table,
        "-p", "hbase.createtable=true", "-p", "hbase.clientbuffering=true", "-threads", "4"));
    args.addAll(List.of(LocalHBase.ycsbArgs()));
    args.addAll(List.of(more));
    YcsbProcess p = YcsbProcess.run(args.toArray(new String[0]));
    assertEquals(0, p.exitStatus, p.toString());
    assertEquals("10000", p.reportValue("INSERT", "Return=BATCHED_OK"), p.toString());
    return p;
  }

  /** Rows per region, counted with a scan over each region's key range. */
  private static List<Integer> rowsPerRegion(Connection c, TableName name) throws Exception {
    List<Integer> counts = new ArrayList<>();
    try (Admin admin = c.getAdmin(); Table table = c.getTable(name)) {
      for (RegionInfo region : admin.getRegions(name)) {
        Scan scan = new Scan().withStartRow(region.getStartKey())
            .withStopRow(region.getEndKey()).setFilter(new FirstKeyOnlyFilter()).setCaching(1000);
        int n = 0;
        try (ResultScanner rows = table.getScanner(scan)) {
          for (Result r = rows.next(); r != null; r = rows.next()) {
            n++;
          }
        }
        counts.add(n);
      }
    }
    return counts;
  }

  private static double maxOverMin(List<Integer> counts) {
    int max = counts.stream().mapToInt(Integer::intValue).max().getAsInt();
    int min = counts.stream().mapToInt(Integer::intValue).min().getAsInt();
    return min == 0 ? Double.POSITIVE_INFINITY : (double) max / min;
  }

  @Test
  void theReportsTableHas64RegionsGzFastDiffAndOneVersion() throws Exception {
    load("it_layout_report", "-p", "hbase.keyencoding=long", "-p", "insertorder=ordered",
        "-p", "hbase.presplit=64", "-p", "hbase.compression=GZ",
        "-p", "hbase.blockencoding=FAST_DIFF");
    TableName name = TableName.valueOf("it_layout_report");
    try (Connection c = LocalHBase.rawConnection(); Admin admin = c.getAdmin()) {
      List<RegionInfo> regions = admin.getRegions(name);
      assertEquals(64, regions.size());
      ColumnFamilyDescriptor family =
          admin.getDescriptor(name).getColumnFamily(Bytes.toBytes("cf"));
      assertEquals(Compression.Algorithm.GZ, family.getCompressionType());
      assertEquals(DataBlockEncoding.FAST_DIFF, family.getDataBlockEncoding());
      assertEquals(BloomType.ROW, family.getBloomFilterType());
      assertEquals(1, family.getMaxVersions());
      assertEquals(HConstants.FOREVER, family.getTimeToLive());

      List<Integer> counts = rowsPerRegion(c, name);
      assertEquals(10000, counts.stream().mapToInt(Integer::intValue).sum());
      double ratio = maxOverMin(counts);
      System.out.printf("report layout (crc32, long keys 0..9999): rows per region %s, "
          + "max/min %.3f%n", counts, ratio);
      assertTrue(ratio < 1.5, "max/min rows per region " + ratio + ": " + counts);
    }
  }

  @Test
  void hashedYcsbKeysSpreadEvenlyOver64Regions() throws Exception {
    load("it_layout_hashed", "-p", "hbase.ttl=86400");
    TableName name = TableName.valueOf("it_layout_hashed");
    try (Connection c = LocalHBase.rawConnection(); Admin admin = c.getAdmin()) {
      assertEquals(86400,
          admin.getDescriptor(name).getColumnFamily(Bytes.toBytes("cf")).getTimeToLive());
      List<Integer> counts = rowsPerRegion(c, name);
      assertEquals(64, counts.size());
      assertEquals(10000, counts.stream().mapToInt(Integer::intValue).sum());
      double ratio = maxOverMin(counts);
      System.out.printf("default layout (crc32, hashed string keys): rows per region %s, "
          + "max/min %.3f%n", counts, ratio);
      assertTrue(ratio < 1.5, "max/min rows per region " + ratio + ": " + counts);
    }
  }

  @Test
  void eachOf16BucketRegionsHoldsExactlyOneBucket() throws Exception {
    BindingUnderTest binding = new BindingUnderTest();
    try {
      HBaseSaltedClient client = binding.client("table", "it_layout_b16",
          "hbase.salt", "buckets:16", "hbase.createtable", "true", "hbase.bloomfilter", "ROWCOL");
      for (int i = 0; i < 400; i++) {
        client.insert("it_layout_b16", "user" + i, java.util.Collections.singletonMap("field0",
            new site.ycsb.StringByteIterator("v" + i)));
      }
    } finally {
      binding.close();
    }
    TableName name = TableName.valueOf("it_layout_b16");
    try (Connection c = LocalHBase.rawConnection(); Admin admin = c.getAdmin();
         Table table = c.getTable(name)) {
      assertEquals(BloomType.ROWCOL,
          admin.getDescriptor(name).getColumnFamily(Bytes.toBytes("cf")).getBloomFilterType());
      List<RegionInfo> regions = admin.getRegions(name);
      assertEquals(16, regions.size());
      for (RegionInfo region : regions) {
        try (ResultScanner rows = table.getScanner(new Scan().withStartRow(region.getStartKey())
            .withStopRow(region.getEndKey()))) {
          int expectedBucket = region.getStartKey().length == 0 ? 0 : region.getStartKey()[0];
          int n = 0;
          for (Result r = rows.next(); r != null; r = rows.next(), n++) {
            assertEquals(expectedBucket, r.getRow()[0], "bucket of a row in " + region);
          }
          assertTrue(n > 0, "bucket " + expectedBucket + " is empty");
        }
      }
    }
  }
}
