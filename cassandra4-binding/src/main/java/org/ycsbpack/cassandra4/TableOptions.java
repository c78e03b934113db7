package org.ycsbpack.cassandra4;

import site.ycsb.DBException;
import org.ycsbpack.common.PropertyValues;

/**
 * The WITH clause of a created table: compaction, caching and SSTable compression, the knobs
 * the anti-fraud report (S1) and the RF=3 comparison (S2) vary.
 */
final class TableOptions {
  private final String compaction;
  private final String caching;
  private final String compression;

  private TableOptions(String compaction, String caching, String compression) {
    this.compaction = compaction;
    this.caching = caching;
    this.compression = compression;
  }

  static TableOptions from(PropertyValues values) throws DBException {
    return new TableOptions(compaction(values), caching(values), compression(values));
  }

  /** {@code compaction = {...} AND caching = {...} AND compression = {...}}. */
  String cql() {
    return "compaction = " + compaction + " AND caching = " + caching
        + " AND compression = " + compression;
  }

  private static String compaction(PropertyValues values) throws DBException {
    switch (values.choice(CassandraProperties.COMPACTION, "size-tiered", "leveled", "unified")) {
      case "leveled":
        return "{'class': 'LeveledCompactionStrategy'}";
      case "unified":
        return "{'class': 'UnifiedCompactionStrategy'}";
      default:
        return "{'class': 'SizeTieredCompactionStrategy'}";
    }
  }

  private static String caching(PropertyValues values) throws DBException {
    switch (values.choice(CassandraProperties.CACHING, "keys", "rows", "all", "none")) {
      case "rows":
        return "{'keys': 'NONE', 'rows_per_partition': 'ALL'}";
      case "all":
        return "{'keys': 'ALL', 'rows_per_partition': 'ALL'}";
      case "none":
        return "{'keys': 'NONE', 'rows_per_partition': 'NONE'}";
      default:
        return "{'keys': 'ALL', 'rows_per_partition': 'NONE'}";
    }
  }

  private static final String[] COMPRESSORS = {
    "LZ4Compressor", "SnappyCompressor", "DeflateCompressor", "ZstdCompressor"};

  private static String compression(PropertyValues values) throws DBException {
    String spec = values.string(CassandraProperties.SSTABLE_COMPRESSION);
    if ("none".equalsIgnoreCase(spec)) {
      return "{'enabled': 'false'}";
    }
    String[] parts = spec.split(":", -1);
    String expected = "none or <Compressor>[:<chunk KB>] with Compressor one of "
        + String.join(", ", COMPRESSORS) + " and chunk KB a power of two from 1 to 1024";
    String compressor = null;
    for (String c : COMPRESSORS) {
      if (c.equalsIgnoreCase(parts[0].trim())) {
        compressor = c;
      }
    }
    if (compressor == null || parts.length > 2) {
      throw PropertyValues.bad(CassandraProperties.SSTABLE_COMPRESSION, spec, expected);
    }
    StringBuilder sb = new StringBuilder("{'class': '").append(compressor).append('\'');
    if (parts.length == 2) {
      int kb;
      try {
        kb = Integer.parseInt(parts[1].trim());
      } catch (NumberFormatException e) {
        throw PropertyValues.bad(CassandraProperties.SSTABLE_COMPRESSION, spec, expected);
      }
      if (kb < 1 || kb > 1024 || Integer.bitCount(kb) != 1) {
        throw PropertyValues.bad(CassandraProperties.SSTABLE_COMPRESSION, spec, expected);
      }
      sb.append(", 'chunk_length_in_kb': '").append(kb).append('\'');
    }
    return sb.append('}').toString();
  }
}
