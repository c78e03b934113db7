package org.ycsbpack.hbase;

import java.io.IOException;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.ycsbpack.common.ErrorLog;
import site.ycsb.DBException;

/**
 * Creates the YCSB table if it does not exist: one column family keeping one version, with the
 * requested compression, data block encoding, bloom filter and TTL, pre-split into
 * {@code hbase.presplit} regions over the salt prefixes (as the report's
 * {@code RegionSplitter ... UniformSplit -c 64} did). An existing table keeps its options: say
 * so, because a benchmark of a table variant on an old table would measure the wrong thing.
 */
final class TableCreator {
  private TableCreator() {
  }

  /** Creates the YCSB table ({@code table}) if it is missing. */
  static void createIfMissing(Admin admin, HBaseSettings s) throws DBException, IOException {
    createIfMissing(admin, s, s.table);
  }

  /**
   * Creates {@code table} if it is missing, with the YCSB table's options (list tables are
   * created this way too, so both variants of a benchmark run on alike tables).
   */
  static void createIfMissing(Admin admin, HBaseSettings s, TableName table)
      throws DBException, IOException {
    if (admin.tableExists(table)) {
      System.err.println("INFO hbase-salted: table " + table + " already exists; "
          + "hbase.presplit, hbase.compression, hbase.blockencoding, hbase.bloomfilter and "
          + "hbase.ttl were not applied to it");
      return;
    }
    createNamespaceIfMissing(admin, table.getNamespaceAsString());
    byte[][] splits = s.rowKeys.splitKeys(s.presplit);
    try {
      admin.createTable(descriptor(s, table), splits.length == 0 ? null : splits);
      System.err.println("INFO hbase-salted: created table " + table + " with "
          + s.presplit + " regions over the salt " + s.rowKeys + ", " + familySummary(s));
    } catch (TableExistsException e) {
      // another client JVM created it first: fine, it used the same properties or its own
      System.err.println("INFO hbase-salted: table " + table + " was created concurrently "
          + "by another client; using it as it is");
    } catch (IOException e) {
      if (s.compression != Compression.Algorithm.NONE
          && String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT)
              .contains("compression")) {
        throw new DBException("the HBase servers cannot use hbase.compression="
            + s.compression.name() + " (its codec is not available there: "
            + firstLine(e) + "); choose GZ, which needs no native library, or install the codec "
            + "on the servers");
      }
      throw new DBException("creating table " + table + " failed: " + ErrorLog.describe(e));
    }
  }

  static TableDescriptor descriptor(HBaseSettings s, TableName table) {
    ColumnFamilyDescriptor family = ColumnFamilyDescriptorBuilder.newBuilder(s.family)
        .setMaxVersions(1)
        .setCompressionType(s.compression)
        .setDataBlockEncoding(s.blockEncoding)
        .setBloomFilterType(s.bloomFilter)
        .setTimeToLive(s.ttlSeconds)
        .build();
    return TableDescriptorBuilder.newBuilder(table).setColumnFamily(family).build();
  }

  private static void createNamespaceIfMissing(Admin admin, String namespace)
      throws IOException {
    try {
      admin.getNamespaceDescriptor(namespace);
    } catch (NamespaceNotFoundException e) {
      try {
        admin.createNamespace(NamespaceDescriptor.create(namespace).build());
        System.err.println("INFO hbase-salted: created namespace " + namespace);
      } catch (NamespaceExistException raced) {
        // created meanwhile by another client
      }
    }
  }

  private static String familySummary(HBaseSettings s) {
    return "family " + s.familyName + " (compression " + s.compression.name() + ", encoding "
        + s.blockEncoding.name() + ", bloom " + s.bloomFilter.name() + ", ttl "
        + (s.ttlSeconds == org.apache.hadoop.hbase.HConstants.FOREVER ? "FOREVER"
            : s.ttlSeconds + " s") + ", 1 version)";
  }

  private static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
