package org.ycsbpack.hbase;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.batch.BatchResult;
import org.ycsbpack.common.listappend.ListAppendProperties;
import org.ycsbpack.common.listappend.ListOperations;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The anti-fraud history of scenario S1 on HBase: one row per (custom_id, type), row key from
 * {@link SaltedRowKey#listRowKey}, and one cell per element in the family {@code columnfamily}.
 * An append is a blind Put of one new cell whose qualifier orders it by append time (8-byte
 * big-endian microseconds, strictly increasing within a client JVM, then 4 bytes that tell
 * client JVMs apart), with the element's TTL as a cell TTL ({@code Put.setTTL}, milliseconds).
 * A read is a Get of the row: HBase returns the cells in qualifier order, i.e. oldest first, and
 * leaves out the expired ones. Why not HBase's Append: hbase-salted-binding/README.md, "Why a
 * cell per element".
 *
 * <p>Appends are sent at once even with {@code hbase.clientbuffering=true}: an append counts as
 * done only when HBase has it, which is what the "nothing lost" check compares with the stored
 * elements. Batches go through {@link Table#batch} (the report's {@code table.put(List)} and
 * {@code table.get(List)}), which reports each row's outcome.
 */
final class HBaseLists implements ListOperations, AutoCloseable {
  /** Tells the appends of different client JVMs apart when their clocks give equal times. */
  private static final byte[] WRITER_ID = new byte[4];
  private static final AtomicLong LAST_MICROS = new AtomicLong();

  static {
    new SecureRandom().nextBytes(WRITER_ID);
  }

  private final HBaseConnection connection;
  private final HBaseSettings settings;
  private final ErrorLog errors;
  /** This client thread's Table of each list table. */
  private final Map<String, Table> tables = new HashMap<>();

  HBaseLists(HBaseConnection connection, HBaseSettings settings, ErrorLog errors) {
    this.connection = connection;
    this.settings = settings;
    this.errors = errors;
  }

  @Override
  public String prepareListTable(String table) {
    try {
      connection.prepareTable(settings, TableName.valueOf(table),
          ListAppendProperties.TABLE.name());
      return null;
    } catch (IllegalArgumentException e) {
      return "property " + ListAppendProperties.TABLE.name() + "='" + table + "' is not an "
          + "HBase table name (" + e.getMessage() + ")";
    } catch (DBException e) {
      return e.getMessage();
    }
  }

  private Table table(String name) throws IOException {
    Table t = tables.get(name);
    if (t == null) {
      t = connection.connection.getTable(TableName.valueOf(name));
      tables.put(name, t);
    }
    return t;
  }

  /**
   * A qualifier later than every earlier one of this JVM: microseconds since the epoch, bumped
   * by one when the clock has not moved (or went back), then the writer id.
   */
  static byte[] nextQualifier() {
    long nowMicros = System.currentTimeMillis() * 1000;
    long micros = LAST_MICROS.accumulateAndGet(nowMicros, (last, now) -> Math.max(last + 1, now));
    byte[] q = new byte[8 + WRITER_ID.length];
    for (int b = 7; b >= 0; b--, micros >>>= 8) {
      q[b] = (byte) micros;
    }
    System.arraycopy(WRITER_ID, 0, q, 8, WRITER_ID.length);
    return q;
  }

  private Put appendOf(String key, String type, String element, int ttlSeconds) {
    Put put = new Put(settings.rowKeys.listRowKey(key, type));
    put.addColumn(settings.family, nextQualifier(), element.getBytes(StandardCharsets.UTF_8));
    if (ttlSeconds > 0) {
      // a cell TTL is in milliseconds; the family's TTL (hbase.ttl) still caps it
      put.setTTL(ttlSeconds * 1000L);
    }
    put.setDurability(settings.durability);
    return put;
  }

  private Get readOf(String key, String type) {
    return new Get(settings.rowKeys.listRowKey(key, type)).addFamily(settings.family);
  }

  private static List<String> elements(Result row) {
    List<String> out = new ArrayList<>(row.size());
    for (Cell cell : row.rawCells()) {
      out.add(new String(CellUtil.cloneValue(cell), StandardCharsets.UTF_8));
    }
    return out;
  }

  @Override
  public Status append(String table, String key, String type, String element, int ttlSeconds) {
    try {
      table(table).put(appendOf(key, type, element, ttlSeconds));
      return Status.OK;
    } catch (IllegalArgumentException e) {
      return errors.failed(Status.BAD_REQUEST, "APPEND", key, e);
    } catch (IOException | RuntimeException e) {
      return errors.failed(HBaseErrors.statusOf(e), "APPEND", key, e);
    }
  }

  @Override
  public Status readList(String table, String key, String type, List<String> out) {
    try {
      Result row = table(table).get(readOf(key, type));
      if (row.isEmpty()) {
        return Status.NOT_FOUND;
      }
      out.addAll(elements(row));
      return Status.OK;
    } catch (IllegalArgumentException e) {
      return errors.failed(Status.BAD_REQUEST, "READ_LIST", key, e);
    } catch (IOException | RuntimeException e) {
      return errors.failed(HBaseErrors.statusOf(e), "READ_LIST", key, e);
    }
  }

  @Override
  public BatchResult batchAppend(String table, List<String> keys, String type,
                                 List<String> elements, int ttlSeconds) {
    List<Row> puts = new ArrayList<>(keys.size());
    Object[] outcomes;
    try {
      for (int i = 0; i < keys.size(); i++) {
        puts.add(appendOf(keys.get(i), type, elements.get(i), ttlSeconds));
      }
      outcomes = BatchOutcomes.run(table(table), puts);
    } catch (IllegalArgumentException e) {
      return BatchResult.allFailed(keys.size(),
          errors.failed(Status.BAD_REQUEST, "BATCH_APPEND", keys.get(0) + "...", e));
    } catch (IOException | RuntimeException e) {
      return BatchResult.allFailed(keys.size(),
          errors.failed(HBaseErrors.statusOf(e), "BATCH_APPEND", keys.get(0) + "...", e));
    }
    return BatchOutcomes.writes("BATCH_APPEND", keys, outcomes, errors);
  }

  @Override
  public BatchResult batchReadList(String table, List<String> keys, String type,
                                   Map<String, List<String>> out) {
    List<Row> gets = new ArrayList<>(keys.size());
    Object[] outcomes;
    try {
      for (String key : keys) {
        gets.add(readOf(key, type));
      }
      outcomes = BatchOutcomes.run(table(table), gets);
    } catch (IllegalArgumentException e) {
      return BatchResult.allFailed(keys.size(),
          errors.failed(Status.BAD_REQUEST, "BATCH_READ_LIST", keys.get(0) + "...", e));
    } catch (IOException | RuntimeException e) {
      return BatchResult.allFailed(keys.size(),
          errors.failed(HBaseErrors.statusOf(e), "BATCH_READ_LIST", keys.get(0) + "...", e));
    }
    return BatchOutcomes.reads("BATCH_READ_LIST", keys, outcomes, errors,
        (i, row) -> out.put(keys.get(i), elements(row)));
  }

  /**
   * Scans the whole table without values (KeyOnlyFilter) and counts the cells of the rows of
   * {@code type}; expired cells are not returned, so they do not count.
   *
   * @throws IllegalStateException naming the table when the scan fails
   */
  @Override
  public long countElements(String table, String type) {
    Scan scan = new Scan().addFamily(settings.family).setFilter(new KeyOnlyFilter())
        .setCaching(1000).setCacheBlocks(false);
    long n = 0;
    try (ResultScanner rows = table(table).getScanner(scan)) {
      for (Result row : rows) {
        if (type.equals(settings.rowKeys.listType(row.getRow()))) {
          n += row.size();
        }
      }
      return n;
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("counting the list elements of table " + table
          + " failed: " + ErrorLog.describe(e), e);
    }
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (Table t : tables.values()) {
      try {
        t.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    tables.clear();
    if (first != null) {
      throw first;
    }
  }
}
