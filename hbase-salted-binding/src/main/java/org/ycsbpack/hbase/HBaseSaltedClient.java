package org.ycsbpack.hbase;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.ycsbpack.common.ErrorLog;
import org.ycsbpack.common.SharedConnections;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB binding for Apache HBase 2.6 with salted row keys ({@code bin/ycsb ... hbase-salted}).
 *
 * <p>All client threads share one HBase Connection (opened by the first init(), closed by the
 * last cleanup()); each thread has its own Table and, with {@code hbase.clientbuffering=true},
 * its own BufferedMutator. Row keys come from {@link SaltedRowKey}, rows from {@link HBaseRows}.
 */
public class HBaseSaltedClient extends DB {
  /** One Connection per distinct cluster configuration (YCSB's threads all share one). */
  private static final SharedConnections<HBaseConnection> CONNECTIONS =
      new SharedConnections<>(HBaseProperties.BINDING, "the connection", ErrorLog::describe);
  private static final ErrorLog ERRORS = new ErrorLog(HBaseProperties.BINDING);

  private HBaseSettings settings;
  private SharedConnections.Lease<HBaseConnection> lease;
  private HBaseConnection connection;
  private Table table;
  private BufferedWrites buffered;
  private HBaseLists lists;
  private HBaseBatches batches;
  // every SCAN's deliberate answer when the salt cannot scan in key order, made once
  private UnsupportedOperationException scanRefused;

  @Override
  public void init() throws DBException {
    try {
      settings = new HBaseSettings(getProperties());
      HBaseSettings s = settings;
      scanRefused = s.rowKeys.scansInKeyOrder() ? null
          : new UnsupportedOperationException(s.rowKeys.scanRefusal());
      lease = CONNECTIONS.acquire(s.connectionKey(), () -> HBaseConnection.open(s));
      connection = lease.connection();
      connection.prepareTable(s);
      table = connection.connection.getTable(s.table);
      if (s.clientBuffering) {
        buffered = new BufferedWrites(connection.connection, s, ERRORS);
      }
      batches = new HBaseBatches(connection.connection, table, settings, buffered, ERRORS);
      lists = new HBaseLists(connection, settings, ERRORS);
      lease.publish(batches, lists);
    } catch (Exception e) {
      connection = null;
      throw CONNECTIONS.initFailed(lease, e);
    }
  }

  /**
   * Flushes this thread's buffered writes (failed rows are reported, see {@link BufferedWrites}),
   * then releases the shared connection.
   */
  @Override
  public void cleanup() throws DBException {
    if (connection == null) {
      return;
    }
    String problem = null;
    try {
      if (buffered != null) {
        buffered.close();
        if (buffered.failedRows() > 0) {
          problem = buffered.failedRows() + " buffered writes of this thread failed (counted in "
              + "the Return= lines of their operations)";
        }
      }
      batches.close();
      table.close();
      lists.close();
    } catch (IOException e) {
      problem = "flushing buffered writes failed: " + ErrorLog.describe(e);
    } finally {
      buffered = null;
      lists = null;
      batches = null;
      connection = null;
      lease.release();
    }
    if (problem != null) {
      throw new DBException(HBaseProperties.BINDING + ": " + problem);
    }
  }

  @Override
  public Status read(String tableName, String key, Set<String> fields,
                     Map<String, ByteIterator> result) {
    try {
      Result row = table.get(HBaseRows.getOf(settings, key, fields));
      if (row.isEmpty()) {
        return Status.NOT_FOUND;
      }
      copyFields(row, result);
      return Status.OK;
    } catch (IllegalArgumentException e) {
      return ERRORS.failed(Status.BAD_REQUEST, "READ", key, e);
    } catch (IOException | RuntimeException e) {
      return ERRORS.failed(HBaseErrors.statusOf(e), "READ", key, e);
    }
  }

  @Override
  public Status scan(String tableName, String startkey, int recordcount, Set<String> fields,
                     Vector<HashMap<String, ByteIterator>> result) {
    if (scanRefused != null) {
      return ERRORS.failed(HBaseErrors.SCAN_UNSUPPORTED, "SCAN", startkey, scanRefused);
    }
    try {
      List<Result> rows = BucketedScan.scan(table, settings.rowKeys, settings.family, fields,
          startkey, recordcount);
      for (Result row : rows) {
        HashMap<String, ByteIterator> values = new HashMap<>();
        copyFields(row, values);
        result.add(values);
      }
      return Status.OK;
    } catch (IllegalArgumentException e) {
      return ERRORS.failed(Status.BAD_REQUEST, "SCAN", startkey, e);
    } catch (IOException | RuntimeException e) {
      return ERRORS.failed(HBaseErrors.statusOf(e), "SCAN", startkey, e);
    }
  }

  @Override
  public Status insert(String tableName, String key, Map<String, ByteIterator> values) {
    return write("INSERT", key, values);
  }

  @Override
  public Status update(String tableName, String key, Map<String, ByteIterator> values) {
    return write("UPDATE", key, values);
  }

  private Status write(String operation, String key, Map<String, ByteIterator> values) {
    try {
      return send(HBaseRows.putOf(settings, operation, key, values));
    } catch (IllegalArgumentException e) {
      return ERRORS.failed(Status.BAD_REQUEST, operation, key, e);
    } catch (IOException | RuntimeException e) {
      return ERRORS.failed(HBaseErrors.statusOf(e), operation, key, e);
    }
  }

  @Override
  public Status delete(String tableName, String key) {
    try {
      Delete delete = new BufferedWrites.OperationDelete(key, settings.rowKeys.rowKey(key));
      delete.setDurability(settings.durability);
      return send(delete);
    } catch (IllegalArgumentException e) {
      return ERRORS.failed(Status.BAD_REQUEST, "DELETE", key, e);
    } catch (IOException | RuntimeException e) {
      return ERRORS.failed(HBaseErrors.statusOf(e), "DELETE", key, e);
    }
  }

  /**
   * Writes now, or buffers: deletes take the same path as puts, so that a delete is never
   * overtaken by an earlier buffered put of the same row.
   */
  private Status send(Mutation m) throws IOException {
    if (buffered != null) {
      buffered.mutate(m);
      return Status.BATCHED_OK;
    }
    if (m instanceof Put) {
      table.put((Put) m);
    } else {
      table.delete((Delete) m);
    }
    return Status.OK;
  }

  private void copyFields(Result row, Map<String, ByteIterator> into) {
    HBaseRows.copyFields(row, settings.family, into);
  }
}
